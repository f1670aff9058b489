import { mkdirSync } from 'node:fs';
import { expect, test, type Page, type Route } from './fixtures.ts';
import { createStaffWithCard, signInUserApp } from './helpers.ts';

/**
 * The signed-in app's first response (issue 33, decision 0056): before the app's script runs, a signed-in visitor
 * sees the server's skeleton of the signed-in layout, and the app takes its place without moving the header or the
 * page's first line. The app's entry is held back with a route to see the skeleton. Screenshots at 360 px in French
 * and Spanish, and at 1280 px, go to test-results/ (`SCREENSHOTS_DIR` to keep them elsewhere).
 */
test.use({ viewport: { width: 360, height: 780 } });

const ENTRY = /\/assets\/index-[\w-]+\.js$/;

/** The app's entry held until `release`, so that what the server sent is all there is. */
async function holdEntry(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(ENTRY, (route) => (released ? route.continue() : void held.push(route)));
  return async () => {
    released = true;
    await Promise.all(held.map((route) => route.continue()));
  };
}

const top = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!.y;
const height = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!.height;

for (const locale of ['fr', 'es'] as const) {
  test(`a signed-in visitor sees the layout's skeleton before the app's script, then the overview in place (${locale})`, async ({
    page,
    context,
    baseURL,
    request,
  }, testInfo) => {
    const shots = process.env.SCREENSHOTS_DIR ?? testInfo.outputPath();
    mkdirSync(shots, { recursive: true });
    const staff = await createStaffWithCard(request, { title: 'Café Rīga' });
    await signInUserApp(context, baseURL!, staff);
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 800 });
      const release = await holdEntry(page);
      // A new document each time (the same address again would only change the hash). Not waiting for the load event
      // or DOMContentLoaded: both wait for the held script.
      await page.goto('about:blank');
      await page.goto(`/#/${locale}/overview`, { waitUntil: 'commit' });
      const skeleton = page.locator('#boot.boot-app');
      await expect(skeleton).toBeVisible();
      // The frame: the logo's mark and name, the menu button below 1024 px, the side bar from it.
      await expect(skeleton.locator('svg')).toBeVisible();
      await expect(skeleton.locator('.boot-menu')).toBeVisible({ visible: width === 360 });
      await expect(skeleton.locator('.boot-nav')).toBeVisible({ visible: width === 1280 });
      const skeletonBar = await height(page, '#boot .boot-bar');
      const skeletonFirstLine = await top(page, '#boot .boot-title');
      await page.screenshot({ path: `${shots}/skeleton-${locale}-${width}.png` });

      await release();
      await expect(page.getByTestId('balance-main')).toBeVisible();
      await expect(skeleton).toHaveCount(0);
      // No jump: the header is as tall as the skeleton's, and the page's title starts where its first block did.
      expect(await height(page, 'header')).toBe(skeletonBar);
      expect(await top(page, '#main-content h1')).toBe(skeletonFirstLine);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await page.screenshot({ path: `${shots}/overview-${locale}-${width}.png` });
      await page.unrouteAll();
    }
  });
}

/**
 * The first response's figures (decision 0063): with a valid session the server draws the user's balances into the
 * skeleton, so they show with the app's script held back; the app then shows the same figures in a tile as tall.
 */
test("the signed-in user's balances come with the first response, and the app shows the same", async ({
  page,
  context,
  baseURL,
  request,
}, testInfo) => {
  const shots = process.env.SCREENSHOTS_DIR ?? testInfo.outputPath();
  mkdirSync(shots, { recursive: true });
  const staff = await createStaffWithCard(request);
  await signInUserApp(context, baseURL!, staff);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 800 });
    const release = await holdEntry(page);
    await page.goto('about:blank');
    await page.goto('/#/overview', { waitUntil: 'commit' });
    const drawn = page.locator('#boot [data-boot-balance="main"]');
    await expect(drawn).toHaveText('€0.00');
    await expect(page.locator('#boot [data-boot-balance="hold"]')).toHaveText('€0.00');
    await page.screenshot({ path: `${shots}/skeleton-figures-en-${width}.png` });
    const drawnTile = (await page.locator('#boot .boot-tile-main').boundingBox())!;

    await release();
    await expect(page.getByTestId('balance-main')).toHaveText('€0.00');
    await expect(page.locator('#boot')).toHaveCount(0);
    // The app's tile is as tall as the skeleton's (where it starts depends on the QR card's block above it).
    const appTile = (await page
      .getByTestId('balance-main')
      .locator('xpath=ancestor::div[contains(@class,"rounded-2xl")][1]')
      .boundingBox())!;
    testInfo.annotations.push({
      type: `tile at ${width} px`,
      description: `skeleton y ${drawnTile.y} h ${drawnTile.height}, app y ${appTile.y} h ${appTile.height}`,
    });
    expect(Math.abs(appTile.height - drawnTile.height)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: `${shots}/overview-figures-en-${width}.png` });
    await page.unrouteAll();
  }
});

test('a token that does not verify gets the plain skeleton: no figures, and the app asks as usual', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const staff = await createStaffWithCard(request);
  await signInUserApp(context, baseURL!, staff);
  // A token whose signature does not verify (its last characters changed): the server draws nothing.
  const { hostname } = new URL(baseURL!);
  await context.addCookies([{ name: 'qtfo__token', value: `${staff.jwt.slice(0, -4)}AAAA`, domain: hostname, path: '/' }]);
  const release = await holdEntry(page);
  await page.goto('/#/overview', { waitUntil: 'commit' });
  await expect(page.locator('#boot.boot-app')).toBeVisible();
  await expect(page.locator('#boot [data-boot-balance]')).toHaveCount(0);
  await expect(page.locator('#boot .boot-tile-main')).toBeVisible();
  await release();
  // The app's own session (its refresh) still shows the overview.
  await expect(page.getByTestId('balance-main')).toHaveText('€0.00');
});
