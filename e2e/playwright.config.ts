import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;

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

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    baseURL: BASE_URL,
    launchOptions: chromium,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'phone',
      use: {
        browserName: 'chromium',
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 2,
      },
    },
    { name: 'desktop', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    command: 'node --import tsx ../apps/api/src/server.ts',
    url: `${BASE_URL}/api/ready`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
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
      DATA_DIR: mkdtempSync(join(tmpdir(), 'tipcard-e2e-')),
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    },
  },
});
