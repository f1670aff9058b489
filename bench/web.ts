/**
 * `npm run bench:web`: figures for the web app's speed bars. Expects `npm run build` to have run; starts the server on
 * a free port with a throwaway DATA_DIR and prints one block per measurement. Not a test: it prints, it never fails on
 * a score. Each measurement is an exported function taking the base URL, so more can join `main` below.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ACCESS_TOKEN_COOKIE, CONSENT_CHOSEN_COOKIE, LOCALES, type Locale } from '@tipcard/shared/constants';
import { UUID_PATTERN } from '@tipcard/shared/uuid';
import { ROOT, startServer, type RunningServer } from './server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The flags every browser run here uses (e2e/playwright.config.ts). */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The real server (API and built web app) on a free port with an empty embedded database. */
async function startWebServer(): Promise<RunningServer> {
  if (!existsSync(join(ROOT, 'apps/web/dist/index.html'))) throw new Error('apps/web/dist is missing: run `npm run build` first');
  return startServer();
}

export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  lcpMs: number;
  fcpMs: number;
  totalBlockingMs: number;
  layoutShift: number;
  /** The element Lighthouse saw as the largest contentful paint (`largest-contentful-paint-element`), as its tag. */
  lcpElement: string;
  /** Where the LCP's time went (time to first byte, load delay, load time, render delay), in ms. */
  lcpPhases: { phase: string; ms: number }[];
  /** Why Lighthouse measured nothing on this run (its `runtimeError`, e.g. NO_FCP on an overloaded machine). */
  failure?: string;
}

/** A Lighthouse details table's rows (the LCP element audit's details are a list of two such tables). */
type DetailsTable = { type: string; items?: Record<string, unknown>[] };

/** The LCP element's markup (Lighthouse's snippet, its opening tag) and the LCP's phases, when Lighthouse found them. */
function lcpElementOf(details: unknown): Pick<LighthouseFigures, 'lcpElement' | 'lcpPhases'> {
  const tables = ((details as { items?: DetailsTable[] } | undefined)?.items ?? []).filter((item) => item.type === 'table');
  const node = tables[0]?.items?.[0]?.node as { snippet?: string; nodeLabel?: string } | undefined;
  const label = node?.nodeLabel ? ` "${node.nodeLabel.slice(0, 40)}"` : '';
  return {
    lcpElement: node?.snippet ? `${node.snippet}${label}` : 'not found',
    lcpPhases: (tables[1]?.items ?? []).map((row) => ({ phase: String(row.phase), ms: Math.round(Number(row.timing)) })),
  };
}

/** Lighthouse's default (mobile profile: a mid-range phone, throttled 4G) run on one page, in Debian's Chromium. */
export async function measureLighthouse(url: string): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    const { categories, audits, runtimeError } = result.lhr;
    const lcpMs = audits['largest-contentful-paint']?.numericValue;
    const failure = runtimeError
      ? `${runtimeError.code}: ${runtimeError.message}`
      : lcpMs === undefined
        ? 'no LCP in the result'
        : undefined;
    return {
      ...(failure ? { failure } : {}),
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      lcpMs: Math.round(lcpMs ?? Number.NaN),
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? Number.NaN),
      totalBlockingMs: Math.round(audits['total-blocking-time']?.numericValue ?? Number.NaN),
      layoutShift: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
      ...lcpElementOf(audits['largest-contentful-paint-element']?.details),
    };
  } finally {
    chrome.kill();
  }
}

export interface LighthouseSeries {
  /** Each figure's median over the runs (one run varies by a few points). */
  median: Omit<LighthouseFigures, 'lcpElement' | 'lcpPhases'>;
  /** Every run as measured, in order, so the spread shows. */
  runs: LighthouseFigures[];
}

/** `runs` Lighthouse runs of the page, one after another, with the median of each figure over the runs that measured. */
export async function measureLighthouseRuns(url: string, runs = 3): Promise<LighthouseSeries> {
  const results: LighthouseFigures[] = [];
  for (let run = 0; run < runs; run += 1) results.push(await measureLighthouse(url));
  const measured = results.filter((figures) => !figures.failure);
  const median = (pick: (figures: LighthouseFigures) => number) => {
    const sorted = measured.map(pick).sort((a, b) => a - b);
    return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)]!;
  };
  return {
    median: {
      performance: median((f) => f.performance),
      accessibility: median((f) => f.accessibility),
      lcpMs: median((f) => f.lcpMs),
      fcpMs: median((f) => f.fcpMs),
      totalBlockingMs: median((f) => f.totalBlockingMs),
      layoutShift: median((f) => f.layoutShift),
    },
    runs: results,
  };
}

/** One file a page loads, with its size on the wire when gzipped. */
export interface PageFile {
  path: string;
  bytes: number;
  gzipBytes: number;
}

export interface PageWeight {
  files: PageFile[];
  totalGzipBytes: number;
  /**
   * What the page needs before it works: the server-rendered document (CSS and data inlined; the guest's form posts
   * without a script) and any render-blocking stylesheet it still links. The rest (module scripts, deferred by the
   * browser, and their imports) loads after the first paint and only enhances the page.
   */
  criticalGzipBytes: number;
  /** The paths of the critical files. */
  critical: string[];
  /** Chunks the page may import later (the anti-bot widget when configured): listed, not counted. */
  lazy: string[];
}

export interface PaymentPageWeight extends PageWeight {
  /** The card the page was measured on (Lighthouse opens the same page). */
  cardId: string;
  /**
   * Per language the page is served in, what its script loads when it starts beyond the files above, as a browser
   * loaded it: the language's texts (decision 0064).
   */
  started: Record<Locale, PageFile[]>;
}

/** A staff member with a card, made through the API as a user would (register, code from the dev outbox, verify). */
async function createStaff(baseUrl: string): Promise<{ cardId: string; jwt: string }> {
  const json = async (response: Response) => {
    if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: unknown }).data;
  };
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${baseUrl}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const phone = `+37129${String(Date.now()).slice(-6)}`;
  const { uuid } = (await json(await post('/register', { username: phone, age_confirmed: true, terms_accepted: true }))) as {
    uuid: string;
  };
  const outbox = (await json(await fetch(`${baseUrl}/api/dev/outbox?to=${encodeURIComponent(phone)}`))) as { body: string }[];
  const code = /\b(\d{6})\b/.exec(outbox[0]?.body ?? '')?.[1];
  if (!code) throw new Error('no sign-up code in the dev outbox');
  const { jwt } = (await json(await post(`/register/${uuid}/verify`, { code }))) as { jwt: string };
  const me = (await json(await fetch(`${baseUrl}/api/me`, { headers: { authorization: `Bearer ${jwt}` } }))) as {
    clients: { id: string }[];
  };
  const card = (await json(
    await post(
      `/clients/${me.clients[0]!.id}/cards`,
      { public_name: 'Anna', title: 'Bench', activity_type: 'WAITER', country: 'LV', welcome_phrase: 'Thank you!' },
      jwt,
    ),
  )) as { id: string };
  return { cardId: card.id, jwt };
}

/**
 * Everything a page loads for its first render, gzipped: the HTML the server answers, the scripts, module preloads
 * and stylesheets it names (and the entry that the boot script starts), and recursively every static import of those
 * scripts and every font or image their CSS references. Dynamic imports are listed apart: the page renders without
 * them.
 */
export async function measurePageWeight(baseUrl: string, pagePath: string): Promise<PageWeight> {
  const { gzipSync } = await import('node:zlib');
  const files = new Map<string, PageFile>();
  const lazy = new Set<string>();
  const queue: string[] = [];
  const add = (path: string, body: Buffer) => files.set(path, { path, bytes: body.length, gzipBytes: gzipSync(body).length });

  const html = Buffer.from(await (await fetch(`${baseUrl}${pagePath}`)).arrayBuffer());
  add(pagePath, html);
  const critical = new Set([pagePath]);
  // The form works without scripts when the server rendered it (a plain POST); otherwise the scripts are critical.
  const rendered = /<form[^>]*method="post"/.test(html.toString('utf8'));
  for (const match of html.toString('utf8').matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)) {
    const tag = match[0];
    if (tag.startsWith('<link') && !/rel="(?:stylesheet|modulepreload|preload)"/.test(tag)) continue;
    if (/rel="stylesheet"/.test(tag) || !rendered) critical.add(match[1]!);
    queue.push(match[1]!);
  }
  // A page whose scripts start after the first paint names its entry to the inline boot script (apps/api web-shell);
  // the landing names its own script beside it, which starts the entry only when the visitor goes into the app.
  for (const match of html.toString('utf8').matchAll(/<script[^>]*\sdata-entry="([^"]+)"(?:\s+data-island="([^"]+)")?/g)) {
    if (match[2] === undefined) queue.push(match[1]!);
    else {
      queue.push(match[2]);
      lazy.add(match[1]!);
    }
  }
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (files.has(path)) continue;
    const response = await fetch(new URL(path, baseUrl));
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    add(path, body);
    const text = body.toString('utf8');
    const resolve = (specifier: string) => new URL(specifier, new URL(path, baseUrl)).pathname;
    if (path.endsWith('.js')) {
      for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+)["'`]/g)) queue.push(resolve(m[1]!));
      for (const m of text.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g)) lazy.add(resolve(m[1]!));
    } else if (path.endsWith('.css')) {
      for (const m of text.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g))
        if (!m[1]!.startsWith('data:')) queue.push(resolve(m[1]!));
    }
  }
  for (const path of files.keys()) lazy.delete(path);
  const list = [...files.values()];
  const sum = (subset: PageFile[]) => subset.reduce((total, file) => total + file.gzipBytes, 0);
  return {
    files: list,
    totalGzipBytes: sum(list),
    criticalGzipBytes: sum(list.filter((file) => critical.has(file.path))),
    critical: [...critical],
    lazy: [...lazy],
  };
}

/** The scripts Chromium loads for a page opened in a language (Accept-Language), by path. */
async function scriptsLoaded(url: string, locale: Locale): Promise<string[]> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'),
  });
  try {
    const page = await (await browser.newContext({ locale })).newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(url, { waitUntil: 'load' });
    // The script starts after the first paint (web-shell `bootAfterPaint`), which can come after a moment of network
    // quiet: until no request has started for 2 s, at most 20 s.
    const quiet = { count: scripts.length, at: Date.now() };
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && Date.now() - quiet.at < 2_000;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (scripts.length !== quiet.count) Object.assign(quiet, { count: scripts.length, at: Date.now() });
    }
    return scripts;
  } finally {
    await browser.close();
  }
}

/**
 * `/payment/{cardId}`'s weight (measurePageWeight) for a new card, made through the API, and per language what the
 * script loads when it starts (a dynamic import the static walk lists as lazy: the page's texts).
 */
export async function measurePaymentPageWeight(baseUrl: string): Promise<PaymentPageWeight> {
  const { gzipSync } = await import('node:zlib');
  const { cardId } = await createStaff(baseUrl);
  const weight = await measurePageWeight(baseUrl, `/payment/${cardId}`);
  const known = new Set(weight.files.map((file) => file.path));
  const started = {} as Record<Locale, PageFile[]>;
  for (const locale of LOCALES) {
    const loaded = [...new Set(await scriptsLoaded(`${baseUrl}/payment/${cardId}`, locale))].filter((path) => !known.has(path));
    started[locale] = await Promise.all(
      loaded.map(async (path) => {
        const body = Buffer.from(await (await fetch(new URL(path, baseUrl))).arrayBuffer());
        return { path, bytes: body.length, gzipBytes: gzipSync(body).length };
      }),
    );
  }
  return { ...weight, cardId, started };
}

/** The weak network of issue 33: 400 kbit/s each way and 400 ms of latency on every request (CDP's emulation). */
export const WEAK_NETWORK = { latencyMs: 400, kbitPerSecond: 400 };

export interface ColdLoadFigures {
  /** The document's first byte (navigation timing's responseStart), from the navigation's start. */
  firstByteMs: number;
  /** The browser's first-contentful-paint, from the navigation's start. */
  firstPaintMs: number;
  /**
   * When the main balance's figure first showed, from the navigation's start: drawn by the server into the skeleton
   * (decision 0063) or by the app, whichever came first.
   */
  balancesMs: number;
  /** When the app itself showed it (its script downloaded and run): the page works from then on. */
  appBalancesMs: number;
  /** Every request the page made until the balances showed and no request started for 3 s, in the order they started. */
  requests: { url: string; bytes: number }[];
  /** Bytes on the wire (headers and compressed bodies) of those requests. */
  transferredBytes: number;
}

/**
 * A signed-in user's overview (`/#/overview`, the installed app's start) opened cold in a fresh browser context on the
 * weak network, cache disabled: first paint, balances shown, requests and bytes. The user is signed up through the API
 * and signed in as the app's own cookies after a sign-in would be (e2e `signInUserApp`), with the cookie choice made.
 */
export async function measureOverviewColdLoad(baseUrl: string): Promise<ColdLoadFigures> {
  const { chromium } = await import('playwright-core');
  const { jwt } = await createStaff(baseUrl);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'),
  });
  try {
    const context = await browser.newContext({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
    const { hostname } = new URL(baseUrl);
    await context.addCookies([
      { name: ACCESS_TOKEN_COOKIE, value: jwt, domain: hostname, path: '/' },
      { name: CONSENT_CHOSEN_COOKIE, value: '1', domain: hostname, path: '/' },
    ]);
    await context.addInitScript(() => {
      localStorage.setItem('Functional:accepted', 'true');
      localStorage.setItem('GDPR:accepted', 'false');
      // The times the main balance first shows, from the server's skeleton or the app, and from the app: noted by the
      // page itself so that no round trip to it adds to the time. Shown means visible (a figure the skeleton's script
      // removes, or one the app hides, does not count).
      // (No named functions in here: the bench's loader would wrap them in a helper the page does not have.)
      const times = window as unknown as { balancesShownAt?: number; appBalancesShownAt?: number };
      new MutationObserver((_records, observer) => {
        const shown = [...document.querySelectorAll('[data-testid="balance-main"], #boot [data-boot-balance="main"]')].filter(
          (element) => element.checkVisibility(),
        );
        if (shown.length > 0) times.balancesShownAt ??= performance.now();
        if (shown.some((element) => element.matches('[data-testid="balance-main"]'))) {
          times.appBalancesShownAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true, attributes: true });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const bytesPerSecond = (WEAK_NETWORK.kbitPerSecond * 1000) / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: WEAK_NETWORK.latencyMs,
      downloadThroughput: bytesPerSecond,
      uploadThroughput: bytesPerSecond,
    });
    const requests = new Map<string, { url: string; bytes: number }>();
    cdp.on('Network.requestWillBeSent', (event) => {
      // Data and blob URLs (the QR code's object URL) are read in the page, not fetched.
      if (!/^(data|blob):/.test(event.request.url)) requests.set(event.requestId, { url: event.request.url, bytes: 0 });
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = requests.get(event.requestId);
      if (request) request.bytes = event.encodedDataLength;
    });
    // Streams (the live events) never finish: what they received so far counts.
    cdp.on('Network.dataReceived', (event) => {
      const request = requests.get(event.requestId);
      if (request) request.bytes += event.encodedDataLength;
    });
    await page.goto(`${baseUrl}/#/overview`, { waitUntil: 'commit' });
    await page.waitForFunction(() => 'appBalancesShownAt' in window, undefined, { timeout: 120_000, polling: 100 });
    // What the page loads right after the balances (deferred work) is part of the cold load too: until no request has
    // started for 3 s (not the load state `networkidle`, which the live events' open stream never reaches), at most
    // 30 s, before the figures' one-minute refresh.
    const quietSince = { count: requests.size, at: Date.now() };
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && Date.now() - quietSince.at < 3_000;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (requests.size !== quietSince.count) Object.assign(quietSince, { count: requests.size, at: Date.now() });
    }
    const times = await page.evaluate(() => ({
      firstByteMs:
        (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseStart ?? Number.NaN,
      firstPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      balancesMs: (window as unknown as { balancesShownAt: number }).balancesShownAt,
      appBalancesMs: (window as unknown as { appBalancesShownAt: number }).appBalancesShownAt,
    }));
    const list = [...requests.values()];
    return {
      firstByteMs: Math.round(times.firstByteMs),
      firstPaintMs: Math.round(times.firstPaintMs),
      // A figure in the document before the first paint is seen with that paint.
      balancesMs: Math.round(Math.max(times.balancesMs, times.firstPaintMs)),
      appBalancesMs: Math.round(times.appBalancesMs),
      requests: list,
      transferredBytes: list.reduce((total, request) => total + request.bytes, 0),
    };
  } finally {
    await browser.close();
  }
}

function printColdLoad(figures: ColdLoadFigures) {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `Signed-in overview /#/overview, cold (cache disabled, new context) at ${WEAK_NETWORK.kbitPerSecond} kbit/s and ${WEAK_NETWORK.latencyMs} ms, 360 px`,
  );
  console.log(`  first byte     ${seconds(figures.firstByteMs).padStart(8)}   (the document's, from the server)`);
  console.log(
    `  first paint    ${seconds(figures.firstPaintMs).padStart(8)}   target ≤ 2 s: ${verdict(figures.firstPaintMs <= 2_000)}`,
  );
  console.log(
    `  balances shown ${seconds(figures.balancesMs).padStart(8)}   target ≤ 4 s: ${verdict(figures.balancesMs <= 4_000)}`,
  );
  console.log(`  by the app     ${seconds(figures.appBalancesMs).padStart(8)}   (its script downloaded and run: the page works)`);
  console.log(
    `  requests       ${String(figures.requests.length).padStart(8)}     target ≤ 25: ${verdict(figures.requests.length <= 25)}`,
  );
  console.log(`  transferred    ${`${(figures.transferredBytes / 1024).toFixed(1)} KB`.padStart(8)}`);
  console.log('  each request (bytes on the wire):');
  for (const request of figures.requests)
    console.log(`    ${`${(request.bytes / 1024).toFixed(1)} KB`.padStart(9)}  ${request.url.replace(/^https?:\/\/[^/]+/, '')}`);
  console.log('');
}

/** A figure against its target: printed, never failing the run (benchmarks print, they do not assert). */
function verdict(met: boolean): string {
  return met ? 'met' : 'NOT MET';
}

function printLighthouse(
  title: string,
  series: LighthouseSeries,
  targets: { performance: number; accessibility?: number; lcpMs: number },
) {
  const figures = series.median;
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  const measured = series.runs.filter((run) => !run.failure).length;
  console.log(
    `${title}, Lighthouse mobile profile, median of ${measured} run${measured === 1 ? '' : 's'}${measured < series.runs.length ? ` (of ${series.runs.length})` : ''}`,
  );
  console.log(
    `  performance    ${String(figures.performance).padStart(5)}   target ≥ ${targets.performance}: ${verdict(figures.performance >= targets.performance)}`,
  );
  const a11y =
    targets.accessibility === undefined
      ? ''
      : `   target ${targets.accessibility}: ${verdict(figures.accessibility >= targets.accessibility)}`;
  console.log(`  accessibility  ${String(figures.accessibility).padStart(5)}${a11y}`);
  console.log(
    `  LCP          ${seconds(figures.lcpMs).padStart(5)} s   target ≤ ${(targets.lcpMs / 1000).toFixed(1)} s: ${verdict(figures.lcpMs <= targets.lcpMs)}`,
  );
  console.log(
    `  (FCP ${seconds(figures.fcpMs)} s, total blocking time ${figures.totalBlockingMs} ms, CLS ${figures.layoutShift.toFixed(3)})`,
  );
  console.log('  each run:');
  series.runs.forEach((run, index) => {
    if (run.failure) return console.log(`    ${index + 1}. measured nothing: ${run.failure}`);
    const phases = run.lcpPhases.map(({ phase, ms }) => `${phase} ${ms} ms`).join(', ');
    console.log(
      `    ${index + 1}. LCP ${seconds(run.lcpMs)} s, FCP ${seconds(run.fcpMs)} s, performance ${run.performance}, TBT ${run.totalBlockingMs} ms${phases ? ` (${phases})` : ''}`,
    );
  });
  // The element is the same on every run of an unchanged page; a run that differs is worth seeing.
  const elements = [...new Set(series.runs.filter((run) => !run.failure).map((run) => run.lcpElement))];
  const runsOf = (element: string) =>
    series.runs.flatMap((run, i) => (!run.failure && run.lcpElement === element ? [i + 1] : []));
  for (const element of elements)
    console.log(`  LCP element${elements.length > 1 ? ` (run ${runsOf(element).join(', ')})` : ''}: ${element}`);
  console.log('');
}

async function main() {
  const server = await startWebServer();
  try {
    // `npm run bench:web -- overview`: this measurement alone (the Lighthouse runs take minutes of CPU).
    if (process.argv.includes('overview')) return printColdLoad(await measureOverviewColdLoad(server.baseUrl));
    const payment = await measurePaymentPageWeight(server.baseUrl);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    const name = (path: string) => path.replace(new RegExp(`/payment/${UUID_PATTERN}$`), '/payment/{cardId}');
    const line = (file: PageFile) =>
      console.log(`  ${kb(file.gzipBytes).padStart(9)}  ${name(file.path)}  (${kb(file.bytes)} raw)`);
    console.log('Guest payment page /payment/{cardId}, gzipped');
    console.log(
      '  needed before its form works (the server-rendered document with its CSS and data; the form posts without a script):',
    );
    for (const file of payment.files.filter((f) => payment.critical.includes(f.path))) line(file);
    console.log(
      `  ${kb(payment.criticalGzipBytes).padStart(9)}  total before the form works: target ≤ 30 KB: ${verdict(payment.criticalGzipBytes <= 30 * 1024)}`,
    );
    console.log('  loaded after the first paint (the script that enhances the form: fee preview, wallets, idempotent retry):');
    for (const file of payment.files.filter((f) => !payment.critical.includes(f.path))) line(file);
    const afterPaint = payment.totalGzipBytes - payment.criticalGzipBytes;
    console.log('  and what the script loads when it starts, in the language the page is served in (its texts):');
    const startedIn = (locale: Locale) => payment.started[locale].reduce((total, file) => total + file.gzipBytes, 0);
    for (const locale of LOCALES) {
      const files = payment.started[locale].map((file) => `${file.path} ${kb(file.gzipBytes)}`).join(', ') || 'nothing';
      console.log(`    ${locale}: ${files}: ${kb(afterPaint + startedIn(locale))} after the first paint`);
    }
    const heaviest = afterPaint + Math.max(...LOCALES.map(startedIn));
    console.log(
      `  ${kb(heaviest).padStart(9)}  total script after the first paint, heaviest language: target ≤ 40 KB: ${verdict(heaviest <= 40 * 1024)}; ${kb(payment.criticalGzipBytes + heaviest)} in all`,
    );
    const started = new Set(LOCALES.flatMap((locale) => payment.started[locale].map((file) => file.path)));
    const lazy = payment.lazy.filter((path) => !started.has(path));
    if (lazy.length > 0) console.log(`  (loaded only when needed, not counted: ${lazy.join(', ')})`);
    console.log('');

    printLighthouse('Guest payment page', await measureLighthouseRuns(`${server.baseUrl}/payment/${payment.cardId}`), {
      performance: 98,
      accessibility: 100,
      lcpMs: 1_200,
    });
    // The landing's script starts after the first paint; what it evaluates then is its total blocking time.
    const landing = await measurePageWeight(server.baseUrl, '/');
    console.log('Landing page /, gzipped');
    for (const file of landing.files.filter((f) => landing.critical.includes(f.path))) line(file);
    const scripts = landing.files.filter((f) => f.path.endsWith('.js'));
    const script = scripts.reduce((total, f) => ({ gzipBytes: total.gzipBytes + f.gzipBytes, bytes: total.bytes + f.bytes }), {
      gzipBytes: 0,
      bytes: 0,
    });
    console.log(
      `  ${kb(script.gzipBytes).padStart(9)}  script evaluated after the first paint: the landing's own script and its ${scripts.length - 1} static imports (${kb(script.bytes)} raw)`,
    );
    // Decision 0065: the app's entry loads only when the visitor goes into the app.
    if (landing.lazy.length > 0)
      console.log(`  (loaded when the visitor goes into the app, not counted: ${landing.lazy.join(', ')})`);
    console.log('');
    printLighthouse('Landing page', await measureLighthouseRuns(`${server.baseUrl}/`), { performance: 97, lcpMs: 1_500 });
    printColdLoad(await measureOverviewColdLoad(server.baseUrl));
  } finally {
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
