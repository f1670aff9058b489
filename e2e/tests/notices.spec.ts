import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { a11yProblems, auth, signInUserApp, teamOfTwo, type Staff } from './helpers.ts';

/**
 * In-app notices (issue 29): what the team's admin decides is shown to the member at once in the open app (the live
 * notice and the header's count), is still there after a reload until read, and is written in the reader's language.
 */
test.describe.configure({ mode: 'serial' });

let admin: Staff;
let colleague: Staff;
let teamId = '';

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  ({
    admin,
    colleague,
    team: { id: teamId },
  } = await teamOfTwo(request));
  await request.dispose();
});

/** Opens the notices and waits for the live stream's answer, so the admin's change is not made before it is open. */
async function openNotices(page: Page, prefix: string) {
  const streamOpen = page.waitForResponse((response) => response.url().includes('/events') && response.status() === 200);
  await page.goto(`/#${prefix}/notices`);
  await streamOpen;
}

const badge = (page: Page) => page.getByTestId('notices-badge');

for (const [locale, rule, live, bell, markRead, title] of [
  [
    'fr',
    'hours',
    /Règle de partage\s:\sSelon les heures travaillées/,
    'Notifications (1 notification non lue)',
    'Marquer comme lue',
    'Notifications',
  ],
  ['es', 'even', /Regla de reparto: A partes iguales/, 'Avisos (1 aviso sin leer)', 'Marcar como leído', 'Avisos'],
] as const) {
  test(`at 360 px in ${locale}: a rule change is told live, kept after a reload, and read`, async ({
    page,
    context,
    baseURL,
    playwright,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signInUserApp(context, baseURL!, colleague);
    await openNotices(page, `/${locale}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    // The approval's notice came before: read it first, so the count is the rule change's alone.
    const markAll = page.getByRole('button', { name: locale === 'fr' ? 'Tout marquer comme lu' : 'Marcar todos como leídos' });
    if (await markAll.isVisible()) await markAll.click();
    await expect(badge(page)).toHaveCount(0);

    const request = await playwright.request.newContext({ baseURL });
    const saved = await request.post(`/api/teams/${teamId}/rules`, { headers: auth(admin), data: { kind: rule } });
    expect(saved.status()).toBe(201);
    await request.dispose();

    const notice = page.getByTestId('live-notice');
    await expect(notice).toContainText(live, { timeout: 10_000 });
    await expect(badge(page)).toHaveText('1');
    await expect(page.getByTestId('notices-link')).toHaveAccessibleName(bell);
    const row = page.getByTestId('notice-row').first();
    await expect(row).toContainText(live);
    await expect(row).toHaveAttribute('data-unread', 'true');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await a11yProblems(page)).toEqual([]);
    await page.screenshot({ path: `../test-results/notices-${locale}-360.png`, fullPage: true });

    // Still there after a reload, until read.
    await page.reload();
    await expect(badge(page)).toHaveText('1');
    await row.getByRole('button', { name: markRead }).click();
    await expect(badge(page)).toHaveCount(0);
    await expect(row).toHaveAttribute('data-unread', 'false');
  });
}

test('at 1280 px the header’s bell counts the notice and leads to the list', async ({ page, context, baseURL, playwright }) => {
  test.skip((page.viewportSize()?.width ?? 0) < 1000, 'the wide layout');
  await signInUserApp(context, baseURL!, colleague);
  await page.goto('/#/overview');
  const request = await playwright.request.newContext({ baseURL });
  const removed = await request.delete(`/api/teams/${teamId}/members/${(await meOf(request, colleague)).id}`, {
    headers: auth(admin),
  });
  expect(removed.status()).toBe(200);
  await request.dispose();
  await expect(badge(page)).toHaveText('1', { timeout: 10_000 });
  await page.getByTestId('notices-link').click();
  await expect(page.getByTestId('notice-row').first()).toContainText('The admin removed you from a team. Team: Bar Riga');
  expect(await a11yProblems(page)).toEqual([]);
  await page.screenshot({ path: '../test-results/notices-en-1280.png', fullPage: true });
});

async function meOf(request: APIRequestContext, staff: Staff) {
  return ((await (await request.get('/api/me', { headers: auth(staff) })).json()) as { data: { id: string } }).data;
}
