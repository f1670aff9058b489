import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type APIRequestContext } from './fixtures.ts';
import { validateXML } from 'xmllint-wasm';
import { a11yProblems, createStaffWithCard, payTipWithApplePay, png, signInUserApp, totp, type Staff } from './helpers.ts';
import {
  enrolByLink as enrolWith,
  fillInOpsSignIn,
  OPS_PASSWORD,
  signInOps,
  startOpsServer,
  type OpsServer,
} from './ops-server.ts';
import { READY_TIMEOUT_MS } from './server.ts';
import { buildPain002, expectValidBankReport } from '../../apps/api/src/modules/payouts/bank-report.test-support.ts';

/**
 * The back office at /ops, desktop (1280×800), on a server of its own (SEPA batches need PAYOUT_RAIL=files): the first
 * admin comes from the set-up link the server prints while no operator exists, enrols with TOTP and invites
 * colleagues; compliance approves a verification with its document shown inline; finance makes a SEPA batch, downloads
 * it (valid against the EPC schema), marks a payout returned and sees the money back on the user's balance, then closes
 * another batch from the bank's pain.002 (previewed, confirmed, imported again to no effect); support
 * answers a ticket with a file (the user sees the badge in the user app) and moves a card order to shipped; the admin
 * changes a colleague's role, disables and enables them and resets their sign-in.
 */
test.describe.configure({ mode: 'serial' });

const ROOT = resolve(import.meta.dirname, '../..');
let ops: OpsServer;
let api: APIRequestContext;
let BASE = '';

test.beforeAll(async ({ ownServerPort }) => {
  test.setTimeout(READY_TIMEOUT_MS + 60_000);
  ops = await startOpsServer(ownServerPort, { PAYOUT_RAIL: 'files' });
  ({ api, base: BASE } = ops);
});

test.afterAll(async () => {
  await ops?.stop();
});

const signInUi = (page: Parameters<typeof signInOps>[0], email: string, secret: string, offsetSteps = 0) =>
  signInOps(page, BASE, email, secret, offsetSteps);
const enrolByLink = (link: string) => enrolWith(api, link);

const invites: Record<'compliance' | 'finance' | 'support', string> = { compliance: '', finance: '', support: '' };
let adminSecret = '';
let complianceSecret = '';
let supportSecret = '';
let financeSecret = '';

test('the first admin comes from the set-up link, enrols with TOTP, signs in and invites colleagues', async ({ page }) => {
  await page.goto(ops.setupLink);
  await expect(page.getByRole('heading', { name: 'Set up the back office' })).toBeVisible();
  await page.getByLabel('E-mail').fill('admin@ops.example');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('img', { name: 'QR code of your authenticator key' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  adminSecret = secret;
  await page.getByLabel('New password').fill('weak');
  await page.getByLabel('Code from the app').fill(totp(secret, -1));
  await page.getByRole('button', { name: 'Finish enrolment' }).click();
  await expect(page.getByText('Use at least 8 characters')).toBeVisible();
  await page.getByLabel('New password').fill(OPS_PASSWORD);
  // A code of the step before now, taken again: the first one may have aged out of the allowed drift meanwhile.
  await page.getByLabel('Code from the app').fill(totp(secret, -1));
  await page.getByRole('button', { name: 'Finish enrolment' }).click();
  await expect(page.getByText('Enrolment complete')).toBeVisible();
  // The link made one admin: it no longer opens.
  await page.goto(ops.setupLink);
  await expect(page.getByRole('alert')).toContainText('no longer valid');

  await signInUi(page, 'admin@ops.example', secret);
  await page.getByRole('link', { name: 'Operators' }).click();
  // The search screen's field speaks of e-mails too: fill in once the Operators screen is there.
  await expect(page.getByRole('heading', { level: 1, name: 'Operators' })).toBeVisible();
  for (const role of ['compliance', 'finance', 'support'] as const) {
    await page.getByLabel('E-mail', { exact: true }).fill(`${role}@ops.example`);
    await page.getByLabel('Role', { exact: true }).selectOption(role);
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByTestId('enrolment-url')).toContainText('/ops/#/enrol/');
    invites[role] = (await page.getByTestId('enrolment-url').textContent())!.trim();
  }
  await expect(page.getByRole('cell', { name: 'finance@ops.example', exact: true })).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('cell', { name: 'operator.create' }).first()).toBeVisible();
});

test('a compliance operator approves a verification with the document shown inline', async ({ page }) => {
  const secret = await enrolByLink(invites.compliance);
  complianceSecret = secret;
  const staff = await createStaffWithCard(api);
  const doc = { content: png(40, 30).toString('base64'), name: 'id.png', mime: 'image/png' };
  const submitted = await api.post(`/api/clients/${staff.clientId}/verification`, {
    headers: { Authorization: `Bearer ${staff.jwt}` },
    data: {
      kind: 'person',
      first_name: 'Anna',
      last_name: 'Liepa',
      birthday: '1990-01-02',
      personal_code: '020190-12345',
      address: 'Brīvības iela 1, Rīga',
      document_front: doc,
      document_back: doc,
    },
  });
  expect(submitted.status()).toBe(201);

  await signInUi(page, 'compliance@ops.example', secret);
  await page.getByRole('link', { name: 'Verification review' }).click();
  await page
    .getByRole('row', { name: new RegExp(staff.phone.replace('+', '\\+')) })
    .getByRole('link', { name: 'Review' })
    .click();
  await expect(page.getByText('Liepa')).toBeVisible();
  const image = page.getByRole('img', { name: 'Document, front' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  expect(await a11yProblems(page)).toEqual([]);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('approved', { exact: true })).toBeVisible();
  const status = await (
    await api.get(`/api/clients/${staff.clientId}/verification`, { headers: { Authorization: `Bearer ${staff.jwt}` } })
  ).json();
  expect(status.data.status).toBe('approved');
});

/**
 * A staff member tipped 20 EUR who withdrew 10 EUR to a SEPA account held by `lastName`, confirmed with the texted
 * code: the payout waits in flight for a file. Answers the staff, the payout's id and a reader of their main balance.
 */
async function tippedStaffWithdrawing(lastName: string) {
  const staff: Staff = await createStaffWithCard(api);
  const auth = { Authorization: `Bearer ${staff.jwt}` };
  await payTipWithApplePay(api, staff.cardId, { amount_cents: 2000, cover_fee: true });
  const main = async () => {
    const account = await (await api.get(`/api/clients/${staff.clientId}/account`, { headers: auth })).json();
    return (
      (account.data.account_balances as { type: string; balance: number }[]).find((item) => item.type === 'main')?.balance ?? 0
    );
  };
  await expect.poll(main, { timeout: 30_000 }).toBe(2000);
  const method = await (
    await api.post(`/api/clients/${staff.clientId}/payout-methods`, {
      headers: auth,
      data: {
        kind: 'sepa',
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        holder_last_name: lastName,
        address: 'Hauptstraße 1, Berlin',
      },
    })
  ).json();
  const payout = await (
    await api.post(`/api/clients/${staff.clientId}/payouts`, {
      headers: { ...auth, 'Idempotency-Key': crypto.randomUUID() },
      data: { amount_cents: 1000, method_id: method.data.id },
    })
  ).json();
  let code: string | undefined;
  await expect
    .poll(async () => {
      const outbox = await (await api.get(`/api/dev/outbox?to=${encodeURIComponent(staff.phone)}`)).json();
      code = /code is (\d{6})/.exec(
        (outbox.data as { body: string }[]).find((message) => message.body.includes('10.00'))?.body ?? '',
      )?.[1];
      return code;
    })
    .toBeTruthy();
  expect((await api.post(`/api/payouts/${payout.data.id}/confirm`, { headers: auth, data: { code } })).ok()).toBe(true);
  return { staff, payoutId: payout.data.id as string, main };
}

test('a finance operator makes a SEPA batch, downloads a valid pain.001, marks a payout returned and sees the money back', async ({
  page,
}) => {
  financeSecret = await enrolByLink(invites.finance);
  const secret = financeSecret;
  const { staff, payoutId, main } = await tippedStaffWithdrawing('Ozola');
  const payout = { data: { id: payoutId } };
  expect(await main()).toBe(800); // 10 EUR and the 2 EUR fee left main

  await signInUi(page, 'finance@ops.example', secret);
  await page.getByRole('link', { name: 'Payouts' }).click();
  await page.getByRole('button', { name: 'Create SEPA batch' }).click();
  await expect(page.getByText('The books balance.')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).first().click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^tipcard-sepa-.*\.xml$/);
  const xml = readFileSync((await file.path())!, 'utf8');
  const xsd = readFileSync(join(ROOT, 'apps/api/src/modules/payouts/schemas/pain.001.001.09-epc-sct.xsd'), 'utf8');
  const validation = await validateXML({
    xml: { fileName: 'batch.xml', contents: xml },
    schema: { fileName: 'pain.001.001.09-epc-sct.xsd', contents: xsd },
  });
  expect(validation.errors).toEqual([]);
  expect(validation.valid).toBe(true);
  expect(xml).toContain((payout.data.id as string).replaceAll('-', ''));

  await page.getByRole('button', { name: 'Mark sent' }).first().click();
  await expect(page.getByText('sent', { exact: true }).first()).toBeVisible();
  const row = page.getByRole('row', { name: /Ozola/ });
  await row.getByLabel('Return reason').selectOption('AC04');
  await row.getByRole('button', { name: 'Mark returned…' }).click();
  // Money moves only after the confirmation, which repeats the payout and the reason.
  const confirm = page.getByRole('dialog', { name: 'Mark the payout returned' });
  await expect(confirm).toContainText('AC04');
  await confirm.getByRole('button', { name: /^Mark .* returned$/ }).click();
  await expect(page.getByRole('row', { name: /Ozola/ })).toHaveCount(0);
  // The rest of the file as a whole: the returned line stays returned, nothing else was in it.
  await page.getByRole('button', { name: 'Mark the rest paid…' }).first().click();
  const whole = page.getByRole('dialog', { name: 'Mark the file paid' });
  await expect(whole).toContainText('The bank paid tipcard-sepa-');
  await whole.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByText('0 payouts marked paid.')).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);

  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByLabel('Phone, name, user id, card id or payment id').fill(staff.phone);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: staff.phone }).click();
  await expect(page.getByTestId('balance-main')).toHaveText('20.00 EUR');
  await expect(page.getByRole('cell', { name: 'AC04 Closed account number' })).toBeVisible();
  await expect(page.getByText('In no team.')).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
  expect(await main()).toBe(2000);

  // Ledger health, with its counts per day for the last 14 days.
  await page.getByRole('link', { name: 'Ledger health' }).click();
  await expect(page.getByRole('table', { name: 'Ledger health per day, oldest first' }).getByRole('row')).toHaveCount(15);
  expect(await a11yProblems(page)).toEqual([]);
});

test("a finance operator closes a batch from the bank's status report without touching a row", async ({ page }) => {
  const paid = await tippedStaffWithdrawing('Kalniņa');
  const returned = await tippedStaffWithdrawing('Liepiņa');

  // The next step's code: the previous journey signed this operator in moments ago.
  await signInUi(page, 'finance@ops.example', financeSecret, 1);
  await page.getByRole('link', { name: 'Payouts' }).click();
  await page.getByRole('button', { name: 'Create SEPA batch' }).click();
  await expect(page.getByText('The books balance.')).toBeVisible();
  await page.getByRole('button', { name: 'Mark sent' }).first().click();
  await expect(page.getByText('sent', { exact: true }).first()).toBeVisible();
  await page
    .getByRole('row', { name: /Kalniņa/ })
    .getByRole('link', { name: 'Open file' })
    .click();
  await expect(page.getByRole('heading', { name: /^Bank file tipcard-sepa-/ })).toBeVisible();

  // The bank's answer to the real file, downloaded from its page: one payout settled, one rejected (account closed).
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const pain001 = readFileSync((await (await download).path())!, 'utf8');
  const report = buildPain002('pain.002.001.10', pain001, [
    { payoutId: paid.payoutId, amountCents: 1000, outcome: 'paid' },
    { payoutId: returned.payoutId, amountCents: 1000, outcome: 'returned', reason: 'AC04' },
  ]);
  await expectValidBankReport(report, 'pain.002.001.10');
  await page
    .getByLabel('Bank’s status report', { exact: true })
    .setInputFiles({ name: 'status.xml', mimeType: 'application/xml', buffer: Buffer.from(report) });

  // Nothing moves before the confirmation: the preview names each payout, its amount and what it becomes.
  const preview = page.getByRole('table', { name: 'What the bank’s report does to each payout' });
  await expect(preview.getByRole('row', { name: /Liepiņa/ })).toContainText('AC04 Closed account number');
  await expect(preview.getByRole('row', { name: /Liepiņa/ })).toContainText('Sent to the bank → Returned');
  await expect(preview.getByRole('row', { name: /Kalniņa/ })).toContainText('Sent to the bank → Paid');
  expect(await returned.main()).toBe(800);
  expect(await a11yProblems(page)).toEqual([]);
  await page.getByRole('button', { name: 'Confirm: mark 1 paid, 1 returned' }).click();
  await expect(page.getByText(/Imported BANK-PSR-0001: 1 marked paid, 1 marked returned, 0 unchanged/)).toBeVisible();
  await expect(page.getByText('Paid: 1 · Returned: 1')).toBeVisible();
  expect(await returned.main()).toBe(2000);
  expect(await paid.main()).toBe(800);

  // The same file again changes nothing.
  await page
    .getByLabel('Bank’s status report', { exact: true })
    .setInputFiles({ name: 'status.xml', mimeType: 'application/xml', buffer: Buffer.from(report) });
  await expect(page.getByRole('button', { name: 'Nothing to change' })).toBeDisabled();
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect(await a11yProblems(page)).toEqual([]);
});

test('a support operator answers a ticket with a file, and the user sees the badge and the file', async ({ page, browser }) => {
  supportSecret = await enrolByLink(invites.support);
  const staff = await createStaffWithCard(api);
  const auth = { Authorization: `Bearer ${staff.jwt}` };
  const created = await api.post(`/api/clients/${staff.clientId}/tickets`, {
    headers: auth,
    data: { title: 'Where is my payout?', message: 'I withdrew 20 EUR on Monday and it has not arrived.' },
  });
  expect(created.status()).toBe(201);
  const ticketId = ((await created.json()) as { data: { id: string } }).data.id;

  await signInUi(page, 'support@ops.example', supportSecret);
  await page.getByRole('link', { name: 'Support inbox' }).click();
  const row = page.getByRole('row', { name: new RegExp(staff.phone.replace('+', '\\+')) });
  await expect(row.getByText('open', { exact: true })).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
  await row.getByRole('link', { name: 'Where is my payout?' }).click();
  await expect(page.getByText('I withdrew 20 EUR on Monday and it has not arrived.')).toBeVisible();
  await page.getByLabel(/Your answer/).fill('It was sent again today; the bank receipt is attached.');
  await page.getByLabel(/Files/).setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: png(60, 40) });
  await page.getByRole('button', { name: 'Send answer' }).click();
  await expect(page.getByText('waiting for user', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download receipt.png' })).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download receipt.png' }).click();
  expect((await download).suggestedFilename()).toBe('receipt.png');

  // The user, in the user app of the same server: the badge, the answer and the operator's file.
  const userContext = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } });
  await signInUserApp(userContext, BASE, staff);
  const userPage = await userContext.newPage();
  await userPage.goto(`${BASE}/#/support/${ticketId}`);
  await expect(userPage.getByTestId('support-badge')).toContainText('1');
  const answer = userPage.getByTestId('conversation').locator('[data-author="operator"]');
  await expect(answer.first()).toContainText('It was sent again today');
  await expect(userPage.getByTestId('conversation')).toContainText('receipt.png');
  await userContext.close();
});

test('a support operator downloads a print file and moves a card order to shipped', async ({ page }) => {
  const staff = await createStaffWithCard(api);
  const auth = { Authorization: `Bearer ${staff.jwt}` };
  const ordered = await api.post(`/api/clients/${staff.clientId}/card-orders`, {
    headers: auth,
    data: {
      product: 'card',
      quantity: 2,
      country: 'LV',
      city: 'Rīga',
      address: 'Brīvības iela 1',
      apartment: null,
      zip: 'LV-1010',
      first_name: 'Anna',
      last_name: 'Ozoliņa',
      additional_info: null,
    },
  });
  expect(ordered.status()).toBe(201);
  const orderId = ((await ordered.json()) as { data: { id: string } }).data.id;
  const short = orderId.slice(0, 8);

  await signInUi(page, 'support@ops.example', supportSecret, 1);
  await page.getByRole('link', { name: 'Card orders' }).click();
  const row = () => page.getByRole('row', { name: new RegExp(short) });
  await expect(row()).toContainText('Ozoliņa');
  expect(await a11yProblems(page)).toEqual([]);
  const download = page.waitForEvent('download');
  await row()
    .getByRole('button', { name: `Print PDF of order ${short}` })
    .click();
  const pdf = readFileSync((await download.then((file) => file.path()))!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

  await row().getByRole('button', { name: 'Start production' }).click();
  await expect(row()).toHaveCount(0); // it left the "placed" queue
  await page.getByLabel('Status').selectOption('in_production');
  await row().getByLabel(`Tracking reference for ${short}`).fill('RR123456789LV');
  expect(await a11yProblems(page)).toEqual([]);
  await row().getByRole('button', { name: 'Mark shipped' }).click();
  await expect(row()).toHaveCount(0);
  await page.getByLabel('Status').selectOption('shipped');
  await expect(row()).toContainText('RR123456789LV');
  await expect(row().getByRole('button', { name: 'Mark delivered' })).toBeVisible();

  const mine = await (await api.get(`/api/clients/${staff.clientId}/card-orders/${orderId}`, { headers: auth })).json();
  expect(mine.data).toMatchObject({ status: 'shipped', tracking_reference: 'RR123456789LV' });
});

test('an admin changes a colleague’s role, disables and enables them and resets their sign-in; a deep link survives sign-in', async ({
  page,
}) => {
  // A link to a screen, opened signed out: sign-in, then that screen.
  await page.goto(`${BASE}/ops/#/operators`);
  await expect(page.getByRole('heading', { name: 'Tipcard Ops' })).toBeVisible();
  await fillInOpsSignIn(page, 'admin@ops.example', adminSecret, 1);
  await expect(page.getByRole('heading', { level: 1, name: 'Operators' })).toBeVisible();

  const row = page.getByRole('row', { name: /compliance@ops\.example/ });
  await page.getByLabel('Role of compliance@ops.example').selectOption('finance');
  const roleDialog = page.getByRole('dialog', { name: 'Change the role' });
  await expect(roleDialog).toContainText('compliance@ops.example becomes finance (now compliance).');
  await roleDialog.getByRole('button', { name: 'Change role' }).click();
  await expect(roleDialog).toBeHidden();
  await expect(page.getByLabel('Role of compliance@ops.example')).toHaveValue('finance');

  await row.getByRole('button', { name: 'Disable…' }).click();
  await page.getByRole('dialog', { name: 'Disable the operator' }).getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('disabled');
  const refused = await api.post('/api/ops/sign-in', {
    data: { email: 'compliance@ops.example', password: OPS_PASSWORD, code: totp(complianceSecret, 1) },
  });
  expect((await refused.json()).code).toBe('ops_sign_in_failed');
  await row.getByRole('button', { name: 'Enable…' }).click();
  await page.getByRole('dialog', { name: 'Enable the operator' }).getByRole('button', { name: 'Enable' }).click();
  await expect(row).toContainText('enrolled');

  await row.getByRole('button', { name: 'Reset sign-in…' }).click();
  await page.getByRole('dialog', { name: 'Reset password and authenticator' }).getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByTestId('enrolment-url')).toContainText('/ops/#/enrol/');
  await expect(row).toContainText('invited');
  const link = (await page.getByTestId('enrolment-url').textContent())!.trim();
  const outbox = await (await api.get(`/api/dev/outbox?to=${encodeURIComponent('compliance@ops.example')}`)).json();
  expect(outbox.data[0].body).toContain(link);
  expect(await enrolByLink(link)).not.toBe(complianceSecret);
  expect(await a11yProblems(page)).toEqual([]);

  // The audit log says who did what to whom, field by field, and exports what it shows.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Operator').fill('admin@');
  await page.getByLabel('Action').fill('operator');
  await page.getByRole('button', { name: 'Filter' }).click();
  const reset = page.getByRole('row', { name: /operator\.reset_sign_in/ });
  await expect(reset).toContainText('enrolled:true → false');
  await expect(page.getByRole('row', { name: /operator\.update/ }).first()).toContainText('disabled:');
  await expect(page.getByRole('row', { name: /operator\.sign_in\b/ }).first()).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('when,actor,action,subject_type,subject_id,before,after,ip');
  expect(csv).toContain('operator.reset_sign_in');
  expect(csv).not.toContain('support.ticket');
  expect(await a11yProblems(page)).toEqual([]);
});
