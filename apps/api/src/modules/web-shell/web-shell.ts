import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
}

export const SHELL_DATA_ELEMENT_ID = 'tipcard-data';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** JSON that cannot close its script element or open a comment, whatever strings it carries. */
const inlineJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const localizedPath = (path: string, locale: Locale) =>
  locale === DEFAULT_LOCALE ? path : path === '/' ? `/${locale}` : `/${locale}${path}`;

/** The built HTML with the page's language, title, description, canonical, hreflang, Open Graph tags and data. */
export function renderShell(template: string, publicUrl: string, page: ShellPage): string {
  const url = `${publicUrl}${page.localized ? localizedPath(page.path, page.locale) : page.path}`;
  const head = [
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    ...(page.localized
      ? [
          ...LOCALES.map((locale) => `<link rel="alternate" hreflang="${locale}" href="${escapeHtml(publicUrl + localizedPath(page.path, locale))}" />`),
          `<link rel="alternate" hreflang="x-default" href="${escapeHtml(publicUrl + page.path)}" />`,
        ]
      : []),
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="Tipcard" />`,
    `<meta property="og:title" content="${escapeHtml(page.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    `<meta property="og:locale" content="${page.locale}" />`,
    ...(page.data === undefined ? [] : [`<script type="application/json" id="${SHELL_DATA_ELEMENT_ID}">${inlineJson(page.data)}</script>`]),
  ].join('\n    ');
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${page.locale}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*"\s*\/?>/, `<meta name="description" content="${escapeHtml(page.description)}" />`)
    .replace('</head>', `    ${head}\n  </head>`);
}

/**
 * Answers a page path (`/about`, `/lv/faq`, `/payment/{id}`) with the built app and the page's head inlined; the app
 * then continues on the hash route. Without a built app there is nothing to serve: 404.
 */
export async function sendShell(reply: FastifyReply, page: ShellPage) {
  const { webDist, publicUrl } = reply.server.config;
  let template: string;
  try {
    template = await readFile(join(webDist, page.entry ?? 'index.html'), 'utf8');
  } catch {
    return reply.callNotFound();
  }
  return reply
    .status(page.status ?? 200)
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(renderShell(template, publicUrl, page));
}
