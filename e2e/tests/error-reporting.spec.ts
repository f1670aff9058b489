import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startFakeSentry, type FakeSentry } from '../../apps/api/src/test/fake-sentry.ts';

/**
 * Browser errors reach Sentry (issue 10, finding 11): a server of its own with SENTRY_DSN pointing at a local fake
 * ingestion endpoint. The browser loads nothing for it until an error happens; then the SDK sends the error, with
 * the page's query and hash cut and phone numbers and IBANs out of its text.
 */
test.describe.configure({ mode: 'serial' });

const ROOT = resolve(import.meta.dirname, '../..');
const PORT = Number(process.env.E2E_PORT ?? 3100) + 2;
const BASE = `http://localhost:${PORT}`;
const PHONE = '+371 20 000 017';
const IBAN = 'LV80BANK0000435195001';
let server: ChildProcess;
let sentry: FakeSentry;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  sentry = await startFakeSentry();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tipcard-e2e-sentry-')),
    PUBLIC_URL: BASE,
    SENTRY_DSN: sentry.dsn,
    SENTRY_ENVIRONMENT: 'e2e',
  };
  delete env.DATABASE_URL;
  server = spawn('node', ['--import', 'tsx', 'apps/api/src/server.ts'], { cwd: ROOT, env, stdio: 'inherit' });
  await expect
    .poll(async () => (await request.get(`${BASE}/api/ready`).catch(() => null))?.ok() ?? false, { timeout: 90_000 })
    .toBe(true);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await sentry?.close();
});

type BrowserEvent = {
  tags?: Record<string, string>;
  environment?: string;
  extra?: { page?: string };
  exception?: { values: { value: string }[] };
};

test('an uncaught error on the guest page reaches Sentry, and nothing is loaded for it before', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(`${BASE}/payment/${randomUUID()}?code=123456`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The server's markup is on screen before the page's script (and its error reporting) starts, after the first paint.
  await page.waitForLoadState('networkidle');
  expect(requested.filter((url) => url.includes('/api/error-reporting') || url.includes(':' + new URL(sentry.dsn).port))).toEqual(
    [],
  );

  const before = sentry.events().length;
  await page.evaluate(
    ([phone, iban]) => {
      setTimeout(() => {
        throw new Error(`tip for ${phone} to ${iban} failed`);
      });
    },
    [PHONE, IBAN],
  );
  const events = await sentry.waitForEvents(before + 1);
  const item = events[before]!;
  const event = item.payload as BrowserEvent;
  expect(event.tags).toMatchObject({ source: 'uncaught' });
  expect(event.environment).toBe('e2e');
  expect(event.exception?.values[0]?.value).toContain('failed');
  expect(event.extra?.page).toMatch(/^\/payment\/[0-9a-f-]+$/);
  expect(item.raw).not.toContain('code=');
  for (const value of [PHONE, '20 000 017', IBAN, '123456']) expect(item.raw).not.toContain(value);
  expect(sentry.refused).toEqual([]);
});

test('an unhandled rejection in the app reaches Sentry once', async ({ page }) => {
  // A page the app itself renders: the landing's server markup shows before the app (and its error reporting) starts.
  await page.goto(`${BASE}/#/login`);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  const before = sentry.events().length;
  await page.evaluate(() => {
    void Promise.reject(new Error('the app lost its way'));
  });
  await sentry.waitForEvents(before + 1);
  await page.waitForTimeout(500);
  const events = sentry.events().slice(before);
  expect(events).toHaveLength(1);
  expect((events[0]!.payload as BrowserEvent).tags).toMatchObject({ source: 'unhandled_rejection' });
});
