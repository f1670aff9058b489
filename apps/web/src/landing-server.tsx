import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { useTranslation } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@tipcard/shared/constants';
import LandingPage from './features/landing/landing-page.tsx';
import { LandingLayout, SiteMenu } from './app/layouts/landing-layout.tsx';
import { createQueryClient, Providers } from './app/providers.tsx';
import { LanguageMenu } from './components/ui/language-switcher.tsx';
import { Snackbar, SnackbarMessage } from './components/ui/snackbar.tsx';
import { CookieBanner, CookieSettingsDialog } from './features/cookies/cookie-consent.tsx';
import { i18n, loadLocale } from './lib/i18n.ts';

const nothing = () => undefined;

/**
 * What the landing page's script (landing-island.ts) opens, drawn here by the app's own components in the page's
 * language, inert in <template>s until it does: the phone menu open, the language list, the cookie settings and their
 * confirmation.
 */
function IslandParts() {
  const { t } = useTranslation('cookies');
  return (
    <>
      <template data-landing-part="site-menu">
        <SiteMenu open onClose={nothing} path="/" />
      </template>
      <template data-landing-part="languages">
        <LanguageMenu />
      </template>
      <template data-landing-part="cookie-settings">
        <CookieSettingsDialog open />
      </template>
      <template data-landing-part="cookie-saved">
        <SnackbarMessage message={t('settings.saved')} color="success" />
      </template>
    </>
  );
}

/**
 * The landing page (`/`, `/lv`, …) rendered on the server from the app's own components, so that its hero paints
 * with the first response instead of after the app's scripts (bench:web, LCP). After the paint only the landing's own
 * script starts (landing-island.ts, decision 0065), which makes the banner and the menus below work; the app entry
 * renders over the markup when the visitor goes into the app (createRoot replaces the markup with the same markup: no
 * hydration, so a signed-in visitor's redirect to the overview stays the app's). With `cookieBanner` (the visitor has
 * not chosen yet: no consent_chosen cookie) the cookie banner is drawn too, where the app draws it, so that it paints
 * at once and the app's takes its place without a shift (decision 0052); the snackbar's live region is drawn empty
 * where the app has it, so that the script's confirmation is announced. Async only to load a language's catalogs once;
 * the language switch and the render that follows are synchronous, so concurrent requests cannot see each other's
 * language.
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
          <Snackbar />
          <IslandParts />
        </MemoryRouter>
      </Providers>
    </StrictMode>,
  );
}
