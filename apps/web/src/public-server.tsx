import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@tipcard/shared/constants';
import { TipApp, type TipShellData } from './features/tips/tip-app.tsx';
import { parseTipRoute } from './features/tips/tip-route.ts';
import { VenueApp, type VenueShellData } from './features/venues/venue-page.tsx';
import { guestI18n } from './lib/guest-i18n.ts';
import LandingPage from './features/landing/landing-page.tsx';
import { LandingLayout } from './app/layouts/landing-layout.tsx';
import { createQueryClient, Providers } from './app/providers.tsx';
import { CookieBanner } from './features/cookies/cookie-consent.tsx';
import { i18n, loadLocale } from './lib/i18n.ts';

export type { TipShellData, VenueShellData };

/**
 * The server's half of the guest's payment pages (built by `vite build --ssr` into dist-server/, imported by
 * apps/api payment-pages.ts): the same components as the browser's entry, rendered to HTML from the data the page
 * then inlines for hydration. renderToString is synchronous, so switching the page's one i18n instance to the
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

/**
 * The landing page (`/`, `/lv`, …) rendered on the server from the app's own components, so that its hero paints
 * with the first response instead of after the app's scripts (bench:web, LCP). The app entry then renders over it
 * (createRoot replaces the markup with the same markup): no hydration, so a signed-in visitor's redirect to the
 * overview stays the app's. With `cookieBanner` (the visitor has not chosen yet: no consent_chosen cookie) the cookie
 * banner is drawn too, where the app draws it, so that it paints at once and the app's takes its place without a shift
 * (decision 0052). Async only to load a language's catalogs once; the language switch and the render that follows are
 * synchronous, so concurrent requests cannot see each other's language.
 */
export async function renderLandingPage(
  locale: Locale,
  { cookieBanner = false }: { cookieBanner?: boolean } = {},
): Promise<string> {
  const language = LOCALES.includes(locale) ? locale : DEFAULT_LOCALE;
  await loadLocale(language);
  void i18n.changeLanguage(language);
  const path = language === DEFAULT_LOCALE ? '/' : `/${language}`;
  return renderToString(
    <StrictMode>
      <Providers queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={language === DEFAULT_LOCALE ? '/' : `/${language}`} element={<LandingLayout />}>
              <Route index element={<LandingPage />} />
            </Route>
          </Routes>
          {cookieBanner ? <CookieBanner /> : null}
        </MemoryRouter>
      </Providers>
    </StrictMode>,
  );
}
