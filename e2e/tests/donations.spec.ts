import { expect, test } from './fixtures.ts';
import { createStaffWithCard, type Staff, payByCardAtCheckout } from './helpers.ts';

/**
 * A one-off donation on a phone: the public page of a DONATION card shows the donor form of spec 3 instead of the
 * tip's stars and message; the donor pays on the sandbox's hosted checkout and the charity sees who gave.
 */
test.describe.configure({ mode: 'serial' });

let charity: Staff;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  charity = await createStaffWithCard(request, { public_name: 'Ķepu draugi', activity_type: 'DONATION' });
  await request.dispose();
});

test('a donor gives 10 EUR once, with their details for the receipt', async ({ page, request }) => {
  await page.goto(`/payment/${charity.cardId}`);
  await expect(page.getByText('Donate to')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Ķepu draugi' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Rate the service' })).toHaveCount(0);

  await page.getByRole('radio', { name: '€10', exact: true }).check();
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: 'Pay €10.00' }).click();
  await expect(page.getByText('This field is required').first()).toBeVisible();

  await page.getByLabel('Name or company').fill('Anna Kalniņa');
  await page.getByLabel('E-mail').fill('anna@example');
  await page.getByLabel('Personal code or company number').fill('010190-12345');
  await page.getByRole('button', { name: 'Pay €10.00' }).click();
  await expect(page.getByText('Invalid email address.')).toBeVisible();
  await page.getByLabel('E-mail').fill('anna@example.lv');
  await page.getByRole('button', { name: 'Pay €10.00' }).click();

  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await payByCardAtCheckout(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(new RegExp(`/payment/${charity.cardId}/success\\?payment=`));
  await expect(page.getByTestId('success-amount')).toHaveText('Your donation of €10.00 to Ķepu draugi has been received.');

  const list = await request.get(`/api/clients/${charity.clientId}/donations`, {
    headers: { Authorization: `Bearer ${charity.jwt}` },
  });
  expect(((await list.json()) as { data: unknown[] }).data).toEqual([
    expect.objectContaining({
      kind: 'one_off',
      donor_name: 'Anna Kalniņa',
      donor_email: 'anna@example.lv',
      donor_code: '010190-12345',
      amount_cents: 1_000,
      status: 'succeeded',
    }),
  ]);
});

test('the charity sees the donor on its Donations page', async ({ page, baseURL }) => {
  const { hostname } = new URL(baseURL!);
  await page.context().addCookies([
    { name: 'qtfo__token', value: charity.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: charity.refreshToken, domain: hostname, path: '/' },
  ]);
  await page.goto('/#/donations');
  await expect(page.getByRole('heading', { name: 'Donations', level: 1 })).toBeVisible();
  const row = page.getByTestId('donation-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Anna Kalniņa');
  await expect(row).toContainText('anna@example.lv');
  await expect(row).toContainText('010190-12345');
  await expect(row).toContainText('One-off');
  await expect(row).toContainText('€10.00');
});

test('the donor form speaks Latvian and Spanish', async ({ page, baseURL }) => {
  const { hostname } = new URL(baseURL!);
  await page.context().addCookies([{ name: 'locale', value: 'lv', domain: hostname, path: '/' }]);
  await page.goto(`/payment/${charity.cardId}`);
  await expect(page.getByLabel('Personas kods vai uzņēmuma reģistrācijas numurs')).toBeVisible();
  await page.context().addCookies([{ name: 'locale', value: 'es', domain: hostname, path: '/' }]);
  await page.goto(`/payment/${charity.cardId}`);
  await expect(page.getByText('Donar a')).toBeVisible();
  await expect(page.getByLabel('Nombre o empresa')).toBeVisible();
});
