import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@tipcard/shared/constants';
import { TipApp, type TipShellData } from './features/tips/tip-app.tsx';
import { parseTipRoute } from './features/tips/tip-route.ts';
import { VenueApp, type VenueShellData } from './features/venues/venue-page.tsx';
import { guestI18n, loadGuestLocale } from './lib/guest-i18n.ts';

export type { TipShellData, VenueShellData };

// Every language's texts before the first render: a request's render is synchronous.
await Promise.all(LOCALES.map(loadGuestLocale));

/**
 * The server's half of the guest's payment pages (built on Preact by `vite build -c vite.public.config.ts --ssr` into
 * dist-server/, imported by apps/api payment-pages.ts; decision 0064): the same components as the browser's entry,
 * rendered to HTML from the data the page then inlines for hydration. renderToString is synchronous, so switching the page's one i18n instance to the
 * request's language just before it cannot leak into another request (docs/decisions/0030-guest-page-ssr.md).
 */
export function renderPaymentPage(url: { pathname: string; search: string }, data: TipShellData, locale: Locale): string {
  void guestI18n.changeLanguage(LOCALES.includes(locale) ? locale : DEFAULT_LOCALE);
  const route = parseTipRoute(url.pathname, url.search);
  return renderToString(
    <StrictMode>
      <TipApp shell={data} route={route} />
    </StrictMode>,
  );
}

/** The venue page (apps/api teams/venue-page.routes.ts), rendered the same way as the payment pages. */
export function renderVenuePage(data: VenueShellData, locale: Locale): string {
  void guestI18n.changeLanguage(LOCALES.includes(locale) ? locale : DEFAULT_LOCALE);
  return renderToString(
    <StrictMode>
      <VenueApp shell={data} />
    </StrictMode>,
  );
}
