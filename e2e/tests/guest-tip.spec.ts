import { expect, test, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, type Staff, payByCardAtCheckout } from './helpers.ts';

/**
 * A guest's tip on a phone, from the QR card's page through the sandbox's hosted checkout and back, and the staff
 * member's history. The config starts the server with a 36-second hold (HOLD_HOURS=0.01) and a 500 ms worker, so a
 * tip is on HOLD when the staff member first looks and PAID within a minute.
 */
test.describe.configure({ mode: 'serial' });

let staff: Staff;

/** The guest's part up to the provider's page: 5 EUR, terms, pay. */
async function startTip(page: Page) {
  await page.goto(`/payment/${staff.cardId}`);
  await expect(page.getByRole('heading', { name: 'Anna' })).toBeVisible();
  await page.getByRole('radio', { name: '€5', exact: true }).check();
  await expect(page.getByTestId('summary-total')).toHaveText('€5.00');
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: 'Pay €5.00' }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
}

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  staff = await createStaffWithCard(request, { welcome_phrase: 'Paldies! Thank you for coming.' });
  await request.dispose();
});

test('a guest tips 5 EUR with the success card and lands on success', async ({ page }) => {
  await startTip(page);
  await payByCardAtCheckout(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(new RegExp(`/payment/${staff.cardId}/success\\?payment=`));
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await expect(page.getByTestId('success-amount')).toContainText('€5.00');
});

test("a guest tips once more with the Apple Pay button on the card's page and lands on success", async ({ page }) => {
  // As on an iPhone, whose browser has Apple Pay.
  await page.addInitScript(() => Object.assign(window, { ApplePaySession: class {} }));
  await page.goto(`/payment/${staff.cardId}`);
  await expect(page.getByRole('radio', { name: '€5', exact: true })).toBeChecked();
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: 'Pay with Apple Pay' }).click();
  // The checkout opens on the wallet's sheet for the same 5 EUR.
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout\?.*wallet=apple_pay/);
  await expect(page.locator('.amount')).toHaveText('€5.00');
  await page.getByRole('button', { name: 'Pay with Apple Pay' }).click();
  await expect(page).toHaveURL(/\/success\?payment=/);
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
});

test('the staff member sees both tips on /transactions, in HOLD and then PAID after settlement', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { hostname } = new URL(baseURL!);
  await context.addCookies([
    { name: 'qtfo__token', value: staff.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: staff.refreshToken, domain: hostname, path: '/' },
  ]);
  await page.goto('/#/transactions');
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  const rows = page.getByTestId('transaction');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute('data-status', 'HOLD');
  await expect(rows.first()).toContainText('+€4.75');
  await expect(rows.first()).toContainText('Fee €0.25');
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(rows).toHaveCount(2);
        return rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-status')));
      },
      { timeout: 90_000, intervals: [1_000, 2_000] },
    )
    .toEqual(['PAID', 'PAID']);
  await expect(rows.first().locator('[data-status="PAID"]')).toHaveText('Paid');

  // The overview counts them and the money is in the main balance.
  await page.goto('/#/overview');
  await expect(page.getByTestId('tip-count')).toHaveText('2');
  await expect(page.getByTestId('received-today')).toHaveText('€9.50');
  await expect(page.getByTestId('balance-main')).toHaveText('€9.50');
  await expect(page.getByTestId('latest-transactions').getByTestId('transaction')).toHaveCount(2);

  expect(await a11yProblems(page)).toEqual([]);
  await page.goto('/#/transactions');
  await expect(rows).toHaveCount(2);
  expect(await a11yProblems(page)).toEqual([]);
});

test('a declined card returns to the form, still 5 EUR, with the failure message', async ({ page }) => {
  await startTip(page);
  await payByCardAtCheckout(page, '4000 0000 0000 0002');
  await expect(page).toHaveURL(new RegExp(`/payment/${staff.cardId}/failed\\?payment=`));
  await expect(page.getByRole('heading', { name: 'Oops... Something went wrong' })).toBeVisible();
  await expect(page.getByRole('radio', { name: '€5', exact: true })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Pay €5.00' })).toBeVisible();
});

test('the checkout groups the card number as typed and refuses a wrong one on the page, not as a decline', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await startTip(page);
  const number = page.getByLabel('Card number');
  await number.pressSequentially('4242424242424242');
  await expect(number).toHaveValue('4242 4242 4242 4242');
  await page.getByLabel('Expiry').pressSequentially('1234');
  await expect(page.getByLabel('Expiry')).toHaveValue('12 / 34');

  // Too short: the browser keeps the guest on the page and says why.
  await number.fill('1234');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay €\d/ }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  expect(await number.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);

  // Long enough but not a card number (its check digit is wrong): the checkout answers on the page, nothing is charged.
  await number.fill('4242 4242 4242 4241');
  await page.getByRole('button', { name: /^Pay €\d/ }).click();
  await expect(page.getByRole('alert')).toHaveText('Your card number is invalid. Check it and try again.');
  await expect(page.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true');

  await payByCardAtCheckout(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(new RegExp(`/payment/${staff.cardId}/success\\?payment=`));
});

test('a browser without Apple Pay is offered Google Pay alone, on the tip page and on the checkout', async ({ page }) => {
  await page.goto(`/payment/${staff.cardId}`);
  await expect(page.getByRole('button', { name: 'Pay with Google Pay' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay with Apple Pay' })).toHaveCount(0);
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await expect(page.getByRole('button', { name: 'Pay with Google Pay' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay with Apple Pay' })).toHaveCount(0);
});

test('cancel on the checkout lands on canceled', async ({ page }) => {
  await startTip(page);
  await page.getByRole('button', { name: 'Cancel and return' }).click();
  await expect(page).toHaveURL(new RegExp(`/payment/${staff.cardId}/canceled\\?payment=`));
  await expect(page.getByRole('heading', { name: 'Payment canceled' })).toBeVisible();
});

test('an unknown card id shows that the link is no longer active', async ({ page }) => {
  const response = await page.goto('/payment/00000000-0000-4000-8000-000000000000');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This link is no longer active or has been deleted...' })).toBeVisible();
});

test('the payment page has no serious accessibility violations, in English and in Latvian', async ({
  page,
  context,
  baseURL,
}) => {
  await page.goto(`/payment/${staff.cardId}`);
  await expect(page.getByRole('heading', { name: 'Anna' })).toBeVisible();
  // The errors and the fee summary are part of what a guest meets: check them too.
  await page.getByRole('textbox', { name: 'Other amount' }).fill('0');
  await page.getByRole('button', { name: 'Choose an amount' }).click();
  await expect(page.getByText('Enter an amount from €1.00 to €500.00')).toBeVisible();
  await page.getByRole('radio', { name: '€10', exact: true }).check();
  await expect(page.getByTestId('fee-summary')).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);

  await context.addCookies([{ name: 'locale', value: 'lv', domain: new URL(baseURL!).hostname, path: '/' }]);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'lv');
  await expect(page.getByText('Atstājiet dzeramnaudu')).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
});
