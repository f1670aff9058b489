import { expect, test } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, type Staff, payByCardAtCheckout } from './helpers.ts';

/**
 * The guest's page at its limits (issue 16): a tip from the first screen of a 360×640 phone, a tip with JavaScript
 * off, taps before the script starts, a declined card that keeps what the guest entered, and the hash-form links of
 * old QR codes.
 */

let staff: Staff;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  staff = await createStaffWithCard(request, {
    welcome_phrase: 'Paldies! Thank you for coming, it was a pleasure to serve you.',
  });
  await request.dispose();
});

test('on a 360×640 phone an amount, the wallets and Pay are on the first screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  // The script hydrates the server's markup: a mismatch would be logged as a recoverable error.
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  // As on an iPhone, whose browser has Apple Pay: both wallets are offered.
  await page.addInitScript(() => Object.assign(window, { ApplePaySession: class {} }));
  await page.goto(`/payment/${staff.cardId}`);
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('radio', { name: '€5', exact: true })).toBeChecked();
  for (const name of ['Pay €5.00', 'Pay with Apple Pay', 'Pay with Google Pay']) {
    const box = (await page.getByRole('button', { name }).boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height, `${name} ends within the first screen`).toBeLessThanOrEqual(640);
  }
  const terms = (await page.getByRole('checkbox', { name: /I accept the terms of use/ }).boundingBox())!;
  expect(terms.y + terms.height).toBeLessThanOrEqual(640);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await a11yProblems(page)).toEqual([]);
  expect(problems).toEqual([]);

  // Two taps: the terms and Pay, without scrolling.
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: 'Pay €5.00' }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await expect(page.locator('.amount')).toHaveText('€5.00');
});

test('with JavaScript off a monthly donation keeps what was typed when refused, then starts, in Spanish', async ({
  browser,
  playwright,
  baseURL,
}) => {
  const request = await playwright.request.newContext({ baseURL });
  const charity = await createStaffWithCard(request, { activity_type: 'DONATION', public_name: 'Ķepu draugi' });
  await request.dispose();
  // A Spanish phone: the pages after the checkout take the browser's language (their addresses carry no prefix).
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 360, height: 640 },
    locale: 'es-ES',
  });
  const page = await context.newPage();
  await page.goto(`/es/payment/${charity.cardId}`);
  await page.getByRole('radio', { name: '10 €', exact: true }).check();
  await page.getByRole('radio', { name: 'Cada mes' }).check();
  await page.locator('input[name="donor_name"]').fill('Ana García');
  await page.locator('input[name="email"]').fill('ana@');
  await page.locator('input[name="donor_code"]').fill('X1234567L');
  await page.locator('input[name="terms"]').check();
  await page.getByRole('button', { name: /^Pagar \d/ }).click();
  // Refused by the server: everything typed is still there, monthly still chosen, in Spanish still.
  await expect(page.locator('input[name="donor_name"]')).toHaveValue('Ana García');
  await expect(page.getByRole('radio', { name: 'Cada mes' })).toBeChecked();
  await page.locator('input[name="email"]').fill('ana@example.es');
  await page.locator('input[name="terms"]').check();
  await page.getByRole('button', { name: /^Pagar \d/ }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.getByRole('button', { name: /^Pagar \d/ }).click();
  await expect(page).toHaveURL(new RegExp(`/payment/${charity.cardId}/success\\?payment=`), { timeout: 20_000 });
  await expect(page.getByTestId('success-amount')).toHaveText('Tu donación mensual de 10,00 € a Ķepu draugi ha comenzado.');
  await context.close();
});

test('with JavaScript off a tip reaches the checkout and comes back to "Thank you!"', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 640 } });
  const page = await context.newPage();
  await page.goto(`/payment/${staff.cardId}`);
  await expect(page.getByRole('heading', { name: 'Anna' })).toBeVisible();
  await page.getByRole('radio', { name: '€10', exact: true }).check();
  await page.locator('#rating-5').check();
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await expect(page.locator('.amount')).toHaveText('€10.00');
  await payByCardAtCheckout(page, '4242 4242 4242 4242');
  // The return page reloads itself until the provider's event lands, then the server forwards to the outcome.
  await expect(page).toHaveURL(new RegExp(`/payment/${staff.cardId}/success\\?payment=`), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await expect(page.getByTestId('success-amount')).toContainText('€10.00');
  await expect(page.getByTestId('payment-reference')).toHaveText(/^Reference [0-9A-F]{8}$/);

  // A refused form keeps what was entered.
  await page.goto(`/payment/${staff.cardId}`);
  await page.getByRole('textbox', { name: 'Other amount' }).fill('7,50');
  await page.getByRole('button', { name: /^Pay €/ }).click();
  await expect(page.getByText('Please accept the terms of use to continue.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Other amount' })).toHaveValue('7,50');
  await context.close();
});

test('what the guest taps before the script has started is kept when it takes over', async ({ page }) => {
  // The script starts after the first paint: hold it until the taps are done on the server's form.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/public-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/payment/${staff.cardId}`);
  await page.getByRole('radio', { name: '€10', exact: true }).check();
  await page.getByText('Cover the transaction cost').click();
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  // Still the server's text: nothing has run yet.
  await expect(page.getByRole('button', { name: 'Pay €5.00' })).toBeVisible();

  release();
  // The script's total follows the taps (10 EUR, the cost covered), and the ticked terms stay ticked.
  await expect(page.getByRole('button', { name: 'Pay €10.50' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /I accept the terms of use/ })).toBeChecked();
  await page.getByRole('button', { name: 'Pay €10.50' }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await expect(page.locator('.amount')).toHaveText('€10.50');
});

test('a declined card returns to the form with everything the guest entered and the message', async ({ page }) => {
  await page.goto(`/payment/${staff.cardId}`);
  await page.getByRole('radio', { name: '€20', exact: true }).check();
  await page.getByText('Cover the transaction cost').click();
  await expect(page.getByRole('switch', { name: 'Cover the transaction cost' })).toBeChecked();
  await page.locator('#rating-4').check();
  await page.getByText('Add a message').click();
  await page.getByRole('textbox', { name: 'Message' }).fill('Lovely service');
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: 'Pay €21.00' }).click();
  await payByCardAtCheckout(page, '4000 0000 0000 0002');

  await expect(page).toHaveURL(new RegExp(`/payment/${staff.cardId}/failed\\?payment=`));
  await expect(page.getByRole('alert').getByRole('heading', { name: 'Oops... Something went wrong' })).toBeVisible();
  await expect(page.getByRole('radio', { name: '€20', exact: true })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Cover the transaction cost' })).toBeChecked();
  await expect(page.locator('#rating-4')).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('Lovely service');
  await expect(page.getByRole('checkbox', { name: /I accept the terms of use/ })).toBeChecked();
  expect(await a11yProblems(page)).toEqual([]);

  // Opened again with its script held back: an edit of the pre-filled message made before the script starts is kept
  // (hydrating a text area would put the server's text back).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/public-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  await page.getByRole('textbox', { name: 'Message' }).fill('Lovely service, thank you');
  release();
  // The counter is the script's: it counts the edited text.
  await expect(page.getByText('25/255')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('Lovely service, thank you');

  // One tap to try again with another card: the same 21 EUR, a new payment.
  await page.getByRole('button', { name: 'Pay €21.00' }).click();
  await payByCardAtCheckout(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  await expect(page.getByTestId('success-amount')).toContainText('€20.00');
});

test('a made-up payment id gets no "Thank you!"', async ({ page }) => {
  const response = await page.goto(`/payment/${staff.cardId}/success?payment=00000000-0000-4000-8000-000000000000`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'We could not find this payment' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Thank you!' })).toHaveCount(0);
});

test('the hash form of a payment link (old links and QR codes) opens the guest page', async ({ page }) => {
  await page.goto(`/#/payment/${staff.cardId}`);
  await expect(page).toHaveURL(new RegExp(`/payment/${staff.cardId}$`));
  await expect(page.getByRole('heading', { name: 'Anna' })).toBeVisible();
  await page.goto(`/#/lv/payment/${staff.cardId}`);
  await expect(page).toHaveURL(new RegExp(`/payment/${staff.cardId}$`));
  await expect(page.getByRole('heading', { name: 'Anna' })).toBeVisible();
});

for (const { prefix, checkAgain, payAgain, pay } of [
  { prefix: '', checkAgain: 'Check again', payAgain: 'Pay again anyway', pay: /^Pay €5\.00/ },
  { prefix: '/fr', checkAgain: 'Vérifier à nouveau', payAgain: 'Payer quand même à nouveau', pay: /^Payer 5,00 €/ },
]) {
  test(`after an unconfirmed payment, checking it comes first and paying again is a deliberate step (${prefix || '/en'})`, async ({
    page,
    request,
  }) => {
    const created = await request.post(`/api/public/cards/${staff.cardId}/payments`, {
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      data: { amount_cents: 500, cover_fee: false, terms_accepted: true },
    });
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    // The provider never answered: the payment is still pending when the guest lands here.
    await page.goto(`${prefix}/payment/${staff.cardId}/timeout?payment=${id}`);
    await expect(page.getByRole('link', { name: checkAgain })).toHaveAttribute(
      'href',
      `${prefix || '/en'}/payment/walletto-result?payment=${id}`,
    );
    await expect(page.getByRole('button', { name: pay })).toBeHidden();
    await page.getByText(payAgain).click();
    await expect(page.getByRole('button', { name: pay })).toBeVisible();
  });
}

test('Back from the checkout brings the form back with the amount the guest typed', async ({ page }) => {
  await page.goto(`/payment/${staff.cardId}`);
  await page.getByRole('textbox', { name: 'Other amount' }).fill('7.50');
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: 'Pay €7.50' }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await page.goBack();
  await expect(page.getByRole('textbox', { name: 'Other amount' })).toHaveValue('7.50');
  await expect(page.getByRole('button', { name: 'Pay €7.50' })).toBeVisible();
});
