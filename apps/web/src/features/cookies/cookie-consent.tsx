import { useEffect, useLayoutEffect, useRef } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Cookie } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { useStore } from '../../lib/use-store.ts';
import { consentStore, saveConsent } from '../../lib/consent.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { closeModal, openModal, showSnackbar, uiStore } from '../../lib/ui-store.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { countAdVisitIfAllowed, countPageView, keepAdvertIfAllowed } from './analytics.ts';
import { reserveRoomBelowPage } from './banner-room.ts';

/** A switch row of the settings modal. */
function Choice({
  id,
  label,
  text,
  registration,
}: {
  id: string;
  label: string;
  text: string;
  registration: UseFormRegisterReturn;
}) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200/70">
      <div>
        <label htmlFor={id} className="font-semibold text-primary-950">
          {label}
        </label>
        <p id={`${id}-text`} className="mt-1 text-sm text-slate-600">
          {text}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-describedby={`${id}-text`}
        className="mt-1 size-5 shrink-0 cursor-pointer accent-primary-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 focus-visible:ring-offset-2"
        {...registration}
      />
    </div>
  );
}

function CookieSettings() {
  const open = useStore(uiStore, (state) => state.modals.cookie);
  // A new key per opening: the switches start from what is stored at that moment.
  return <CookieSettingsDialog key={String(open)} open={open} />;
}

type Choices = Parameters<typeof saveConsent>[0];

/** The choices; the landing page's server render draws it open for its script too (decision 0065). */
export function CookieSettingsDialog({ open }: { open: boolean }) {
  const { t } = useTranslation('cookies');
  const to = useLocalePath();
  const { register, getValues } = useForm<Choices>({
    // Nothing is ticked before the visitor chooses (GDPR: consent is an act, not a default).
    defaultValues: { functional: consentStore.get().functional ?? false, analytics: consentStore.get().analytics },
  });

  const done = (choice: Choices) => {
    saveConsent(choice);
    closeModal('cookie');
    showSnackbar(t('settings.saved'), 'success');
  };

  return (
    <Dialog
      open={open}
      onClose={() => closeModal('cookie')}
      title={t('settings.title')}
      footer={
        <>
          <Button variant="secondary" onClick={() => done({ functional: false, analytics: false })} data-consent="reject">
            {t('settings.reject_all')}
          </Button>
          <Button onClick={() => done(getValues())} data-consent="save">
            {t('settings.save')}
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-600">{t('settings.intro')}</p>
      <div className="mt-4 space-y-3">
        <Choice
          id="cookie-functional"
          label={t('settings.functional')}
          text={t('settings.functional_text')}
          registration={register('functional')}
        />
        <Choice
          id="cookie-analytics"
          label={t('settings.analytics')}
          text={t('settings.analytics_text')}
          registration={register('analytics')}
        />
      </div>
      <p className="mt-4 text-xs text-slate-500">{t('settings.reject_hint')}</p>
      <Link
        to={to('/cookies')}
        onClick={() => closeModal('cookie')}
        className="mt-2 inline-block text-sm font-semibold text-primary-800 underline underline-offset-4"
      >
        {t('settings.policy')}
      </Link>
    </Dialog>
  );
}

/**
 * The banner: part of the landing page's server markup as well (landing-server.tsx, decision 0052), so its text is the
 * page's largest paint with the first response; the landing's own script works its buttons (decision 0065), and the
 * app, once it loads, draws the same markup in its place.
 */
export function CookieBanner() {
  const { t } = useTranslation('cookies');
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const banner = ref.current;
    if (!banner) return;
    const stop = reserveRoomBelowPage(banner);
    return () => {
      stop();
      document.body.style.paddingBottom = '';
    };
  }, []);
  return (
    <section ref={ref} aria-label={t('banner.label')} data-cookie-banner="" className="fixed inset-x-0 bottom-0 z-50 p-3 sm:p-4">
      <div className="mx-auto flex max-w-3xl flex-col gap-4 rounded-2xl bg-white p-4 shadow-2xl ring-1 ring-slate-200 sm:flex-row sm:items-center sm:p-5">
        <Cookie className="hidden size-8 shrink-0 text-primary-700 sm:block" aria-hidden="true" />
        <p className="flex-1 text-sm leading-relaxed text-slate-700">{t('banner.text')}</p>
        {/* Reject and Accept side by side, alike in size and weight: refusing is as easy as agreeing. */}
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => openModal('cookie')}
            data-consent="settings"
            className="order-last basis-full sm:order-none sm:basis-auto"
          >
            {t('banner.read_more')}
          </Button>
          {/* Two equal columns: the wider word sets both widths. */}
          <div className="grid flex-1 grid-cols-2 gap-2 sm:flex-none">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => saveConsent({ functional: false, analytics: false })}
              data-consent="reject"
            >
              {t('banner.reject')}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => saveConsent({ functional: true, analytics: true })}
              data-consent="accept"
            >
              {t('banner.accept')}
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}

/**
 * Cookie consent (spec 4): the banner until a choice exists, the settings modal, and what consent allows: a page
 * view per route, and the ad-visit event for a visit that came with `?advert=`.
 */
export function CookieConsent() {
  const location = useLocation();
  const consent = useStore(consentStore, (state) => state);

  useEffect(() => keepAdvertIfAllowed(), [consent.functional]);

  useEffect(() => countAdVisitIfAllowed(location.pathname, currentLocale()), [consent.analytics, location.pathname]);

  useEffect(() => {
    if (consent.analytics) countPageView(location.pathname, currentLocale());
  }, [consent.analytics, location.pathname]);

  return (
    <>
      {consent.functional === null ? <CookieBanner /> : null}
      <CookieSettings />
    </>
  );
}
