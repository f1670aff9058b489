import { expect, test, type APIRequestContext, type Browser, type Page } from './fixtures.ts';
import { createStaffWithCard, payTipWithApplePay, type Staff } from './helpers.ts';
import { APP_PAGES, PUBLIC_PAGES } from './routes.ts';

/**
 * Every route in every language on a 360 px and a 390 px phone: no page scrolls sideways and no text runs out of its
 * box (issue 16). One browser context per language and width: the public site signed out first (with the cookie
 * banner on the first page) with the guest pages and a payer's receipt, then the signed-in pages of a staff member with
 * a card, tips, a payout account, a ticket and an invoice.
 */
test.describe.configure({ timeout: 240_000 });

const LANGUAGES = ['en', 'lv', 'fr', 'es'] as const;
/** The narrowest phones in use, and the most common width (the review found overflows at both). */
const WIDTHS = [360, 390] as const;
type Language = (typeof LANGUAGES)[number];

interface Seeded extends Staff {
  ticketId: string;
  invoiceId: string;
  /** The large tip's receipt (decision 0042), without its language prefix. */
  receiptPath: string;
}

async function seed(request: APIRequestContext): Promise<Seeded> {
  const staff = await createStaffWithCard(request, {
    public_name: 'Anna Bērziņa-Kalniņa',
    title: 'Viesmīle kafejnīcā “Café Rīga”',
  });
  const headers = { Authorization: `Bearer ${staff.jwt}` };
  const largeTip = await payTipWithApplePay(request, staff.cardId, { amount_cents: 45_000 });
  await payTipWithApplePay(request, staff.cardId, { amount_cents: 500, cover_fee: true });
  const method = await request.post(`/api/clients/${staff.clientId}/payout-methods`, {
    headers,
    data: {
      kind: 'sepa',
      iban: 'LV80BANK0000435195001',
      bic: 'HABALV22',
      holder_last_name: 'Bērziņa',
      address: 'Brīvības iela 1, Rīga, LV-1010, Latvia',
    },
  });
  expect(method.status()).toBe(201);
  const ticket = await request.post(`/api/clients/${staff.clientId}/tickets`, {
    headers,
    data: { title: 'Kur ir mana izmaksa?', message: 'Pirms nedēļas pieprasīju izmaksu.' },
  });
  expect(ticket.status()).toBe(201);
  const invoice = await request.post(`/api/clients/${staff.clientId}/invoices`, {
    headers,
    data: { description: 'Kāzu fotosesija, 12. jūnijs', amount_cents: 45_000 },
  });
  expect(invoice.status()).toBe(201);
  // The receipt is there once the provider's event has credited the tip.
  let receiptUrl: string | null = null;
  await expect
    .poll(async () => {
      const polled = await request.get(`/api/public/payments/${largeTip}`);
      receiptUrl = ((await polled.json()) as { data: { receipt_url: string | null } }).data.receipt_url;
      return receiptUrl;
    })
    .not.toBeNull();
  return {
    ...staff,
    receiptPath: new URL(receiptUrl!, 'http://localhost').pathname.replace(/^\/(?:en|lv|fr|es)\//, '/'),
    ticketId: ((await ticket.json()) as { data: { id: string } }).data.id,
    invoiceId: ((await invoice.json()) as { data: { id: string } }).data.id,
  };
}

const hashPath = (language: Language, page: string) => `/#/${language === 'en' ? '' : `${language}/`}${page}`;

/** Waits until the page has drawn its data: no loading placeholder, no running finite animation, fonts in. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('main').first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0);
  await page.waitForFunction(
    () =>
      document.fonts.status === 'loaded' &&
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/** Sideways scroll of the page, and every visible element with text of its own whose text is wider than its box. */
function overflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const beyond = (element: Element) => element.getBoundingClientRect().right > root.clientWidth + 1;
    if (root.scrollWidth > root.clientWidth) {
      // Named by the innermost elements that stick out, so a wide box without text of its own is found too.
      const culprits = [...document.body.querySelectorAll(':not(svg *)')].filter(
        (element) => beyond(element) && ![...element.children].some(beyond),
      );
      problems.push(
        `page is ${root.scrollWidth} px wide in ${root.clientWidth} px: ${culprits.slice(0, 3).map(name).join(', ')}`,
      );
    }
    const scrollsSideways = (element: Element) => {
      for (let node = element.parentElement; node; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && node !== root && node !== document.body) return true;
      }
      return false;
    };
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      const ownText = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '');
      if (!ownText || element.closest('[aria-hidden="true"], svg, input, textarea, select')) continue;
      const style = getComputedStyle(element);
      const rect = element.getBoundingClientRect();
      // Screen-reader-only text is clipped to a pixel on purpose; an ellipsis is a deliberate, titled cut.
      const srOnly = style.clipPath === 'inset(50%)' || style.clip.startsWith('rect(0');
      if (style.visibility === 'hidden' || srOnly || rect.width <= 1 || style.textOverflow === 'ellipsis') continue;
      if (element.scrollWidth > element.clientWidth + 1 && style.display !== 'inline') {
        problems.push(`${name(element)} needs ${element.scrollWidth} px in ${element.clientWidth} px`);
      } else if (rect.right > root.clientWidth + 1 && !scrollsSideways(element)) {
        problems.push(`${name(element)} ends at ${Math.round(rect.right)} px of ${root.clientWidth} px`);
      }
    }
    return problems;
  });
}

async function sweepLanguage(browser: Browser, baseURL: string, language: Language, width: number, seeded: Seeded) {
  const context = await browser.newContext({
    viewport: { width, height: 640 },
    isMobile: true,
    hasTouch: true,
    locale: language,
    baseURL,
  });
  const page = await context.newPage();
  const found: Record<string, string[]> = {};
  const visit = async (label: string, url: string) => {
    const response = await page.goto(url);
    // A server page that answered 404 (a receipt link gone wrong) would sweep its error page instead; a route of the
    // app's hash router is not a request of its own.
    if (!url.startsWith('/#')) expect(response?.status(), url).toBe(200);
    await settled(page);
    const problems = await overflowProblems(page);
    if (problems.length > 0) found[label] = problems;
  };

  // Signed out: the first page with the cookie banner over it, then the choice made.
  for (const path of PUBLIC_PAGES) await visit(hashPath(language, path), hashPath(language, path));
  await visit('/payment/:card', `/payment/${seeded.cardId}`);
  await visit('/invoice/:invoice', `/invoice/${seeded.invoiceId}`);
  await visit('/receipts/:token', `/${language}${seeded.receiptPath}`);

  const { hostname } = new URL(baseURL);
  await context.addCookies([
    { name: 'qtfo__token', value: seeded.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: seeded.refreshToken, domain: hostname, path: '/' },
  ]);
  await page.evaluate(() => {
    localStorage.setItem('Functional:accepted', 'true');
    localStorage.setItem('GDPR:accepted', 'false');
  });
  for (const path of APP_PAGES) {
    await visit(
      hashPath(language, path),
      hashPath(
        language,
        path.replace(':ticket', seeded.ticketId).replace(':card', seeded.cardId).replace(':payout', crypto.randomUUID()),
      ),
    );
  }
  await context.close();
  return found;
}

let seeded: Seeded;
test.beforeAll(async ({ request }) => {
  seeded = await seed(request);
});

for (const width of WIDTHS) {
  for (const language of LANGUAGES) {
    test(`no page overflows a ${width} px phone in ${language}`, async ({ browser, baseURL }) => {
      expect(await sweepLanguage(browser, baseURL!, language, width, seeded)).toEqual({});
    });
  }
}
