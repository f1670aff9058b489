import { startFakePushService, type FakePushService } from '../../apps/api/src/test/fake-push-service.ts';
import { expect, test, type Page } from './fixtures.ts';
import { createStaffWithCard, guestTipsInBrowser, signInUserApp, type Staff } from './helpers.ts';

/**
 * The installable staff app (issue 30, decision 0046): its manifest and icons, the service worker that controls the
 * page and opens the overview offline with the last balances, and Settings' opt-in to push notices on this device.
 *
 * Headless Chromium has no push service to subscribe with (its registration goes to Google's servers, unreachable here),
 * so the browser's `pushManager.subscribe` hands out a subscription at a local push service run by this test
 * (apps/api/src/test/fake-push-service.ts), with keys made here as a browser makes them. Everything after that is real:
 * the app's Settings calls, the server's outbox and worker, VAPID signing and aes128gcm encryption, which the local
 * service verifies and decrypts; the decrypted payload is then handed to the service worker as a push (DevTools'
 * `ServiceWorker.deliverPushMessage`), which shows it. A tap on the notice is not driven: headless Chromium has none.
 */
test.describe.configure({ mode: 'serial' });
// The other specs block service workers (playwright.config.ts); these are about them.
test.use({ serviceWorkers: 'allow' });

let staff: Staff;
let pushService: FakePushService;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  staff = await createStaffWithCard(request, { title: 'Café Rīga' });
  await request.dispose();
  pushService = await startFakePushService();
});
test.afterAll(async () => {
  await pushService.close();
});

/** Width and height of a PNG, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

test('the app links a valid manifest with its icons, in the theme colour', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const answer = await request.get(href!);
  expect(answer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await answer.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    scope: string;
    display: string;
    theme_color: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Tipcard', short_name: 'Tipcard', display: 'standalone', scope: '/' });
  expect(manifest.start_url).toBe('/#/overview');
  expect(manifest.theme_color).toBe(await page.locator('meta[name="theme-color"]').getAttribute('content'));
  const wanted: [string, string][] = [
    ['192x192', 'any'],
    ['512x512', 'any'],
    ['512x512', 'maskable'],
  ];
  for (const [sizes, purpose] of wanted) {
    const icon = manifest.icons.find((item) => item.sizes === sizes && item.purpose === purpose);
    expect(icon, `${sizes} ${purpose}`).toBeDefined();
    const file = await request.get(icon!.src);
    expect(file.headers()['content-type']).toBe('image/png');
    const side = Number(sizes.split('x')[0]);
    expect(pngSize(await file.body())).toEqual({ width: side, height: side });
  }
});

async function waitForController(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js$/);
}

test('the service worker controls the app, and the overview opens offline with the last balances', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await guestTipsInBrowser(browser, baseURL!, staff.cardId);
  await signInUserApp(context, baseURL!, staff);
  await page.goto('/#/overview');
  await waitForController(page);
  const main = page.getByTestId('balance-main');
  const hold = page.getByTestId('balance-hold');
  // The tip is on hold (or already released by the 36-second hold): some figure that is not zero.
  await expect(
    hold
      .or(main)
      .getByText(/€[1-9]/)
      .first(),
  ).toBeVisible();
  const figures = { main: await main.innerText(), hold: await hold.innerText() };
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
  // The figures are kept for this user, a moment after they arrive.
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tipcard:offline:'))))
    .toEqual([expect.stringMatching(/^tipcard:offline:[0-9a-f-]{36}$/)]);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-notice')).toHaveText(/^Offline · balances as of \d{1,2}:\d{2}[\s\u202f]?[AP]M$/);
  await expect(page.getByTestId('offline-notice')).toHaveAttribute('role', 'status');
  expect(await main.innerText()).toBe(figures.main);
  expect(await hold.innerText()).toBe(figures.hold);
  // Served by the worker: the network is off.
  expect(
    await page.evaluate(() =>
      fetch('/api/me').then(
        () => 'reached',
        () => 'offline',
      ),
    ),
  ).toBe('offline');

  await context.setOffline(false);
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
});

/**
 * Stands in for the browser's push service registration (see the file's comment): `subscribe` answers a subscription
 * at the local push service, `getSubscription` and `unsubscribe` keep to it.
 */
async function fakeBrowserPush(page: Page, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  await page.addInitScript((json) => {
    let current: PushSubscription | null = null;
    const make = () =>
      ({
        endpoint: json.endpoint,
        toJSON: () => json,
        unsubscribe: async () => {
          current = null;
          return true;
        },
      }) as unknown as PushSubscription;
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      if (!options?.userVisibleOnly || !options.applicationServerKey) throw new Error('subscribe needs a visible-only key');
      current = make();
      return current;
    };
    PushManager.prototype.getSubscription = async () => current;
  }, subscription);
}

test('Settings turns notices on for this device, a tip is pushed to it signed and encrypted, and off again', async ({
  page,
  context,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  const key = ((await (await request.get('/api/push/public-key')).json()) as { data: { public_key: string } }).data.public_key;
  const device = pushService.subscribe(key);
  await fakeBrowserPush(page, device.json);
  await context.grantPermissions(['notifications']);
  await signInUserApp(context, baseURL!, staff);
  await page.goto('/#/settings');
  await waitForController(page);

  const panel = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Notifications on this device' }) });
  await expect(panel.getByTestId('push-state')).toHaveText('Off on this device.');
  await panel.getByRole('button', { name: 'Turn on' }).click();
  await expect(panel.getByTestId('push-state')).toHaveText('On: this device is told of tips and withdrawals.');
  const headers = { Authorization: `Bearer ${staff.jwt}` };
  const devices = async () =>
    ((await (await request.get(`/api/clients/${staff.clientId}/push-subscriptions`, { headers })).json()) as { data: unknown[] })
      .data;
  expect(await devices()).toEqual([expect.objectContaining({ user_agent: expect.stringMatching(/^Chrome/) })]);

  const before = pushService.deliveries.length;
  await guestTipsInBrowser(browser, baseURL!, staff.cardId);
  await expect.poll(() => pushService.deliveries.length, { timeout: 20_000 }).toBe(before + 1);
  expect(pushService.deliveries.at(-1)!.payload).toEqual({
    title: 'Payment received',
    body: expect.stringMatching(/^€\d+\.\d{2} from a guest at Café Rīga$/),
    url: '/#/overview',
    tag: expect.stringMatching(/^credit-[0-9a-f-]{36}$/),
  });
  expect(pushService.refused).toEqual([]);

  // The worker shows what a push carries: the decrypted payload handed to it as the browser would (DevTools' push).
  const cdp = await context.newCDPSession(page);
  const registered = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === `${baseURL}/`);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: baseURL!,
    registrationId: await registered,
    data: JSON.stringify(pushService.deliveries.at(-1)!.payload),
  });
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map(({ title, body, tag }) => ({ title, body, tag })),
      ),
    )
    .toEqual([expect.objectContaining({ title: 'Payment received', body: expect.stringMatching(/from a guest at Café Rīga$/) })]);

  await panel.getByRole('button', { name: 'Turn off' }).click();
  await expect(panel.getByTestId('push-state')).toHaveText('Off on this device.');
  expect(await devices()).toEqual([]);

  // Signing out on the device ends its notices too, and takes the kept figures with it.
  await panel.getByRole('button', { name: 'Turn on' }).click();
  await expect(panel.getByTestId('push-state')).toHaveText('On: this device is told of tips and withdrawals.');
  expect(await devices()).toHaveLength(1);
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect.poll(devices).toEqual([]);
  // The device is let go before the session ends, and the tokens and the kept figures go after: awaited, not read at once
  // (the page may be on its way to the log-in form, whose context answers once it is there).
  const keptFigures = () =>
    page
      .evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tipcard:offline:')))
      .catch(() => ['(the page was navigating)']);
  await expect.poll(keptFigures).toEqual([]);
});

test('a browser that blocked notifications is told how to allow them', async ({ page, context, baseURL }) => {
  await signInUserApp(context, baseURL!, staff);
  await page.goto('/#/settings');
  await waitForController(page);
  // No permission granted in this context: headless Chromium denies the prompt.
  const panel = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Notifications on this device' }) });
  await panel.getByRole('button', { name: 'Turn on' }).click();
  await expect(panel.getByTestId('push-state')).toHaveText(/Notifications are blocked for this site in your browser/);
  await expect(panel.getByRole('button', { name: 'Turn on' })).toHaveCount(0);
});
