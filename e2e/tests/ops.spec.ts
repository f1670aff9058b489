import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { validateXML } from 'xmllint-wasm';
import { a11yProblems, createStaffWithCard, payTipWithApplePay, png, signInUserApp, totp, type Staff } from './helpers.ts';

/**
 * The back office at /ops, desktop (1280×800), on a server of its own: the first admin must be made with
 * `npm run ops:create-admin` before the server opens the embedded database, and SEPA batches need PAYOUT_RAIL=files.
 * An admin enrols with TOTP and invites colleagues; compliance approves a verification with its document shown
 * inline; finance makes a SEPA batch, downloads it (valid against the EPC schema), marks a payout returned and sees
 * the money back on the user's balance; support answers a ticket with a file (the user sees the badge in the user app)
 * and moves a card order to shipped.
 */
test.describe.configure({ mode: 'serial' });
test.skip(({ viewport }) => (viewport?.width ?? 0) < 1000, 'the back office is desktop-first (1280×800)');

const ROOT = resolve(import.meta.dirname, '../..');
const PORT = Number(process.env.E2E_PORT ?? 3100) + 1;
const BASE = `http://localhost:${PORT}`;
const PASSWORD = 'Ops-journey-1';
let server: ChildProcess;
let api: APIRequestContext;
let adminLink: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tipcard-e2e-ops-')),
    PUBLIC_URL: BASE,
    PAYOUT_RAIL: 'files',
    HOLD_HOURS: '0',
    WORKER_INTERVAL_MS: '300',
    SANDBOX_WEBHOOK_DELAY_MS: '100',
  };
  // Its own embedded database, whatever the other specs use.
  delete env.DATABASE_URL;
  const output = execFileSync('node', ['--import', 'tsx', 'apps/api/src/cli/ops-create-admin.ts', 'admin@ops.example'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  adminLink = /(http\S+\/ops\/#\/enrol\/\S+)/.exec(output)![1]!;
  server = spawn('node', ['--import', 'tsx', 'apps/api/src/server.ts'], { cwd: ROOT, env, stdio: 'inherit' });
  api = await playwrightRequest.newContext({ baseURL: BASE });
  await expect.poll(async () => (await api.get('/api/ready').catch(() => null))?.ok() ?? false, { timeout: 90_000 }).toBe(true);
});

test.afterAll(async () => {
  await api?.dispose();
  server?.kill('SIGTERM');
});

/** `offsetSteps` 1 signs the same operator in again within one 30-second step (its current code is spent). */
async function signInUi(page: Page, email: string, secret: string, offsetSteps = 0) {
  await page.goto(`${BASE}/ops/#/sign-in`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Authenticator code').fill(totp(secret, offsetSteps));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Back office' })).toBeVisible();
}

/** Enrols an invited colleague through the API, as their browser would; answers their TOTP secret. */
async function enrolByLink(link: string): Promise<string> {
  const token = link.split('/').pop()!;
  const info = await (await api.get(`/api/ops/enrolment/${token}`)).json();
  const secret = info.data.secret as string;
  // The previous step's code (allowed for clock drift), so sign-in can use the current one at once.
  expect((await api.post(`/api/ops/enrolment/${token}`, { data: { password: PASSWORD, code: totp(secret, -1) } })).ok()).toBe(
    true,
  );
  return secret;
}

const invites: Record<'compliance' | 'finance' | 'support', string> = { compliance: '', finance: '', support: '' };
let supportSecret = '';

test('an admin enrols with TOTP from the one-time link, signs in and invites colleagues', async ({ page }) => {
  await page.goto(adminLink);
  await expect(page.getByRole('img', { name: 'QR code of your authenticator key' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('New password').fill('weak');
  await page.getByLabel('Code from the app').fill(totp(secret, -1));
  await page.getByRole('button', { name: 'Finish enrolment' }).click();
  await expect(page.getByText('Use at least 8 characters')).toBeVisible();
  await page.getByLabel('New password').fill(PASSWORD);
  // A code of the step before now, taken again: the first one may have aged out of the allowed drift meanwhile.
  await page.getByLabel('Code from the app').fill(totp(secret, -1));
  await page.getByRole('button', { name: 'Finish enrolment' }).click();
  await expect(page.getByText('Enrolment complete')).toBeVisible();

  await signInUi(page, 'admin@ops.example', secret);
  await page.getByRole('link', { name: 'Operators' }).click();
  for (const role of ['compliance', 'finance', 'support'] as const) {
    await page.getByLabel('E-mail').fill(`${role}@ops.example`);
    await page.getByLabel('Role').selectOption(role);
    await page.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByTestId('enrolment-url')).toContainText('/ops/#/enrol/');
    invites[role] = (await page.getByTestId('enrolment-url').textContent())!.trim();
  }
  await expect(page.getByRole('cell', { name: 'finance@ops.example' })).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('cell', { name: 'operator.create' }).first()).toBeVisible();
});

test('a compliance operator approves a verification with the document shown inline', async ({ page }) => {
  const secret = await enrolByLink(invites.compliance);
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

test('a finance operator makes a SEPA batch, downloads a valid pain.001, marks a payout returned and sees the money back', async ({
  page,
}) => {
  const secret = await enrolByLink(invites.finance);
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
        holder_last_name: 'Ozola',
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
