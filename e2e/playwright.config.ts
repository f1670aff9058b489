import { defineConfig } from '@playwright/test';

/** Debian's Chromium; Playwright never downloads a browser here. */
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/**
 * Journeys walked on one project only: phone journeys at 390 px or at their own phone viewports (the desktop project
 * would walk the same again), and the back office, which is desktop-first (1280×800). They are left out of the other
 * project here, not skipped in the file: Playwright runs a file's `beforeAll` even when a `test.skip` on a fixture
 * skips every test in it (microsoft/playwright#31425), and those seeded tips or started a back-office server for
 * nothing, minutes of a CI run.
 */
const specs = (names: string[]) => names.map((name) => `**/${name}.spec.ts`);
const PHONE_ONLY = specs([
  'account',
  'card-shop-referrals',
  'donations',
  'french-user',
  'guest-page',
  'guest-tip',
  'monthly-donations',
  'overflow',
  'payee-check',
  'payout-schedule',
  'payouts',
  'period-adjustments',
  'pseudo-locale',
  'sign-in',
  'signed-in-first-paint',
  'support',
  'team-periods',
  'team-requests',
  'team-rules',
  'teams',
  'thank-you',
  'venue-card',
  'venue-page',
  'verification',
  'walk-2',
  'withdrawal',
]);
const DESKTOP_ONLY = specs(['ops-passkeys', 'ops-search-refund', 'ops-venue', 'ops']);

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Spec files spread over the workers, each with a server of its own (tests/fixtures.ts, decision 0040); the tests of
  // one file stay in order on one worker.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    launchOptions: chromium,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The app's service worker serves its shell from a cache, past `page.route`: the specs that are not about it run
    // without it (installable-app.spec.ts allows it).
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'phone',
      testIgnore: DESKTOP_ONLY,
      use: {
        browserName: 'chromium',
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 2,
      },
    },
    { name: 'desktop', testIgnore: PHONE_ONLY, use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
  ],
});
