import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyReply } from 'fastify';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@tipcard/shared/constants';

/** What the server knows about a page before the app runs: its head tags and, for guest pages, its public data. */
export interface ShellPage {
  /** The HTML file of the built web app to serve: index.html, or a lighter entry for guest pages. */
  entry?: string;
  locale: Locale;
  title: string;
  description: string;
  /** The page's path without a locale prefix (`/about`); gives the canonical link and the hreflang alternates. */
  path: string;
  /** Whether the page exists in every locale under the prefixes (marketing pages do; a card's page does not). */
  localized?: boolean;
  /** Inlined as `<script type="application/json" id="tipcard-data">`, so the first paint needs no extra request. */
  data?: unknown;
  status?: number;
  /**
   * The page's markup rendered on the server (the guest's payment pages): it goes into `#root`, and the entry's
   * stylesheets are inlined so that the first paint needs this one response (docs/decisions/0030-guest-page-ssr.md).
   */
  html?: string;
  /**
   * With `html` that is complete before any script (the landing page; the guest's pages, whose form posts without
   * one): the entry's scripts start after the first paint (`bootAfterPaint`), so that evaluating them does not hold
   * the first frame.
   */
  bootAfterPaint?: boolean;
  /**
   * With `bootAfterPaint`, the landing page: what starts after the paint is its own small script (apps/web
   * src/landing-island.ts), which loads the app's entry only when the visitor goes into the app (decision 0065).
   */
  landingIsland?: boolean;
  /** Reloads the page after this many seconds when scripts are off (a page that waits for something). */
  noscriptRefreshSeconds?: number;
  /**
   * For a signed-in visitor (the app opens on the overview): the skeleton is the signed-in layout's, the signed-in
   * start's files are preloaded beside the entry, and the stylesheet does not hold the skeleton's first paint
   * (`signedInShell`, decision 0056).
   */
  signedIn?: boolean;
  /**
   * With `signedIn`, when the server read the visitor's overview (a valid access token, decision 0063): its balances
   * drawn into the skeleton's tiles, so that they paint with the document. The page's `data` carries the answers.
   */
  firstView?: SkeletonFigures;
}

/** A balance tile's texts as the overview draws them: its label, the amount formatted, its hint. */
export interface SkeletonTile {
  label: string;
  amount: string;
  hint: string;
}

/** What the signed-in skeleton draws of the visitor's overview, in the language the app will start in. */
export interface SkeletonFigures {
  locale: Locale;
  main: SkeletonTile;
  hold: SkeletonTile;
  /** Nothing received yet: the overview puts the QR card first, and the skeleton its block above the tiles. */
  firstCard: boolean;
}

export const SHELL_DATA_ELEMENT_ID = 'tipcard-data';

/** Text safe inside HTML content and attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** JSON that cannot close its script element or open a comment, whatever strings it carries. */
const inlineJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** Open Graph's locales are language_TERRITORY: the country each of our languages is written for. */
export const OG_LOCALES: Record<Locale, string> = { en: 'en_GB', lv: 'lv_LV', fr: 'fr_FR', es: 'es_ES' };

const localizedPath = (path: string, locale: Locale) =>
  locale === DEFAULT_LOCALE ? path : path === '/' ? `/${locale}` : `/${locale}${path}`;

/** The built HTML with the page's language, title, description, canonical, hreflang, Open Graph tags and data. */
export function renderShell(template: string, publicUrl: string, page: ShellPage): string {
  const url = `${publicUrl}${page.localized ? localizedPath(page.path, page.locale) : page.path}`;
  const head = [
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    ...(page.localized
      ? [
          ...LOCALES.map(
            (locale) =>
              `<link rel="alternate" hreflang="${locale}" href="${escapeHtml(publicUrl + localizedPath(page.path, locale))}" />`,
          ),
          `<link rel="alternate" hreflang="x-default" href="${escapeHtml(publicUrl + page.path)}" />`,
        ]
      : []),
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="Tipcard" />`,
    `<meta property="og:title" content="${escapeHtml(page.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    `<meta property="og:locale" content="${OG_LOCALES[page.locale]}" />`,
    // A page that exists in every language names the others, so a preview can be shown in the reader's.
    ...(page.localized
      ? LOCALES.filter((locale) => locale !== page.locale).map(
          (locale) => `<meta property="og:locale:alternate" content="${OG_LOCALES[locale]}" />`,
        )
      : []),
    ...(page.noscriptRefreshSeconds
      ? [`<noscript><meta http-equiv="refresh" content="${page.noscriptRefreshSeconds}" /></noscript>`]
      : []),
    ...(page.data === undefined
      ? []
      : [`<script type="application/json" id="${SHELL_DATA_ELEMENT_ID}">${inlineJson(page.data)}</script>`]),
  ].join('\n    ');
  return (
    template
      .replace(/<html lang="[^"]*"/, `<html lang="${page.locale}"`)
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
      .replace(
        /<meta name="description" content="[^"]*"\s*\/?>/,
        () => `<meta name="description" content="${escapeHtml(page.description)}" />`,
      )
      // Function replacements: the inlined data and markup carry guests' text, where `$&` must stay literal.
      .replace('</head>', () => `    ${head}\n  </head>`)
      .replace('<div id="root"></div>', () =>
        page.html === undefined ? '<div id="root"></div>' : `<div id="root">${page.html}</div>`,
      )
  );
}

const STYLESHEET = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g;

/** The built entry's `<link rel="stylesheet">` tags replaced by the files' text, read from the built app. */
async function inlineStylesheets(html: string, webDist: string): Promise<string> {
  const styles = new Map<string, string>();
  for (const [, href] of html.matchAll(STYLESHEET)) styles.set(href!, await readFile(join(webDist, href!), 'utf8'));
  // A function replacement: the CSS may hold `$&`-like sequences that a string replacement would expand.
  return html.replace(
    STYLESHEET,
    (_tag, href: string) => `<style>${styles.get(href)!.replace(/<\/style/gi, '<\\/style')}</style>`,
  );
}

const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]*>/g;

/**
 * Starts the entry named in its `data-entry` after the first frame is painted, or the page's own script in its
 * `data-island` when it has one (the landing page's, which starts the entry when it is needed). Inline, so the first
 * paint needs no request but the document's (Lighthouse's LCP counts every request that ends before it); the CSP
 * allows exactly this text by its hash (`BOOT_SCRIPT_CSP_HASH`). A hash route opened on a server-rendered page
 * (`/#/lv/faq` on `/`, old links) is another page than the one rendered: its markup goes and the app starts at once.
 */
const BOOT_SCRIPT = [
  '{',
  'const { entry, island } = document.currentScript.dataset;',
  "if (/^#\\/./.test(location.hash)) { document.getElementById('root').replaceChildren(); import(entry); }",
  'else requestAnimationFrame(() => setTimeout(() => import(island || entry)));',
  '}',
].join('\n');

/** The CSP source that allows the inline boot script and nothing else inline (plugins/security.ts). */
export const BOOT_SCRIPT_CSP_HASH = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;

/**
 * The built entry's module script replaced by the inline boot script at the end of the body, which imports the entry
 * (or the page's `island` script, `/assets/…`) after the first paint, and its module preloads dropped (fetched at once
 * they would be evaluated before that paint as well).
 */
export function bootAfterPaint(template: string, island?: string): string {
  let entry: string | undefined;
  const withoutEntry = template.replace(MODULE_PRELOAD, '').replace(ENTRY_SCRIPT, (_tag, src: string) => {
    entry = src;
    return '';
  });
  if (entry === undefined) return template;
  const islandAttribute = island === undefined ? '' : ` data-island="${escapeHtml(island)}"`;
  return withoutEntry.replace(
    '</body>',
    () => `  <script data-entry="${entry}"${islandAttribute}>${BOOT_SCRIPT}</script>\n  </body>`,
  );
}

/** The landing page's script's source in the web app (its key in the build's manifest) and the manifest's place. */
const LANDING_ISLAND_SOURCE = 'src/landing-island.ts';
const BUILD_MANIFEST_FILE = '.vite/manifest.json';

/** The built landing page's script (`/assets/landing-island-….js`), or undefined when the build has none. */
async function landingIsland(webDist: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(join(webDist, BUILD_MANIFEST_FILE), 'utf8')) as Record<
      string,
      { file?: unknown } | undefined
    >;
    const file = manifest[LANDING_ISLAND_SOURCE]?.file;
    return typeof file === 'string' && /^assets\/[\w.~-]+\.js$/.test(file) ? `/${file}` : undefined;
  } catch {
    return undefined;
  }
}

/** The files the signed-in layout and the overview need beyond the entry's, listed by the web app's build (vite-chunks.ts). */
export const SIGNED_IN_PRELOADS_FILE = '.vite/signed-in-preloads.json';

async function signedInPreloads(webDist: string): Promise<string[]> {
  try {
    const files: unknown = JSON.parse(await readFile(join(webDist, SIGNED_IN_PRELOADS_FILE), 'utf8'));
    return Array.isArray(files)
      ? files.filter((file): file is string => typeof file === 'string' && /^\/assets\/[\w.~-]+\.js$/.test(file))
      : [];
  } catch {
    return [];
  }
}

const STYLESHEET_TAG = /\s*<link rel="stylesheet"[^>]*>/g;

/**
 * Keeps the skeleton's figures only where the app will show them as drawn: on the overview (`/`, `/#/overview`) in the
 * language they were written in. The server cannot see the hash: a link to another page (`/#/transactions`), or one
 * whose prefix names another language than the server's guess (`/#/fr/overview` for a visitor whose cookie and browser
 * say English), gets the plain skeleton, the figures removed before the first paint (the script runs where it stands,
 * right after them). The CSP allows exactly this text by its hash (`FIRST_VIEW_SCRIPT_CSP_HASH`).
 */
const FIRST_VIEW_SCRIPT = [
  '{',
  "const boot = document.getElementById('boot');",
  "const hash = location.hash.replace(/^#/, '').split('?')[0];",
  'const prefixed = /^\\/(lv|fr|es)(\\/.*)?$/.exec(hash);',
  "const path = (prefixed ? prefixed[2] : hash) || '/';",
  "if ((prefixed ? prefixed[1] : boot.dataset.locale) !== boot.dataset.locale || (path !== '/' && path !== '/overview')) {",
  "  boot.classList.remove('boot-first-view');",
  "  for (const figures of boot.querySelectorAll('.boot-fill')) figures.remove();",
  '}',
  '}',
].join('\n');

/** The CSP source that allows the skeleton's figures script (plugins/security.ts). */
export const FIRST_VIEW_SCRIPT_CSP_HASH = `'sha256-${createHash('sha256').update(FIRST_VIEW_SCRIPT).digest('base64')}'`;

const PLAIN_TILES =
  '<span class="boot-block boot-tile boot-tile-main"></span>\n            <span class="boot-block boot-tile"></span>';

/** A tile with its figures; the plain block's classes stay, for when the script removes the figures. */
function filledTile(tile: SkeletonTile, balance: 'main' | 'hold'): string {
  return [
    `<span class="boot-block boot-tile${balance === 'main' ? ' boot-tile-main' : ''}">`,
    `<span class="boot-fill"><span class="boot-tile-head"><span class="boot-icon"></span>${escapeHtml(tile.label)}</span>`,
    `<span class="boot-amount" data-boot-balance="${balance}">${escapeHtml(tile.amount)}</span>`,
    `<span class="boot-hint">${escapeHtml(tile.hint)}</span>`,
    balance === 'main' ? '<span class="boot-button"></span>' : '',
    '</span></span>',
  ].join('');
}

/** The skeleton's tiles with the visitor's figures (and the QR card's block first for a new user), and their script. */
function withFigures(template: string, figures: SkeletonFigures): string {
  const tiles = `${filledTile(figures.main, 'main')}\n            ${filledTile(figures.hold, 'hold')}`;
  return template
    .replace(
      '<div id="boot" class="boot-app"',
      `<div id="boot" class="boot-app boot-first-view${figures.firstCard ? ' boot-first-card' : ''}" data-locale="${figures.locale}"`,
    )
    .replace(PLAIN_TILES, () => tiles)
    .replace('<!-- first-view -->', () => `<script>${FIRST_VIEW_SCRIPT}</script>`);
}

/**
 * The entry as a signed-in visitor's first response: its skeleton (`#boot`) drawn as the signed-in layout with the
 * overview's first blocks, the signed-in start's files preloaded with the entry's (one round of requests instead of
 * three: entry, session guard and layout, page), and the stylesheets moved after the skeleton, so that the skeleton,
 * styled inline, paints before they arrive (a stylesheet in the body holds only what follows it).
 */
export function signedInShell(template: string, preloads: string[], figures?: SkeletonFigures): string {
  const stylesheets: string[] = [];
  const withoutStylesheets = template.replace(STYLESHEET_TAG, (tag) => {
    stylesheets.push(tag.trim());
    return '';
  });
  const links = preloads.map((file) => `<link rel="modulepreload" crossorigin href="${escapeHtml(file)}">`);
  const shell = withoutStylesheets
    .replace('<div id="boot"', '<div id="boot" class="boot-app"')
    .replace('</head>', () => `${links.map((link) => `  ${link}\n`).join('')}  </head>`)
    .replace('</body>', () => `${stylesheets.map((tag) => `  ${tag}\n`).join('')}  </body>`);
  return figures ? withFigures(shell, figures) : shell;
}

/**
 * The page's HTML: the built entry with the page's head, data and markup (stylesheets inlined with markup); null
 * without a built app.
 */
export async function shellHtml(site: { webDist: string; publicUrl: string }, page: ShellPage): Promise<string | null> {
  let template: string;
  try {
    template = await readFile(join(site.webDist, page.entry ?? 'index.html'), 'utf8');
  } catch {
    return null;
  }
  if (page.signedIn) template = signedInShell(template, await signedInPreloads(site.webDist), page.firstView);
  const island = page.bootAfterPaint && page.landingIsland ? await landingIsland(site.webDist) : undefined;
  const html = renderShell(page.bootAfterPaint ? bootAfterPaint(template, island) : template, site.publicUrl, page);
  return page.html === undefined ? html : inlineStylesheets(html, site.webDist);
}

/**
 * Answers a page path (`/about`, `/lv/faq`, `/payment/{id}`) with the built app and the page's head inlined; the app
 * then continues on the hash route. Without a built app there is nothing to serve: 404.
 */
export async function sendShell(reply: FastifyReply, page: ShellPage) {
  const html = await shellHtml(reply.server.config, page);
  if (html === null) return reply.callNotFound();
  return (
    reply
      .status(page.status ?? 200)
      // A page with a user's figures is theirs alone: kept by no cache, not even the browser's (decision 0063).
      .header('cache-control', page.firstView ? 'private, no-store' : 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html)
  );
}

/** The guest payment pages' server renderer (apps/web src/public-server.tsx, built): markup for a URL and its data. */
export type PaymentPageRenderer = (url: { pathname: string; search: string }, data: unknown, locale: Locale) => string;

/** The venue page's server renderer (same built module): its markup from the venue (null: the unknown-link page). */
export type VenuePageRenderer = (data: unknown, locale: Locale) => string;

/**
 * The landing page's server renderer (apps/web src/landing-server.tsx, built apart: it renders with React, the guest
 * pages' with Preact, decision 0064): the home page's markup in a language, with the cookie
 * banner when the visitor has not made their choice yet (decision 0052).
 */
export type LandingPageRenderer = (locale: Locale, options: { cookieBanner: boolean }) => Promise<string>;

interface ServerEntry {
  renderPaymentPage?: PaymentPageRenderer;
  renderVenuePage?: VenuePageRenderer;
  renderLandingPage?: LandingPageRenderer;
}

const serverEntries = new Map<string, Promise<ServerEntry>>();

/** A built server entry, imported once per process; empty when the web app was built without it (the browser renders). */
function serverEntry(entry: string): Promise<ServerEntry> {
  let loaded = serverEntries.get(entry);
  if (!loaded) {
    loaded = import(pathToFileURL(entry).href).then(
      (module: ServerEntry) => module,
      () => ({}),
    );
    serverEntries.set(entry, loaded);
  }
  return loaded;
}

export async function paymentPageRenderer(entry: string): Promise<PaymentPageRenderer | null> {
  return (await serverEntry(entry)).renderPaymentPage ?? null;
}

export async function venuePageRenderer(entry: string): Promise<VenuePageRenderer | null> {
  return (await serverEntry(entry)).renderVenuePage ?? null;
}

export async function landingPageRenderer(entry: string): Promise<LandingPageRenderer | null> {
  return (await serverEntry(entry)).renderLandingPage ?? null;
}
