import { expect, test, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, guestTipsInBrowser, signInUserApp, type Staff } from './helpers.ts';

/**
 * Live notices (issue 30, decision 0041): a tip paid by a guest in another browser appears in the staff member's open
 * overview without a reload, as a polite notice in the app's language and in the latest transactions.
 */
test.describe.configure({ mode: 'serial' });

let staff: Staff;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  staff = await createStaffWithCard(request, { title: 'Café Rīga' });
  await request.dispose();
});

/** Opens the overview and waits for its live stream's answer, so that the tip is not paid before the stream is open. */
async function openOverview(page: Page, prefix: string) {
  const streamOpen = page.waitForResponse((response) => response.url().includes('/events') && response.status() === 200);
  await page.goto(`/#${prefix}/overview`);
  await streamOpen;
}

test('a tip paid elsewhere appears in the open overview without reload, with a polite notice', async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await signInUserApp(context, baseURL!, staff);
  await openOverview(page, '');
  const loads: string[] = [];
  page.on('framenavigated', (frame) => frame === page.mainFrame() && loads.push(frame.url()));

  await guestTipsInBrowser(browser, baseURL!, staff.cardId);

  // The tip's own notice: the first test's tip may leave its hold meanwhile, and its "no longer on hold" notice stands
  // beside this one.
  const notice = page.getByTestId('live-notice').filter({ hasText: /from a guest at/ });
  await expect(notice).toContainText(/€\d+\.\d{2} from a guest at Café Rīga/, { timeout: 10_000 });
  await expect(page.getByRole('region', { name: 'Live notices' })).toHaveAttribute('aria-live', 'polite');
  await expect(page.getByText('Tip via Café Rīga').first()).toBeVisible();
  // The notice took no focus, and the page was not reloaded.
  await expect(notice.getByRole('button')).not.toBeFocused();
  expect(loads).toEqual([]);
  expect(await a11yProblems(page)).toEqual([]);
  await notice.getByRole('button', { name: 'Close notice' }).click();
  await expect(notice).toHaveCount(0);
});

test('in French at 360 px the notice says it in French and fits', async ({ page, context, browser, baseURL }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await signInUserApp(context, baseURL!, staff);
  await openOverview(page, '/fr');

  await guestTipsInBrowser(browser, baseURL!, staff.cardId);

  const notice = page.getByTestId('live-notice').filter({ hasText: /d’un client de/ });
  await expect(notice).toContainText(/\d+,\d{2}\s€ d’un client de Café Rīga/, { timeout: 10_000 });
  const box = (await notice.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
