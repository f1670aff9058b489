import { expect, request as playwrightRequest, type APIRequestContext, type Page } from './fixtures.ts';
import { totp } from './helpers.ts';
import { startServerOnOwnDatabase } from './server.ts';

/** The password every operator of the back-office journeys enrols with. */
export const OPS_PASSWORD = 'Ops-journey-1';

export interface OpsServer {
  base: string;
  api: APIRequestContext;
  /** The first admin's set-up link, as the server printed it at start (no operator existed yet). */
  setupLink: string;
  stop(): Promise<void>;
}

/**
 * A server of a back-office journey's own, on a database of its own: its operators start from none, so the
 * server prints the first admin's set-up link, which the journey then opens as a person would.
 */
export async function startOpsServer(port: number, env: NodeJS.ProcessEnv = {}): Promise<OpsServer> {
  const server = await startServerOnOwnDatabase(port, `ops${port}`, {
    HOLD_HOURS: '0',
    WORKER_INTERVAL_MS: '300',
    SANDBOX_WEBHOOK_DELAY_MS: '100',
    ...env,
  });
  const api = await playwrightRequest.newContext({ baseURL: server.base });
  const setupLink = /(\S+\/ops\/#\/setup\/\S+)/;
  await expect.poll(() => setupLink.test(server.output()), { timeout: 10_000 }).toBe(true);
  return {
    base: server.base,
    api,
    setupLink: setupLink.exec(server.output())![1]!,
    async stop() {
      await api.dispose();
      await server.stop();
    },
  };
}

/** Enrols an invited operator through the API, as their browser would; answers their TOTP secret. */
export async function enrolByLink(api: APIRequestContext, link: string): Promise<string> {
  const token = link.split('/').pop()!;
  const info = await (await api.get(`/api/ops/enrolment/${token}`)).json();
  const secret = info.data.secret as string;
  // The previous step's code (allowed for clock drift), so sign-in can use the current one at once.
  const enrolled = await api.post(`/api/ops/enrolment/${token}`, { data: { password: OPS_PASSWORD, code: totp(secret, -1) } });
  expect(enrolled.ok()).toBe(true);
  return secret;
}

/** The first admin set up by the server's printed link, enrolled and signed in through the API; answers their token. */
export async function signInFirstAdmin(ops: OpsServer): Promise<string> {
  const setUp = await ops.api.post(`/api/ops/setup/${ops.setupLink.split('/').pop()}`, { data: { email: 'admin@ops.example' } });
  expect(setUp.status()).toBe(201);
  const adminSecret = await enrolByLink(ops.api, (await setUp.json()).data.enrolment_url as string);
  const signedIn = await ops.api.post('/api/ops/sign-in', {
    data: { email: 'admin@ops.example', password: OPS_PASSWORD, code: totp(adminSecret) },
  });
  return (await signedIn.json()).data.token as string;
}

/** An operator invited by the admin and enrolled through the API, as their browser would; answers their TOTP secret. */
export async function addOperator(ops: OpsServer, adminToken: string, email: string, role: string): Promise<string> {
  const created = await ops.api.post('/api/ops/operators', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { email, role },
  });
  expect(created.status()).toBe(201);
  return enrolByLink(ops.api, (await created.json()).data.enrolment_url as string);
}

/** Fills in the sign-in form; `offsetSteps` 1 signs an operator in again within one 30-second step. */
export async function fillInOpsSignIn(page: Page, email: string, secret: string, offsetSteps = 0) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(OPS_PASSWORD);
  await page.getByLabel('Authenticator code').fill(totp(secret, offsetSteps));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs an operator in from the sign-in page, and waits for the back office's menu. */
export async function signInOps(page: Page, base: string, email: string, secret: string, offsetSteps = 0) {
  await page.goto(`${base}/ops/#/sign-in`);
  await fillInOpsSignIn(page, email, secret, offsetSteps);
  await expect(page.getByRole('navigation', { name: 'Back office' })).toBeVisible();
}
