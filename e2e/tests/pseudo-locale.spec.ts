import { expect, test, type APIRequestContext, type BrowserContext, type Page } from './fixtures.ts';
import { auth, createStaffWithCard, payTipWithApplePay, png, signInUserApp } from './helpers.ts';
import { APP_PAGES, PUBLIC_PAGES } from './routes.ts';

/**
 * Every route in the pseudo-locale (every text accented, 40 % longer and bracketed: decision 0035) on a 360 px
 * phone. Fails on visible text outside brackets (a string that bypasses the catalogs), on catalog text cut off or
 * running out of its box, and on a page that scrolls sideways. One staff member with a card, a paid tip, a payout
 * account, a ticket and an invoice, and a colleague's venue (two teams, her card with a photo, the venue card made);
 * the public site, its cookie banner and the guest pages signed out (the venue page and the payer's receipt too, which
 * the server draws in the pseudo-locale), then every signed-in page.
 */
test.describe.configure({ timeout: 180_000 });

const PHONE = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true };

/** Data the test made (names, titles, the operator's details from the e2e server's environment). */
const CARD = { public_name: 'Anna', title: 'Café Riga' };
const TICKET = { title: 'Payout missing', message: 'Where is it?' };
const INVOICE = 'Photo session';
const TEAM = 'Kafejnīca';
/** The venue's second team and its member; the colleague who runs the venue has a photo on her card. */
const KITCHEN = 'Virtuve';
const PEOPLE = ['Marta', 'Jānis'];
const OPERATOR = ['Tipcard Test SIA', '40203000001', 'Brīvības iela 1, Rīga, LV-1010'];

/** Text that is legitimately not a catalog's: the brand, test data, and what data looks like (amounts, phones, ids). */
const NOT_TEXT = [
  // The landing page's sample card (a drawing), before the card's own name.
  'Anna B.',
  ...OPERATOR,
  'Bērziņa',
  new Intl.DisplayNames('en', { type: 'region' }).of('LV')!,
  CARD.public_name,
  CARD.title,
  TICKET.title,
  TICKET.message,
  INVOICE,
  TEAM,
  KITCHEN,
  ...PEOPLE,
  // The language switcher names each language in itself.
  'English',
  'Latviešu',
  'Français',
  'Español',
]
  .map((text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'))
  .concat([
    /Tipcard|Apple Pay|Google Pay|Instagram|Facebook|TikTok/g,
    // Dates and times, written in the pseudo-locale's formats (English), months short or long (the receipt's).
    /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b|\b[AP]M\b/g,
    /\bEUR\b/g,
    /[\w.+-]+@[\w.-]+/g, // e-mail addresses
    /https?:\/\/\S+/g,
    /\b[A-Z]{2}\d{2}(?:[ •]*[\dA-Z•]{1,4})+/g, // an IBAN, whole or masked
    /\b[A-Z]{2}••/g,
    /\b[A-Z0-9]{8}\b/g, // a payout's or card's reference
  ]);

async function seed(request: APIRequestContext) {
  const staff = await createStaffWithCard(request, CARD);
  const headers = { Authorization: `Bearer ${staff.jwt}` };
  const paymentId = await payTipWithApplePay(request, staff.cardId, { amount_cents: 1_250 });
  const method = await request.post(`/api/clients/${staff.clientId}/payout-methods`, {
    headers,
    data: { kind: 'sepa', iban: 'LV80BANK0000435195001', bic: 'HABALV22', holder_last_name: 'Bērziņa', address: OPERATOR[2] },
  });
  expect(method.status()).toBe(201);
  const ticket = await request.post(`/api/clients/${staff.clientId}/tickets`, { headers, data: TICKET });
  expect(ticket.status()).toBe(201);
  const invoice = await request.post(`/api/clients/${staff.clientId}/invoices`, {
    headers,
    data: { description: INVOICE, amount_cents: 4_500 },
  });
  expect(invoice.status()).toBe(201);
  // A colleague's team, for its invite link (the staff member keeps the form that creates one), and her venue's page:
  // a second team with a member of its own, her card with a photo, and the venue card made.
  const colleague = await createStaffWithCard(request, { public_name: PEOPLE[0]! });
  const team = await request.post(`/api/clients/${colleague.clientId}/workplace`, {
    headers: auth(colleague),
    data: { name: TEAM, country: 'LV' },
  });
  expect(team.status()).toBe(201);
  const workplaceId = ((await team.json()) as { data: { id: string } }).data.id;
  const photo = await request.post(`/api/cards/${colleague.cardId}/photo`, {
    headers: auth(colleague),
    data: { content: png(96, 96).toString('base64'), name: 'marta.png', mime: 'image/png' },
  });
  expect(photo.ok()).toBe(true);
  const kitchen = await request.post(`/api/workplaces/${workplaceId}/teams`, {
    headers: auth(colleague),
    data: { title: KITCHEN },
  });
  expect(kitchen.status()).toBe(201);
  const kitchenId = ((await kitchen.json()) as { data: { id: string } }).data.id;
  const cook = await createStaffWithCard(request, { public_name: PEOPLE[1]! });
  const asked = await request.post(`/api/teams/${kitchenId}/requests`, { headers: auth(cook) });
  expect(asked.status()).toBe(201);
  const approve = `/api/teams/${kitchenId}/requests/${((await asked.json()) as { data: { id: string } }).data.id}/approve`;
  expect((await request.post(approve, { headers: auth(colleague) })).ok()).toBe(true);
  expect((await request.get(`/api/workplaces/${workplaceId}/venue-card`, { headers: auth(colleague) })).ok()).toBe(true);
  // The payer's receipt (drawn by the server alone) once the provider's event has credited the tip.
  let receiptUrl: string | null = null;
  await expect
    .poll(async () => {
      const polled = await request.get(`/api/public/payments/${paymentId}`);
      receiptUrl = ((await polled.json()) as { data: { receipt_url: string | null } }).data.receipt_url;
      return receiptUrl;
    })
    .not.toBeNull();
  return {
    receiptPath: new URL(receiptUrl!).pathname.replace(/^\/(?:en|lv|fr|es)\//, '/'),
    teamId: ((await team.json()) as { data: { team: { id: string } } }).data.team.id,
    workplaceId,
    staff,
    paymentId,
    ticketId: ((await ticket.json()) as { data: { id: string } }).data.id,
    invoiceId: ((await invoice.json()) as { data: { id: string } }).data.id,
  };
}

/** The signed-in pages, with the withdrawal dialog and the card shop's return pages. */
const APP_ROUTES = [...APP_PAGES, 'payouts?withdraw=1', 'card-orders/payment/success', 'card-orders/payment/canceled'];

/** In the pseudo-locale: the `locale` cookie the web app and the server read (lib/pseudo-locale.ts). */
async function pseudoContext(context: BrowserContext, baseURL: string) {
  await context.addCookies([{ name: 'locale', value: 'pseudo', domain: new URL(baseURL).hostname, path: '/' }]);
}

/**
 * Waits until the page has drawn its data in the pseudo-locale: bracketed text (a guest page's server markup is in
 * the visitor's language until its script renders it anew), no loading placeholder, fonts in, and its text unchanged
 * for 0.4 s (a section whose data arrives later has arrived).
 */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('main').first()).toContainText('[');
  await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0);
  await page.waitForFunction(
    () => {
      const state = window as unknown as { sweepText?: string; sweepSince?: number };
      const text = document.body.innerText;
      if (text !== state.sweepText) Object.assign(state, { sweepText: text, sweepSince: performance.now() });
      return document.fonts.status === 'loaded' && performance.now() - state.sweepSince! >= 400;
    },
    undefined,
    { polling: 100 },
  );
}

/** What the page shows outside bracketed texts, once the brand, test data, numbers and punctuation are set aside. */
async function unbracketed(page: Page): Promise<string[]> {
  // Every visible text node (a list's choices aside: country names come from the browser's CLDR, like dates), and
  // what a visible field or control says of itself (placeholders, accessible names).
  const text = await page.evaluate(() =>
    [
      ...(function* visibleText() {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          if (!parent || parent.closest('script, style, noscript, template, select')) continue;
          if (parent.checkVisibility({ visibilityProperty: true }) && node.textContent!.trim()) yield node.textContent!;
        }
      })(),
      ...[...document.body.querySelectorAll<HTMLElement>('[placeholder], [aria-label]')]
        .filter((element) => element.getClientRects().length > 0)
        .flatMap((element) => [element.getAttribute('placeholder'), element.getAttribute('aria-label')])
        .filter((value): value is string => !!value),
    ].join('\n'),
  );
  let rest = text;
  // Brackets nest where a text holds another (a nested key): take the innermost first, until none is left.
  for (let previous = ''; previous !== rest;) {
    previous = rest;
    rest = rest.replace(/\[[^[\]]*\]/g, ' ');
  }
  for (const pattern of NOT_TEXT) rest = rest.replace(pattern, ' ');
  return (
    rest
      .split('\n')
      .map((line) => line.trim())
      // A line of one or two capitals is initials (an avatar); the switcher shows the language's code.
      .filter((line) => /\p{L}/u.test(line) && !/^\p{Lu}{1,2}$/u.test(line) && !/^(?:en|lv|fr|es)$/.test(line))
  );
}

/**
 * Sideways scroll of the page; catalog text cut off (an ellipsis, a clamp or a hidden overflow on a bracketed text);
 * any element with text of its own wider than its box or ending beyond the screen outside a sideways-scrolling region.
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate((width) => {
    const problems: string[] = [];
    const scrolling = document.scrollingElement ?? document.documentElement;
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50)}"`;
    if (scrolling.scrollWidth > width) {
      const beyond = (element: Element) => element.getBoundingClientRect().right > width + 1;
      const culprits = [...document.body.querySelectorAll(':not(svg *)')].filter(
        (element) => beyond(element) && ![...element.children].some(beyond),
      );
      problems.push(`page is ${scrolling.scrollWidth} px wide in ${width} px: ${culprits.slice(0, 3).map(name).join(', ')}`);
    }
    const scrollsSideways = (element: Element) => {
      for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (overflow === 'auto' || overflow === 'scroll') return true;
      }
      return false;
    };
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      const ownText = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent!)
        .join('')
        .trim();
      if (!ownText || element.closest('[aria-hidden="true"], svg, input, textarea, select, option')) continue;
      const style = getComputedStyle(element);
      const rect = element.getBoundingClientRect();
      // Screen-reader-only text is clipped to a pixel on purpose.
      const srOnly = style.clipPath === 'inset(50%)' || style.clip.startsWith('rect(0');
      if (style.visibility === 'hidden' || srOnly || rect.width <= 1 || style.display === 'inline') continue;
      const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible' || style.textOverflow === 'ellipsis';
      // Data may be cut with an ellipsis on purpose (a long name); a catalog's text, which is bracketed, never.
      const catalogText = /[[\]]/.test(element.textContent ?? '');
      if (clips && !catalogText) continue;
      if (element.scrollWidth > element.clientWidth + 1) {
        problems.push(`${name(element)} needs ${element.scrollWidth} px in ${element.clientWidth} px`);
      } else if (clips && element.scrollHeight > element.clientHeight + 1) {
        problems.push(`${name(element)} is cut: ${element.scrollHeight} px tall in ${element.clientHeight} px`);
      } else if (rect.right > width + 1 && !scrollsSideways(element)) {
        problems.push(`${name(element)} ends at ${Math.round(rect.right)} px of ${width} px`);
      }
    }
    return problems;
  }, PHONE.viewport.width);
}

/** Opens a page, waits for it to settle and collects its problems. */
async function sweep(page: Page, url: string, problems: string[]) {
  await page.goto(url);
  await settled(page);
  const found = [
    ...(await unbracketed(page)).map((line) => `not bracketed: "${line.slice(0, 80)}"`),
    ...(await layoutProblems(page)),
  ];
  problems.push(...found.map((problem) => `${url}: ${problem}`));
}

test('every route in the pseudo-locale at 360 px: texts bracketed, nothing cut off, no sideways scroll', async ({
  browser,
  request,
  baseURL,
}) => {
  const { staff, paymentId, ticketId, invoiceId, teamId, workplaceId, receiptPath } = await seed(request);
  const problems: string[] = [];

  const guest = await browser.newContext({ ...PHONE, baseURL });
  // No consent given: the cookie banner is swept with every public page.
  await pseudoContext(guest, baseURL!);
  const guestPage = await guest.newPage();
  for (const route of [...PUBLIC_PAGES, `teams/${teamId}/join`, `teams/${crypto.randomUUID()}/join`]) {
    await sweep(guestPage, `/#/${route}`, problems);
  }
  const guestPages = [
    `/payment/${staff.cardId}`,
    `/payment/${staff.cardId}/success?payment=${paymentId}`,
    `/payment/${staff.cardId}/canceled`,
    `/payment/${staff.cardId}/failed`,
    `/invoice/${invoiceId}`,
    `/invoice/${crypto.randomUUID()}`,
    `/venue/${workplaceId}`,
    `/venue/${crypto.randomUUID()}`,
    `/actions/${'ab'.repeat(32)}`,
    receiptPath,
    '/receipts/made-up',
  ];
  for (const url of guestPages) await sweep(guestPage, url, problems);
  await guest.close();

  const signedIn = await browser.newContext({ ...PHONE, baseURL });
  await pseudoContext(signedIn, baseURL!);
  await signInUserApp(signedIn, baseURL!, staff);
  const appPage = await signedIn.newPage();
  for (const route of APP_ROUTES)
    await sweep(
      appPage,
      `/#/${route.replace(':ticket', ticketId).replace(':card', staff.cardId).replace(':payout', crypto.randomUUID())}`,
      problems,
    );
  await signedIn.close();

  expect(problems).toEqual([]);
});
