import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, payTipWithApplePay, type Staff } from './helpers.ts';

/**
 * A staff member takes tips out on a phone: adds an IBAN, withdraws 10 EUR with the slide control, types the code
 * from the SMS (the dev outbox) and sees the payout in flight and then paid. The config starts the server with a
 * 36-second hold and a sandbox payout rail that settles a few seconds after the confirmation.
 */
test.describe.configure({ mode: 'serial' });

let staff: Staff;

async function mainBalance(request: APIRequestContext): Promise<number> {
  const response = await request.get(`/api/clients/${staff.clientId}/account`, {
    headers: { Authorization: `Bearer ${staff.jwt}` },
  });
  const account = ((await response.json()) as { data: { account_balances: { type: string; balance: number }[] } }).data;
  return account.account_balances.find((item) => item.type === 'main')?.balance ?? 0;
}

/** The code of the withdrawal SMS (its text shows the amount and the masked account). */
async function readPayoutCode(request: APIRequestContext): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(staff.phone)}`);
      const messages = ((await response.json()) as { data: { body: string }[] }).data;
      const sms = messages.find((message) => message.body.includes('10.00') && message.body.includes('5001'));
      code = sms ? /\b(\d{6})\b/.exec(sms.body)?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  return code!;
}

async function signIn(page: Page, baseURL: string) {
  const { hostname } = new URL(baseURL);
  await page.context().addCookies([
    { name: 'qtfo__token', value: staff.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: staff.refreshToken, domain: hostname, path: '/' },
  ]);
  // The cookie banner is another test's subject: accept it up front so it covers nothing here.
  await page.addInitScript(() => {
    localStorage.setItem('Functional:accepted', 'true');
    localStorage.setItem('GDPR:accepted', 'true');
  });
}

/** Drags the slide control's handle to the end of its track with the pointer, as a finger would. */
async function slideToConfirm(page: Page) {
  const track = page.getByTestId('slide-to-confirm');
  const box = (await track.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.height / 2, y);
  await page.mouse.down();
  for (let step = 1; step <= 10; step += 1)
    await page.mouse.move(box.x + box.height / 2 + ((box.width - box.height) * step) / 10, y);
  await page.mouse.up();
}

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(150_000);
  const request = await playwright.request.newContext({ baseURL });
  staff = await createStaffWithCard(request);
  // Two 10 EUR tips: 19 EUR once the 5% fee is taken and the 36-second hold is over (10 EUR + 2 EUR fee are needed).
  await payTipWithApplePay(request, staff.cardId, { amount_cents: 1000 });
  await payTipWithApplePay(request, staff.cardId, { amount_cents: 1000 });
  await expect.poll(() => mainBalance(request), { timeout: 120_000, intervals: [1_000, 2_000] }).toBe(1900);
  await request.dispose();
});

test('a staff member adds an IBAN, withdraws 10 EUR, types the SMS code and sees the payout in flight and then paid', async ({
  page,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, baseURL!);

  await page.goto('/#/payouts');
  await expect(page.getByRole('heading', { name: 'Payouts', level: 1 })).toBeVisible();
  await expect(page.getByTestId('payouts-balance-main')).toHaveText('€19.00');
  await expect(page.getByTestId('payouts-empty')).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);

  // The payout method: the IBAN is grouped by four as it is typed and checked at once.
  await page.getByRole('link', { name: 'Add a payout method' }).click();
  await expect(page.getByRole('heading', { name: 'Add a payout method', level: 1 })).toBeVisible();
  const iban = page.getByRole('textbox', { name: 'IBAN' });
  await iban.pressSequentially('lv80bank00004351');
  await expect(page.getByTestId('iban-feedback')).toHaveText('Latvia: 16 of 21 characters');
  await iban.pressSequentially('95001');
  await expect(iban).toHaveValue('LV80 BANK 0000 4351 9500 1');
  await expect(page.getByTestId('iban-feedback')).toHaveText('Valid IBAN · Latvia');
  await page.getByRole('textbox', { name: 'BIC / SWIFT' }).fill('HABALV22');
  await page.getByRole('textbox', { name: "Account holder's last name" }).fill('Bērziņa');
  await page.getByRole('textbox', { name: 'Address' }).fill('Brīvības iela 1, Rīga, LV-1010, Latvia');
  expect(await a11yProblems(page)).toEqual([]);
  await page.getByRole('button', { name: 'Save payout method' }).click();

  await expect(page).toHaveURL(/#\/payouts$/);
  await expect(page.getByTestId('masked-account')).toHaveText('LV•• •••• 5001');
  await expect(page.getByText('Default', { exact: true })).toBeVisible();

  // Amount → account → slide.
  await page.getByRole('button', { name: 'Withdraw' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw money' });
  await dialog.getByRole('textbox', { name: 'Amount to withdraw' }).fill('2');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('Minimum withdrawal amount €3')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Amount to withdraw' }).fill('18');
  await expect(dialog.getByText('Not enough money on balance')).toBeVisible();
  await dialog.getByRole('button', { name: 'Withdraw all' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Amount to withdraw' })).toHaveValue('17.00');
  await dialog.getByRole('textbox', { name: 'Amount to withdraw' }).fill('10');
  await expect(dialog.getByTestId('summary-receive')).toHaveText('€10.00');
  await expect(dialog.getByTestId('summary-fee')).toHaveText('€2.00');
  await expect(dialog.getByTestId('summary-total')).toHaveText('€12.00');
  await expect(dialog.getByTestId('summary-arrival')).not.toBeEmpty();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('radio', { checked: true })).toBeVisible();
  await expect(dialog.getByRole('slider', { name: 'Slide to withdraw €10.00' })).toBeVisible();
  expect(await a11yProblems(page, { scope: 'dialog' })).toEqual([]);
  await slideToConfirm(page);

  // The code, bound to this payout: the page shows the amount and the masked account the SMS names.
  await expect(page).toHaveURL(/#\/payouts\/[0-9a-f-]{36}\/confirmation$/);
  await expect(page.getByRole('heading', { name: 'Confirm payout', level: 1 })).toBeVisible();
  await expect(page.getByTestId('confirm-account')).toHaveText('LV•• •••• 5001');
  await expect(page.getByTestId('summary-receive')).toHaveText('€10.00');
  await expect(page.getByText(/Send a new code in \d+ s/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Confirmation code' }).fill(await readPayoutCode(request));
  await page.getByRole('button', { name: 'Confirm €10.00' }).click();

  const outcome = page.getByTestId('payout-outcome');
  await expect(outcome).toHaveAttribute('data-status', 'in_flight');
  await expect(page.getByRole('heading', { name: 'Your money is on its way' })).toBeVisible();
  await expect(page.getByTestId('payout-status')).toHaveText('On its way');
  await expect(page.getByTestId('outcome-arrival')).not.toBeEmpty();
  await expect(outcome).toHaveAttribute('data-status', 'paid', { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'Payout paid' })).toBeVisible();

  // The history and the balance: 19 − 10 − 2 fee.
  await page.getByRole('link', { name: 'Back to payouts' }).click();
  const row = page.getByTestId('payout');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-status', 'paid');
  await expect(row.getByTestId('payout-amount')).toHaveText('−€10.00');
  await expect(row.getByTestId('payout-status')).toHaveText('Paid');
  await expect(page.getByTestId('payouts-balance-main')).toHaveText('€7.00');
  expect(await a11yProblems(page)).toEqual([]);
});

test('the UK tab and the settings list the method masked, with its default badge', async ({ page, baseURL }) => {
  await signIn(page, baseURL!);
  await page.goto('/#/payouts/add-method');
  await page.getByRole('tab', { name: 'UK account' }).click();
  await expect(page.getByRole('tab', { name: 'UK account' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('textbox', { name: 'Sort code' }).fill('200000');
  await expect(page.getByRole('textbox', { name: 'Sort code' })).toHaveValue('20-00-00');
  await page.getByRole('button', { name: 'Save payout method' }).click();
  await expect(page.getByRole('textbox', { name: 'Account number' })).toHaveAttribute('aria-invalid', 'true');
  expect(await a11yProblems(page)).toEqual([]);

  await page.goto('/#/settings');
  await page.getByRole('link', { name: /Payout methods/ }).click();
  await expect(page.getByRole('heading', { name: 'Payout methods', level: 1 })).toBeVisible();
  await expect(page.getByTestId('payout-method')).toHaveCount(1);
  await expect(page.getByTestId('payout-method').getByTestId('masked-account')).toHaveText('LV•• •••• 5001');
});
