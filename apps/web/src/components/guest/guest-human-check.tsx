import { I18nextProvider } from 'react-i18next';
import { HumanCheck } from '../ui/human-check.tsx';
import { guestI18n } from '../../lib/guest-i18n.ts';

/** The shared anti-bot widget, given the payment page's i18next instance (the page itself does not use react-i18next). */
export default function GuestHumanCheck(props: { siteKey: string; onToken: (token: string | null) => void }) {
  return (
    <I18nextProvider i18n={guestI18n}>
      <HumanCheck {...props} />
    </I18nextProvider>
  );
}
