import { readFileSync, readdirSync } from 'node:fs';
import { expect, test, type Page } from './fixtures.ts';
import { extractText, getDocumentProxy } from 'unpdf';
import { a11yProblems } from './helpers.ts';

const LOCALES = ['en', 'lv', 'fr', 'es'] as const;
type Locale = (typeof LOCALES)[number];
const PAGES = ['/', '/how-it-works', '/about', '/faq', '/contacts', '/affiliate-program', '/terms', '/privacy', '/cookies'];
const CATALOGS = new URL('../../packages/shared/src/i18n/locales/', import.meta.url);

const hashPath = (locale: Locale, page: string) => (locale === 'en' ? `/#${page}` : `/#/${locale}${page === '/' ? '' : page}`);

/** Every string of a locale's catalogs, by namespace and key. */
function leaves(locale: Locale): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') out.set(path, value);
    else if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) walk(child, `${path}.${key}`);
  };
  const dir = new URL(`${locale}/`, CATALOGS);
  for (const file of readdirSync(dir)) walk(JSON.parse(readFileSync(new URL(file, dir), 'utf8')), file.replace('.json', ''));
  return out;
}

/**
 * English sentences that a page in another language must not show: long en strings whose translation differs
 * (a missing key would fall back to exactly these).
 */
function englishFallbacks(locale: Locale): string[] {
  const en = leaves('en');
  const other = leaves(locale);
  return [...en]
    .filter(([key, text]) => text.length > 30 && !text.includes('{{') && other.get(key) !== text)
    .map(([, text]) => text);
}

async function visibleText(page: Page): Promise<string> {
  return (await page.locator('body').innerText()).replace(/\s+/g, ' ');
}

test.describe('every public page in every language', () => {
  // One loop in one project: the pages are the same at both widths, and axe on 36 pages takes a while.
  test.skip(({ viewport }) => (viewport?.width ?? 0) < 1000, 'runs in the desktop project');
  test.setTimeout(300_000);

  test('renders its own language with no raw key or English fallback, and has no serious axe violations', async ({ page }) => {
    const problems: string[] = [];
    for (const locale of LOCALES) {
      const fallbacks = locale === 'en' ? [] : englishFallbacks(locale);
      for (const path of PAGES) {
        await page.goto(hashPath(locale, path));
        await expect(page.locator('main h1')).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        const text = await visibleText(page);
        const rawKey =
          /\b(?:marketing|legal|cookies|landing|common)[:.][a-z_]+\.[a-z_.]+/.exec(text) ??
          /\b[a-z]+_[a-z_]+\.(?:title|text|label|lead)\b/.exec(text);
        if (rawKey) problems.push(`${locale} ${path}: raw key "${rawKey[0]}"`);
        for (const english of fallbacks)
          if (text.includes(english)) problems.push(`${locale} ${path}: English text "${english.slice(0, 60)}…"`);
        for (const problem of await a11yProblems(page)) problems.push(`${locale} ${path}: axe ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

test('the server answers the path forms with the page in its language, and the app continues on the hash route', async ({
  page,
}) => {
  await page.goto('/lv/faq');
  await expect(page).toHaveURL(/\/#\/lv\/faq$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'lv');
  await expect(page.getByRole('heading', { level: 1, name: 'Biežāk uzdotie jautājumi' })).toBeVisible();
  const answer = page.getByText('Reģistrācija ir bez maksas, un nav ikmēneša maksas', { exact: false });
  await expect(answer).toBeHidden();
  await page.getByRole('button', { name: 'Cik tas maksā?' }).click();
  await expect(answer).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cik tas maksā?' })).toHaveAttribute('aria-expanded', 'true');
});

test('switching the language keeps the page, reloads it and remembers the choice for a year (with consent)', async ({
  page,
  context,
  isMobile,
}) => {
  // The language cookie is functional storage: it is written only once the visitor has allowed it.
  await page.addInitScript(() => localStorage.setItem('Functional:accepted', 'true'));
  await page.goto('/#/about');
  await expect(page.getByRole('heading', { level: 1, name: 'Tips belong to the people who earn them' })).toBeVisible();
  if (isMobile) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Français' }).click();
    await expect(page).toHaveURL(/#\/fr\/about$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Les pourboires appartiennent à ceux qui les méritent' }),
    ).toBeVisible();
  } else {
    await page.getByRole('button', { name: /^Language: English/ }).click();
    await page.getByRole('button', { name: 'Latviešu' }).click();
    await expect(page).toHaveURL(/#\/lv\/about$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dzeramnauda pienākas tiem, kas to nopelnījuši' })).toBeVisible();
  }
  const cookie = (await context.cookies()).find((item) => item.name === 'locale');
  expect(cookie?.value).toBe(isMobile ? 'fr' : 'lv');
  const days = (cookie!.expires - Date.now() / 1000) / 86_400;
  expect(days).toBeGreaterThan(364);
  expect(days).toBeLessThanOrEqual(365);
});

/**
 * The app's scripts the page requests from now on: its entry, as the landing's boot script names it in the page
 * `served`, and the files the entry alone starts with (`start-index-…`, not those it shares with the landing's script).
 */
function appRequests(page: Page, served: string): string[] {
  const entry = /<script data-entry="([^"]+)"/.exec(served)?.[1];
  expect(entry).toBeDefined();
  const requested: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === entry || /^\/assets\/start-index-(?!landing-island)/.test(path)) requested.push(path);
  });
  return requested;
}

/**
 * The landing page's own script runs (decision 0065): the server's banner keeps room for itself below the page.
 * The app's banner does the same once it has taken the page over. A tap before the script runs does nothing.
 */
const landingReady = (page: Page) => expect.poll(() => page.evaluate(() => document.body.style.paddingBottom)).toMatch(/px$/);

test('on the landing the language list and the phone menu work before the app, which a link into it starts', async ({
  page,
  isMobile,
}) => {
  const app = appRequests(page, await (await page.request.get('/')).text());
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Receive tips with your personal' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
  await landingReady(page);
  if (isMobile) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'About' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('button', { name: 'Français' }).click();
  } else {
    const switcher = page.getByRole('button', { name: /^Language: English/ });
    await switcher.click();
    await expect(switcher).toHaveAttribute('aria-expanded', 'true');
    const list = page.getByRole('list', { name: 'Choose a language' });
    await expect(list).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
    await expect(switcher).toBeFocused();
    await switcher.click();
    await expect(list).toBeVisible();
    // By keyboard: a click's retries scroll the page, and wider than 800 px a scroll closes the list (spec 9).
    await list.getByRole('button', { name: 'Français' }).press('Enter');
  }
  // The landing in that language, which the server draws: still no app.
  await expect(page).toHaveURL(/\/fr$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { level: 1, name: 'Recevez des pourboires' })).toBeVisible();
  expect(app).toEqual([]);
  await landingReady(page);

  // Log in, from the header on a computer and from the menu on a phone: the app starts on its page.
  if (isMobile) {
    await page.getByRole('button', { name: 'Ouvrir le menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Se connecter' }).click();
  } else await page.locator('header').getByRole('link', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/#\/fr\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Connexion' })).toBeVisible();
  expect(app.length).toBeGreaterThan(0);
});

test('a session the app knows of starts the app on the landing, which goes on as the app does', async ({
  page,
  context,
  baseURL,
}) => {
  // A script-readable refresh cookie of earlier versions (lib/tokens.ts): the server cannot tell, the landing's script can.
  await context.addCookies([{ name: 'refresh__key', value: 'an-old-session', url: baseURL! }]);
  const app = appRequests(page, await (await page.request.get('/')).text());
  await page.goto('/');
  await expect.poll(() => app.length).toBeGreaterThan(0);
  // The app's guard sends a signed-in visitor on to the overview; this session is refused there, so: log in.
  await expect(page).toHaveURL(/#\/(overview|login)$/);
});

test.describe('cookie consent', () => {
  const storage = (page: Page) =>
    page.evaluate(() =>
      Object.fromEntries(
        Object.keys(localStorage)
          .sort()
          .map((key) => [key, localStorage.getItem(key)]),
      ),
    );
  const banner = (page: Page) => page.getByRole('region', { name: 'Cookie consent' });

  test('Accept stores both keys as true and the banner stays away; only then are page views sent', async ({ page }) => {
    const events: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/analytics/events')) events.push(request.postDataJSON().name);
    });
    await page.goto('/#/faq');
    await expect(banner(page)).toBeVisible();
    expect(await storage(page)).toEqual({});
    await page.goto('/#/about');
    await expect(page.locator('main h1')).toBeVisible();
    expect(events).toEqual([]);

    const firstView = page.waitForRequest((request) => request.url().endsWith('/api/analytics/events'));
    await banner(page).getByRole('button', { name: 'Accept' }).click();
    await firstView;
    expect(await storage(page)).toEqual({ 'Functional:accepted': 'true', 'GDPR:accepted': 'true' });
    await page.reload();
    await expect(page.locator('main h1')).toBeVisible();
    await expect(banner(page)).toBeHidden();
    expect(events.every((name) => name === 'page_view')).toBe(true);
  });

  test('the landing page comes with the banner in its language, whose buttons work before the app loads', async ({
    page,
    request,
    context,
  }) => {
    const es = leaves('es');
    const [label, text] = [es.get('cookies.banner.label')!, es.get('cookies.banner.text')!];
    const served = await (await request.get('/es')).text();
    expect(served).toContain(`<section aria-label="${label}"`);
    expect(served).toContain(`>${text}</p>`);
    const app = appRequests(page, served);
    const events: unknown[] = [];
    page.on('request', (sent) => {
      if (sent.url().endsWith('/api/analytics/events')) events.push(sent.postDataJSON());
    });
    await page.goto('/es');
    await landingReady(page);
    const banner = page.getByRole('region', { name: label });
    await expect(banner.getByText(text)).toBeVisible();

    // Settings: the two choices, nothing ticked before a choice; Escape closes them.
    await banner.getByRole('button', { name: es.get('cookies.banner.read_more')! }).click();
    const settings = page.getByRole('dialog', { name: es.get('cookies.settings.title')! });
    await expect(settings).toBeVisible();
    await expect(settings.getByRole('switch', { name: es.get('cookies.settings.functional')! })).not.toBeChecked();
    await expect(settings.getByRole('switch', { name: es.get('cookies.settings.analytics')! })).not.toBeChecked();
    await page.keyboard.press('Escape');
    await expect(settings).toBeHidden();

    await banner.getByRole('button', { name: es.get('cookies.banner.reject')! }).click();
    await expect(banner).toBeHidden();
    expect(await storage(page)).toEqual({ 'Functional:accepted': 'false', 'GDPR:accepted': 'false' });
    expect((await context.cookies()).find((cookie) => cookie.name === 'consent_chosen')?.value).toBe('1');
    expect(await page.evaluate(() => document.body.style.paddingBottom)).toBe('');
    expect(events).toEqual([]);
    // Chosen: the server leaves the banner out.
    await page.reload();
    await expect(page.locator('main h1')).toBeVisible();
    await expect(banner).toBeHidden();
    expect(await (await page.request.get('/es')).text()).not.toContain(`aria-label="${label}"`);
    expect(app).toEqual([]);
  });

  test('Accept on the landing counts its page view; the app takes the landing over without a shift', async ({ page }) => {
    const es = leaves('es');
    const label = es.get('cookies.banner.label')!;
    // Every shift of the page's life, from its first paint (the Layout Instability API).
    await page.addInitScript(() => {
      const shifts: number[] = ((window as unknown as { shifts: number[] }).shifts = []);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const app = appRequests(page, await (await page.request.get('/es')).text());
    await page.goto('/es');
    await landingReady(page);
    const banner = page.getByRole('region', { name: label });
    const before = await banner.boundingBox();
    // A hash route (here the landing's own) is the app's: it starts and draws the same page over the server's.
    await page.evaluate(() => (window.location.hash = '#/es'));
    await expect.poll(() => app.length).toBeGreaterThan(0);
    await expect(page.locator('template[data-landing-part]')).toHaveCount(0);
    await expect(banner).toBeVisible();
    expect(await banner.boundingBox()).toEqual(before);
    expect(await page.evaluate(() => document.body.style.paddingBottom)).toMatch(/px$/);
    expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);

    // And on a landing the app has not taken over, Accept counts the page view the app would count.
    await page.goto('/es');
    await landingReady(page);
    const view = page.waitForRequest((sent) => sent.url().endsWith('/api/analytics/events'));
    await banner.getByRole('button', { name: es.get('cookies.banner.accept')! }).click();
    expect((await view).postDataJSON()).toEqual({ name: 'page_view', path: '/es', locale: 'es' });
    expect(await storage(page)).toEqual({ 'Functional:accepted': 'true', 'GDPR:accepted': 'true' });
    await expect(banner).toBeHidden();
  });

  test('Settings opens the choices; saving stores the two choices; Reject all turns both off', async ({ page }) => {
    const app = appRequests(page, await (await page.request.get('/')).text());
    await page.goto('/#/');
    // The landing's own script makes the server's banner work; the app is not loaded for it.
    await landingReady(page);
    await banner(page).getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Cookie settings' });
    await expect(settings).toBeVisible();
    // Nothing is ticked before a choice.
    await expect(settings.getByRole('switch', { name: 'Functional' })).not.toBeChecked();
    await expect(settings.getByRole('switch', { name: 'Analytics' })).not.toBeChecked();
    await settings.getByRole('switch', { name: 'Functional' }).check();
    await settings.getByRole('switch', { name: 'Analytics' }).check();
    await settings.getByRole('button', { name: 'Save choices' }).click();
    await expect(settings).toBeHidden();
    await expect(banner(page)).toBeHidden();
    expect(await storage(page)).toEqual({ 'Functional:accepted': 'true', 'GDPR:accepted': 'true' });
    // The confirmation snackbar sits over the bottom of the page, where the footer's link is.
    await expect(page.getByTestId('snackbar')).toContainText('Your cookie settings have been saved');
    await page.getByRole('button', { name: 'Dismiss message' }).click();

    await page.getByRole('button', { name: 'Cookie settings' }).click();
    await expect(settings.getByRole('switch', { name: 'Analytics' })).toBeChecked();
    await settings.getByRole('button', { name: 'Reject all' }).click();
    expect(await storage(page)).toEqual({ 'Functional:accepted': 'false', 'GDPR:accepted': 'false' });
    expect(app).toEqual([]);
  });

  test('an advert visit on the landing is counted once, by its script or by the app that follows', async ({ page }) => {
    const adVisits: unknown[] = [];
    page.on('request', (sent) => {
      if (sent.url().endsWith('/api/analytics/events') && sent.postDataJSON().name === 'ad_visit')
        adVisits.push(sent.postDataJSON());
    });
    await page.goto('/?advert=spring-poster');
    await landingReady(page);
    expect(adVisits).toEqual([]);
    const sent = page.waitForRequest(
      (request) => request.url().endsWith('/api/analytics/events') && request.postDataJSON().name === 'ad_visit',
    );
    await banner(page).getByRole('button', { name: 'Accept' }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      name: 'ad_visit',
      path: '/',
      promo_source: 'spring-poster',
      locale: 'en',
    });
    expect(await page.evaluate(() => sessionStorage.getItem('tipcard:promo_source'))).toBe('spring-poster');
    // Into the app, on the same page load: its page view, no second ad visit.
    const appView = page.waitForRequest(
      (request) => request.url().endsWith('/api/analytics/events') && request.postDataJSON().path === '/registration',
    );
    await page.locator('main').getByRole('link', { name: 'Sign up for free' }).first().click();
    await appView;
    expect(adVisits).toHaveLength(1);
  });

  test('Reject sits next to Accept; rejecting writes no language cookie', async ({ page, context }) => {
    await page.goto('/#/faq');
    const reject = banner(page).getByRole('button', { name: 'Reject' });
    const accept = banner(page).getByRole('button', { name: 'Accept' });
    const [rejectBox, acceptBox] = [await reject.boundingBox(), await accept.boundingBox()];
    expect(Math.abs(rejectBox!.y - acceptBox!.y)).toBeLessThan(2);
    expect(Math.abs(rejectBox!.width - acceptBox!.width)).toBeLessThan(2);
    await reject.click();
    await expect(banner(page)).toBeHidden();
    expect(await storage(page)).toEqual({ 'Functional:accepted': 'false', 'GDPR:accepted': 'false' });
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('locale');
  });

  test('an advert visit keeps its source for registration and is counted, both only with consent', async ({ page }) => {
    const adVisits: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/analytics/events') && request.postDataJSON().name === 'ad_visit')
        adVisits.push(request.postDataJSON());
    });
    await page.goto('/about?advert=spring-poster');
    await expect(page.locator('main h1')).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('tipcard:promo_source'))).toBeNull();
    expect(adVisits).toEqual([]);
    const sent = page.waitForRequest(
      (request) => request.url().endsWith('/api/analytics/events') && request.postDataJSON().name === 'ad_visit',
    );
    await banner(page).getByRole('button', { name: 'Accept' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ name: 'ad_visit', promo_source: 'spring-poster', locale: 'en' });
    expect(await page.evaluate(() => sessionStorage.getItem('tipcard:promo_source'))).toBe('spring-poster');
  });
});

test('the contact form reaches support through the dev outbox', async ({ page, request }) => {
  const marker = `Question ${Date.now()}: how do I order more QR cards?`;
  await page.goto('/#/contacts');
  await page.getByLabel('Your name').fill('Anna Bērziņa');
  await page.getByLabel('Your e-mail').fill('anna@example.com');
  await page.getByRole('textbox', { name: 'Message' }).fill(marker);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('status')).toContainText('Thank you, your message has been sent');
  await expect
    .poll(async () => {
      const outbox = (await (await request.get('/api/dev/outbox?to=support%40localhost')).json()) as {
        data: { channel: string; body: string }[];
      };
      return outbox.data.find((message) => message.body.includes(marker));
    })
    .toMatchObject({ channel: 'email', body: expect.stringContaining('Reply-To: anna@example.com') });
});

test('the tariff and agent PDFs are linked from the footer and the affiliate page, and open', async ({ page, request }) => {
  const pdfText = async (href: string) => {
    const response = await request.get(href);
    expect(response.headers()['content-type']).toBe('application/pdf');
    const bytes = new Uint8Array(await response.body());
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    return (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text.replace(/\s+/g, ' ');
  };
  await page.goto('/#/lv/affiliate-program');
  const tariff = await page.getByTestId('tariff-link').first().getAttribute('href');
  expect(tariff).toBe('/docs/tariff-lv.pdf');
  expect(await pdfText(tariff!)).toContain('Minimālā izmaksa');
  expect(await pdfText((await page.getByTestId('agents-pdf-lv').getAttribute('href'))!)).toContain('Kā sākt');
  expect(await pdfText((await page.getByTestId('agents-pdf-en').getAttribute('href'))!)).toContain('How to start');
});

test('the icon is there for browsers and bots that ask for /favicon.ico, as for the pages that name the SVG', async ({
  request,
}) => {
  for (const [path, type] of [
    ['/favicon.ico', /^image\/(x-icon|vnd\.microsoft\.icon)/],
    ['/favicon.svg', /^image\/svg\+xml/],
  ] as const) {
    const icon = await request.get(path);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(type);
    expect((await icon.body()).length).toBeGreaterThan(100);
  }
});

test('on a slow connection a signed-in page shows its frame at once, not a blank page, until the app takes over', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 640 });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  // The app's entry script arrives late, as on a weak connection.
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/#/transactions', { waitUntil: 'commit' });
  await expect(page.locator('#boot')).toBeVisible();
  // The page's own frame (its title and lines); the header's blocks of a signed-in visitor are not drawn for a guest.
  await expect(page.locator('#boot .boot-title')).toBeVisible();
  release();
  await expect(page.getByRole('heading', { name: 'Log in to Tipcard' })).toBeVisible();
  await expect(page.locator('#boot')).toBeHidden();
});
