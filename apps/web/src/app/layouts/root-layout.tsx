import { useEffect, useLayoutEffect, useMemo } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ShieldAlert } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { LoadingModal } from '../../components/ui/loading-modal.tsx';
import { Snackbar } from '../../components/ui/snackbar.tsx';
import { useStore } from '../../lib/create-store.ts';
import { useLocaleCatalogs } from '../../lib/i18n.ts';
import { localeFromPath, localizePath, preferredLocale } from '../../lib/locale.ts';
import { clearFatalError, closeAllModals, closeModal, uiStore } from '../../lib/ui-store.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { CookieConsent } from '../../features/cookies/cookie-consent.tsx';
import { ErrorPage } from '../error-page.tsx';
import { PublicLayoutFrame } from './public-layout.tsx';

/** Verification modal (spec 2), opened by any 451 answer. */
function VerificationModal() {
  const { t } = useTranslation();
  const open = useStore(uiStore, (state) => state.modals.verification);
  const navigate = useNavigate();
  const to = useLocalePath();
  return (
    <Dialog
      open={open}
      onClose={() => closeModal('verification')}
      title={t('verification.title')}
      footer={
        <Button
          onClick={() => {
            closeModal('verification');
            void navigate(to('/verification'));
          }}
        >
          {t('verification.action')}
        </Button>
      }
    >
      <div className="flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-amber-50 text-amber-600">
          <ShieldAlert className="size-5" aria-hidden="true" />
        </span>
        <p className="pt-2 text-slate-700">{t('verification.text')}</p>
      </div>
    </Dialog>
  );
}

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
  const fatalError = useStore(uiStore, (state) => state.fatalError);

  useLayoutEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
    document.documentElement.lang = locale;
  }, [i18n, locale]);

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
