import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@tipcard/shared/constants';
import LandingPage from './features/landing/landing-page.tsx';
import { LandingLayout } from './app/layouts/landing-layout.tsx';
import { createQueryClient, Providers } from './app/providers.tsx';
import { CookieBanner } from './features/cookies/cookie-consent.tsx';
import { i18n, loadLocale } from './lib/i18n.ts';

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
