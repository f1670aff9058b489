import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, payTipWithApplePay } from './helpers.ts';
import { addOperator, signInFirstAdmin, signInOps, startOpsServer, type OpsServer } from './ops-server.ts';
import { READY_TIMEOUT_MS } from './server.ts';

/**
 * Issue 27 at 1280 px, on a server of its own: a finance operator finds a paid tip by the short reference its guest
 * quotes, typed in lower case, opens its payment page and refunds part of it through the confirmation; a second refund
 * goes above the approval limit and waits; a second finance operator sees it counted in the menu and declines it with
 * a reason, which the payment's page then shows.
 */
test.describe.configure({ mode: 'serial' });

let ops: OpsServer;
let api: APIRequestContext;
let BASE = '';
const secrets: Record<string, string> = {};
let paymentId = '';

const signInUi = (page: Page, email: string) => signInOps(page, BASE, email, secrets[email]!);

test.beforeAll(async ({ ownServerPort }) => {
  test.setTimeout(READY_TIMEOUT_MS + 60_000);
  // 10 EUR without a second operator: the first refund below is made at once, the second waits.
  ops = await startOpsServer(ownServerPort, { REFUND_APPROVAL_CENTS: '1000' });
  ({ api, base: BASE } = ops);
  const adminToken = await signInFirstAdmin(ops);
  for (const email of ['finance@ops.example', 'finance2@ops.example'])
    secrets[email] = await addOperator(ops, adminToken, email, 'finance');

  const staff = await createStaffWithCard(api);
  paymentId = await payTipWithApplePay(api, staff.cardId, { amount_cents: 2000 });
  await expect
    .poll(async () => (await (await api.get(`/api/public/payments/${paymentId}`)).json()).data?.status, { timeout: 30_000 })
    .toBe('succeeded');
});

test.afterAll(async () => {
  await ops?.stop();
});

const referenceOf = (id: string) => id.replace(/-/g, '').slice(0, 8).toUpperCase();

test('a finance operator finds a paid tip by its short reference in lower case and refunds part of it, confirmed first', async ({
  page,
}) => {
  const reference = referenceOf(paymentId);
  await signInUi(page, 'finance@ops.example');
  await page.getByRole('link', { name: 'Search' }).click();
  await page.getByLabel(/^Reference, phone, e-mail/).fill(reference.toLowerCase());
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('table', { name: 'Payments' }).getByRole('link', { name: reference }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Payment ${reference}` })).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);

  await page.getByLabel('Amount (EUR)').fill('5');
  await page.getByLabel('Reason').fill('Tipped twice by mistake');
  await page.getByRole('button', { name: 'Refund…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm the refund' });
  await expect(dialog).toContainText(`Give 5.00 EUR back to the guest who paid payment ${reference}`);
  expect(await a11yProblems(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Refund 5.00 EUR' }).click();
  await expect(page.getByRole('status')).toHaveText('Refunded 5.00 EUR. The rest of the payment stays paid.');
  await expect(page.getByLabel('Amount (EUR)')).toHaveValue('');
  await expect(page.getByRole('table', { name: 'Refunds asked for and made' })).toContainText('refunded');

  // 5 + 12 EUR is above the 10 EUR this payment may give back without a second operator: it waits.
  await page.getByLabel('Amount (EUR)').fill('12');
  await page.getByLabel('Reason').fill('The rest of the double tip');
  await page.getByRole('button', { name: 'Refund…' }).click();
  await page.getByRole('dialog', { name: 'Confirm the refund' }).getByRole('button', { name: 'Refund 12.00 EUR' }).click();
  await expect(page.getByRole('status')).toContainText('waits for a second finance operator');
});

test('a second finance operator sees the request counted in the menu and declines it with a reason', async ({ page }) => {
  const reference = referenceOf(paymentId);
  await signInUi(page, 'finance2@ops.example');
  const menu = page.getByRole('navigation', { name: 'Back office' });
  await expect(menu.getByRole('link', { name: /^Refunds/ })).toHaveText('Refunds1 waiting');
  await menu.getByRole('link', { name: /^Refunds/ }).click();
  const row = page.getByRole('row', { name: /finance@ops\.example/ });
  await expect(row.getByRole('link', { name: reference })).toBeVisible();
  await row.getByRole('button', { name: 'Decline…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Decline the refund' });
  await dialog.getByLabel('Why (kept in the audit log)').fill('The guest meant both tips');
  expect(await a11yProblems(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Decline request' }).click();
  await expect(page.getByRole('heading', { name: 'No refund is waiting.' })).toBeVisible();
  await expect(menu.getByRole('link', { name: /^Refunds/ })).toHaveText('Refunds');

  await page.goto(`${BASE}/ops/#/payments/${paymentId}`);
  const refunds = page.getByRole('table', { name: 'Refunds asked for and made' });
  await expect(refunds).toContainText('The guest meant both tips');
  await expect(refunds).toContainText('finance2@ops.example');
  await expect(page.getByText('15.00 EUR of 20.00 EUR can still be refunded.')).toBeVisible();
});
