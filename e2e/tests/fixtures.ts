/**
 * Every spec's one import, in place of '@playwright/test' (which it re-exports, types and all):
 *
 *   import { expect, test, type Page } from './fixtures.ts';
 *
 * Playwright runs the spec files in parallel workers (E2E_WORKERS, 2 by default); each worker starts one server of
 * its own, the compiled `apps/api/dist/server.js`, and `baseURL` (so `page.goto('/…')`, `request` and new browser
 * contexts) points at it. Worker n (its parallel index, 0 … workers − 1) listens on E2E_PORT + n (E2E_PORT defaults to
 * 3100); a spec that starts a server of its own (ops-server.ts, error-reporting.spec.ts) takes `ownServerPort`,
 * E2E_PORT + workers + n. With DATABASE_URL set (CI) each worker's server gets a database of its own on that
 * PostgreSQL, `<database>_w<worker index>`, dropped when the worker ends; without it, PGlite in the server's data
 * folder. The files of one worker run one after another on its server, as they all did on the one server before
 * (decision 0040).
 */
import { test as base } from '@playwright/test';
import { READY_TIMEOUT_MS, startServerOnOwnDatabase, type TestServer } from './server.ts';

export * from '@playwright/test';

const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);

/** The settings of every worker's server. */
const SERVER_ENV: NodeJS.ProcessEnv = {
  // A 36-second hold, so a tip is seen in HOLD and then PAID, and quick sandbox webhooks (guest-tip.spec.ts).
  HOLD_HOURS: '0.01',
  WORKER_INTERVAL_MS: '500',
  SANDBOX_WEBHOOK_DELAY_MS: '200',
  // The sandbox payout rail settles 4 seconds after the code: the payout is seen in flight and then paid (payouts.spec.ts).
  SANDBOX_PAYOUT_DELAY_MS: '4000',
  // The operator's legal details, as a live service has them (the legal pages point to them).
  COMPANY_NAME: 'Tipcard Test SIA',
  COMPANY_REGISTRATION_NUMBER: '40203000001',
  COMPANY_ADDRESS: 'Brīvības iela 1, Rīga, LV-1010',
};

export const test = base.extend<object, { server: TestServer & { databaseUrl?: string }; ownServerPort: number }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here.
    async ({}, use, workerInfo) => {
      // The worker index, not the parallel index: a worker that replaces a failed one gets a database of its own.
      const server = await startServerOnOwnDatabase(
        BASE_PORT + workerInfo.parallelIndex,
        `w${workerInfo.workerIndex}`,
        SERVER_ENV,
      );
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: READY_TIMEOUT_MS + 60_000 },
  ],
  ownServerPort: [
    // eslint-disable-next-line no-empty-pattern -- as above: no dependencies.
    async ({}, use, workerInfo) => use(BASE_PORT + workerInfo.config.workers + workerInfo.parallelIndex),
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.base),
});
