import { randomUUID } from 'node:crypto';
import { expect, test } from './fixtures.ts';
import { startFakeSentry, type FakeSentry } from '../../apps/api/src/test/fake-sentry.ts';
import { READY_TIMEOUT_MS, startServerOnOwnDatabase, type TestServer } from './server.ts';

/**
 * Browser errors reach Sentry (issue 10, finding 11): a server of its own with SENTRY_DSN pointing at a local fake
 * ingestion endpoint. The browser loads nothing for it until an error happens; then the SDK sends the error, with
 * the page's query and hash cut and phone numbers and IBANs out of its text.
 */
test.describe.configure({ mode: 'serial' });

const PHONE = '+371 20 000 017';
const IBAN = 'LV80BANK0000435195001';
let server: TestServer | undefined;
let sentry: FakeSentry;
let BASE = '';

test.beforeAll(async ({ ownServerPort }) => {
  test.setTimeout(READY_TIMEOUT_MS + 30_000);
  sentry = await startFakeSentry();
  server = await startServerOnOwnDatabase(ownServerPort, `sentry${ownServerPort}`, {
    SENTRY_DSN: sentry.dsn,
    SENTRY_ENVIRONMENT: 'e2e',
  });
  BASE = server.base;
});

test.afterAll(async () => {
  await server?.stop();
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
  // A second report of the rejection would be made at once, before an error thrown afterwards: once that later error
  // has arrived, everything the rejection caused has.
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error('a later error');
    });
  });
  await sentry.waitForEvents(before + 2);
  const events = sentry.events().slice(before);
  expect(events.map((event) => (event.payload as BrowserEvent).tags?.source)).toEqual(['unhandled_rejection', 'uncaught']);
});
