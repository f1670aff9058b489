import { I18nextProvider } from 'react-i18next';
import { HumanCheck } from '../../../components/ui/human-check.tsx';
import { paymentI18n } from '../payment-i18n.ts';

/** The shared anti-bot widget, given the payment page's i18next instance (the page itself does not use react-i18next). */
export default function PaymentHumanCheck(props: { siteKey: string; onToken: (token: string | null) => void }) {
  return (
    <I18nextProvider i18n={paymentI18n}>
      <HumanCheck {...props} />
    </I18nextProvider>
  );
}
