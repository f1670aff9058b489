import { lazy, Suspense, useEffect, useState } from 'react';
import { buttonClasses } from '../../components/ui/button-base.tsx';
import { OutcomeView } from '../../features/payment/components/outcome-view.tsx';
import { PaymentShell } from '../../features/payment/components/payment-shell.tsx';
import { PaymentApp } from '../../features/payment/payment-app.tsx';
import { usePaymentT } from '../../features/payment/payment-i18n.ts';
import { parsePublicRoute } from './public-route.ts';

// Its own chunk: the tip page, opened far more often, does not carry it.
const InvoicePage = lazy(() => import('../../features/payment/invoice-page.tsx').then((module) => ({ default: module.InvoicePage })));

/**
 * The public entry's pages. The payment pages route among themselves (and answer an unknown path with their
 * "no longer active" page); invoices have theirs; the team invite link opens the app's join page; the other public
 * links have no page yet and say so.
 */
export function PublicApp() {
  const [route] = useState(() => parsePublicRoute(window.location.pathname, window.location.hash));
  if (route.page === 'payment' || route.page === 'unknown') return <PaymentApp />;
  if (route.page === 'invoice') {
    return (
      <Suspense fallback={null}>
        <InvoicePage invoiceId={route.invoiceId} outcome={route.outcome} />
      </Suspense>
    );
  }
  if (route.page === 'team-join') return <ToApp path={`/teams/${encodeURIComponent(route.teamId)}/join`} />;
  return <InactiveLinkPage />;
}

/** A link whose page lives in the app (the team invite needs sign-up, log-in and the session): the app's hash route. */
function ToApp({ path }: { path: string }) {
  useEffect(() => {
    window.location.replace(`/#${path}`);
  }, [path]);
  return null;
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
