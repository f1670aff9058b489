import { useEffect } from 'react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, PSEUDO_LANGUAGE } from '@tipcard/shared/constants';
import { HumanCheck } from '../ui/human-check.tsx';
import { guestI18n, guestResources } from '../../lib/guest-i18n.ts';
import { typography } from '../../lib/typography.ts';

/**
 * The shared anti-bot widget reads its texts through react-i18next: an i18next instance of the guest pages' own
 * resources, made only when the widget loads (the page itself translates without i18next, lib/guest-i18n.ts).
 */
const instance = i18next.createInstance();
void instance.use(typography).init({
  resources: guestResources,
  lng: guestI18n.language,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES, PSEUDO_LANGUAGE],
  ns: ['payment', 'validation', 'common', 'errors'],
  defaultNS: 'payment',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  postProcess: ['typography'],
});

/** The widget, in the page's language as the guest switches it. */
export default function GuestHumanCheck(props: { siteKey: string; onToken: (token: string | null) => void }) {
  useEffect(() => {
    const follow = (language: string) => void instance.changeLanguage(language);
    follow(guestI18n.language);
    guestI18n.on('languageChanged', follow);
    return () => guestI18n.off('languageChanged', follow);
  }, []);
  return (
    <I18nextProvider i18n={instance}>
      <HumanCheck {...props} />
    </I18nextProvider>
  );
}
