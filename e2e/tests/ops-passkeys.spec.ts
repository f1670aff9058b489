import { expect, test } from './fixtures.ts';
import { a11yProblems } from './helpers.ts';
import { addOperator, signInFirstAdmin, signInOps, startOpsServer, type OpsServer } from './ops-server.ts';
import { READY_TIMEOUT_MS } from './server.ts';

/**
 * Passkeys in the back office at 1280 px (decision 0050), with Chromium's virtual authenticator (a platform
 * authenticator that keeps discoverable credentials and verifies its user): a support operator signed in with password
 * and code adds a passkey on their account screen, signs out, opens a colleague's link to a screen, and signs in with
 * the passkey alone, landing on that screen.
 */
test.describe.configure({ mode: 'serial' });

let ops: OpsServer;
let BASE = '';
const EMAIL = 'support@ops.example';
let secret = '';

test.beforeAll(async ({ ownServerPort }) => {
  test.setTimeout(READY_TIMEOUT_MS + 60_000);
  ops = await startOpsServer(ownServerPort);
  BASE = ops.base;
  secret = await addOperator(ops, await signInFirstAdmin(ops), EMAIL, 'support');
});

test.afterAll(async () => {
  await ops?.stop();
});

test('an operator adds a passkey, signs out, and signs in with it alone to the deep-linked screen', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await signInOps(page, BASE, EMAIL, secret);
  await page.getByRole('link', { name: 'Your account and passkeys' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  await expect(page.getByText('No passkey yet.')).toBeVisible();
  await page.getByLabel('Name').fill('MacBook');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey “MacBook” added.' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Your passkeys' });
  await expect(table.getByRole('cell', { name: 'MacBook', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Never' })).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  expect(await a11yProblems(page)).toEqual([]);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  // A colleague's link to a screen: sign-in first, then that screen.
  await page.goto(`${BASE}/ops/#/tickets?status=open`);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('ops-sign-in-passkey-1280.png') });
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Support inbox' })).toBeVisible();
  expect(page.url()).toContain('#/tickets?status=open');
  const [used] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  expect(used!.signCount).toBeGreaterThan(credentials[0]!.signCount);

  await page.getByRole('link', { name: 'Your account and passkeys' }).click();
  await expect(table.getByRole('cell', { name: 'MacBook', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Never' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('ops-account-passkeys-1280.png'), fullPage: true });
});
