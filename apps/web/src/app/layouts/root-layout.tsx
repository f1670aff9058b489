import { useEffect, useLayoutEffect, useMemo } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LoadingModal } from '../../components/ui/loading-modal.tsx';
import { Snackbar } from '../../components/ui/snackbar.tsx';
import { useStore } from '../../lib/use-store.ts';
import { useLocaleCatalogs } from '../../lib/i18n.ts';
import { localeFromPath, localizePath, preferredLocale } from '../../lib/locale.ts';
import { PSEUDO_LANGUAGE } from '@tipcard/shared/constants';
import { pseudoLocaleActive } from '../../lib/pseudo-locale.ts';
import { clearFatalError, closeAllModals, uiStore } from '../../lib/ui-store.ts';
import { CookieConsent } from '../../features/cookies/cookie-consent.tsx';
import { VerificationModal } from '../../features/verification/verification-modal.tsx';
import { ErrorPage } from '../error-page.tsx';
import { PublicLayoutFrame } from './public-layout.tsx';

/**
 * The root of every route: the URL prefix decides the language (otherwise the stored choice or the browser's),
 * <html lang> follows, modals close and the error page clears on route change.
 */
export function RootLayout() {
  const location = useLocation();
  const { i18n } = useTranslation();
  const urlLocale = localeFromPath(location.pathname);
  const preferred = useMemo(() => preferredLocale(), []);
  const locale = urlLocale ?? 'en';
  useLocaleCatalogs(locale);
  // The pseudo-locale, when it is on, stands for English (the unprefixed routes); a prefix still decides.
  const language = !urlLocale && pseudoLocaleActive() ? PSEUDO_LANGUAGE : locale;
  const fatalError = useStore(uiStore, (state) => state.fatalError);

  useLayoutEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
    document.documentElement.lang = locale;
  }, [i18n, language, locale]);

  useEffect(() => {
    closeAllModals();
    clearFatalError();
  }, [location.pathname]);

  if (!urlLocale && preferred !== 'en') {
    return <Navigate replace to={`${localizePath(location.pathname, preferred)}${location.search}`} />;
  }

  return (
    <>
      {fatalError !== null ? (
        <PublicLayoutFrame>
          <ErrorPage status={fatalError} />
        </PublicLayoutFrame>
      ) : (
        <Outlet />
      )}
      <VerificationModal />
      <CookieConsent />
      <LoadingModal />
      <Snackbar />
    </>
  );
}
