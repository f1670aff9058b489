import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, type Staff, payByCardAtCheckout } from './helpers.ts';

/**
 * Invoices: the staff member creates one on /invoices (link, QR code, cancel), and a guest on a phone pays it on the
 * public page through the sandbox's hosted checkout; a paid or canceled invoice cannot be paid again.
 */
test.describe.configure({ mode: 'serial' });

let staff: Staff;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  staff = await createStaffWithCard(request, { public_name: 'Līga' });
  await request.dispose();
});

async function signIn(page: Page, baseURL: string, locale?: string) {
  const { hostname } = new URL(baseURL);
  await page
    .context()
    .addCookies([
      { name: 'qtfo__token', value: staff.jwt, domain: hostname, path: '/' },
      { name: 'refresh__key', value: staff.refreshToken, domain: hostname, path: '/' },
      ...(locale ? [{ name: 'locale', value: locale, domain: hostname, path: '/' }] : []),
    ]);
}

async function createInvoice(request: APIRequestContext, description: string, amount_cents: number) {
  const created = await request.post(`/api/clients/${staff.clientId}/invoices`, {
    headers: { Authorization: `Bearer ${staff.jwt}` },
    data: { description, amount_cents },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { data: { id: string; url: string } }).data;
}

test('staff create an invoice, see its link and QR code, and cancel another', async ({ page, baseURL }) => {
  await signIn(page, baseURL!);
  await page.goto('/#/invoices');
  await expect(page.getByRole('heading', { name: 'Invoices', level: 1 })).toBeVisible();
  await expect(page.getByTestId('invoices-empty')).toBeVisible();

  // Bad input is refused in the form, with the rule's text.
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page.getByText('This field is required')).toBeVisible();
  await page.getByLabel('What is it for?').fill('Guitar lesson, 3 May');
  await page.getByLabel('Amount').fill('9000');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page.getByText('Enter an amount from €1.00 to €5 000.00')).toBeVisible();

  await page.getByLabel('Amount').fill('45,50');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  const row = page.getByTestId('invoice-row').first();
  await expect(row).toHaveAttribute('data-status', 'open');
  await expect(row).toContainText('Guitar lesson, 3 May');
  await expect(row).toContainText('€45.50');
  await expect(row.getByTestId('invoice-link')).toContainText('/invoice/');

  await row.getByRole('button', { name: 'QR code' }).click();
  const qr = page.getByRole('img', { name: /QR code of the invoice/ });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
  expect(await a11yProblems(page)).toEqual([]);
  await page.keyboard.press('Escape');

  await page.getByLabel('What is it for?').fill('Deposit');
  await page.getByLabel('Amount').fill('20');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  const deposit = page.getByTestId('invoice-row').filter({ hasText: 'Deposit' });
  await deposit.getByRole('button', { name: 'Cancel invoice' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel invoice' }).click();
  await expect(deposit).toHaveAttribute('data-status', 'canceled');
  await expect(deposit).toContainText('Canceled');
});

test('a guest pays an invoice on a phone; it then says it is paid', async ({ page, request, viewport }) => {
  test.skip((viewport?.width ?? 0) > 400, 'the guest journey runs on the phone viewport (390×844)');
  const invoice = await createInvoice(request, 'Wedding photos, 12 June', 12_000);
  await page.goto(new URL(invoice.url).pathname);
  await expect(page.getByRole('heading', { name: 'Līga' })).toBeVisible();
  await expect(page.getByTestId('invoice-description')).toHaveText('Wedding photos, 12 June');
  await expect(page.getByTestId('invoice-amount')).toHaveText('€120.00');
  expect(await a11yProblems(page)).toEqual([]);

  await page.getByRole('button', { name: 'Pay €120.00' }).click();
  await expect(page.getByText('Please accept the terms of use to continue.')).toBeVisible();
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: 'Pay €120.00' }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await payByCardAtCheckout(page, '4242 4242 4242 4242');

  await expect(page).toHaveURL(new RegExp(`/invoice/${invoice.id}/success\\?payment=`));
  await expect(page.getByTestId('invoice-success')).toContainText('Your payment of €120.00 to Līga has been received.');

  await page.goto(`/invoice/${invoice.id}`);
  await expect(page.getByTestId('invoice-paid')).toHaveText('This invoice has been paid.');
  await expect(page.getByRole('button', { name: /Pay/ })).toHaveCount(0);
});

test('a canceled invoice and an unknown link say so, in Latvian and in Spanish', async ({ page, request, baseURL, viewport }) => {
  test.skip((viewport?.width ?? 0) > 400, 'the guest pages run on the phone viewport (390×844)');
  const invoice = await createInvoice(request, 'Stundas maksa', 2_500);
  const canceled = await request.post(`/api/clients/${staff.clientId}/invoices/${invoice.id}/cancel`, {
    headers: { Authorization: `Bearer ${staff.jwt}` },
  });
  expect(canceled.ok()).toBeTruthy();
  const { hostname } = new URL(baseURL!);

  await page.context().addCookies([{ name: 'locale', value: 'lv', domain: hostname, path: '/' }]);
  await page.goto(`/invoice/${invoice.id}`);
  await expect(page.getByTestId('invoice-canceled')).toHaveText('Šis rēķins ir atcelts, un to nevar apmaksāt.');
  await expect(page.getByText('Maksājumu pieprasa')).toBeVisible();

  await page.context().addCookies([{ name: 'locale', value: 'es', domain: hostname, path: '/' }]);
  await page.goto(`/invoice/${crypto.randomUUID()}`);
  await expect(page.getByTestId('invoice-unknown')).toContainText('Pide un enlace nuevo a quien te lo envió.');

  const open = await createInvoice(request, 'Clase de guitarra', 3_000);
  await page.goto(`/invoice/${open.id}`);
  await expect(page.getByText('Solicitud de pago de')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pagar .*30[.,]00/ })).toBeVisible();
});

test('the staff member sees the paid invoice and its PAYIN on hold', async ({ page, baseURL, viewport }) => {
  test.skip((viewport?.width ?? 0) > 400, 'follows the phone journey above');
  await signIn(page, baseURL!);
  await page.goto('/#/invoices');
  await expect(page.getByTestId('invoice-row').filter({ hasText: 'Wedding photos, 12 June' })).toHaveAttribute(
    'data-status',
    'paid',
  );
  await page.goto('/#/transactions');
  await expect(page.getByTestId('transaction').filter({ hasText: 'Invoice: Wedding photos, 12 June' })).toContainText('+€114.00');
});
