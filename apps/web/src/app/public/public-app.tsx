import { useEffect, useState } from 'react';
import { buttonClasses } from '../../components/ui/button-base.tsx';
import { OutcomeView } from '../../features/payment/components/outcome-view.tsx';
import { PaymentShell } from '../../features/payment/components/payment-shell.tsx';
import { PaymentApp } from '../../features/payment/payment-app.tsx';
import { usePaymentT } from '../../features/payment/payment-i18n.ts';
import { parsePublicRoute } from './public-route.ts';

/**
 * The public entry's pages. The payment pages route among themselves (and answer an unknown path with their
 * "no longer active" page); the other public links have no page yet and say so.
 */
export function PublicApp() {
  const [route] = useState(() => parsePublicRoute(window.location.pathname, window.location.hash));
  if (route.page === 'payment' || route.page === 'unknown') return <PaymentApp />;
  return <InactiveLinkPage />;
}

function InactiveLinkPage() {
  const t = usePaymentT();
  useEffect(() => {
    document.title = t('inactive.title');
  }, [t]);
  return (
    <PaymentShell>
      <OutcomeView tone="unknown" title={t('inactive.title')} text={t('inactive.text')} testId="link-inactive">
        <a href="/" className={buttonClasses('secondary', 'lg', true)}>
          {t('unknown.home')}
        </a>
      </OutcomeView>
    </PaymentShell>
  );
}
