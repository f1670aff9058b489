import type { Locale } from '../constants.ts';

/** The public site's pages (spec 2 "Public and marketing"), each under every locale prefix. */
export const SITE_PAGES = [
  '/',
  '/how-it-works',
  '/about',
  '/faq',
  '/contacts',
  '/affiliate-program',
  '/terms',
  '/privacy',
  '/cookies',
] as const;
export type SitePage = (typeof SITE_PAGES)[number];

/** The printable documents: the tariff in every language, the print-for-agents sheet in English and Latvian. */
export const AGENT_SHEET_LOCALES = ['en', 'lv'] as const satisfies readonly Locale[];
export const tariffPdfPath = (locale: Locale) => `/docs/tariff-${locale}.pdf`;
export const agentsPdfPath = (locale: (typeof AGENT_SHEET_LOCALES)[number]) => `/docs/agents-${locale}.pdf`;
