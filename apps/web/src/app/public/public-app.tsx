import { lazy, Suspense, useEffect, useState } from 'react';
import { TipApp } from '../../features/tips/tip-app.tsx';
import { VenueApp } from '../../features/venues/venue-page.tsx';
import { parsePublicRoute } from './public-route.ts';

// Its own chunk: the tip page, opened far more often, does not carry it.
const InvoicePayerPage = lazy(() =>
  import('../../features/invoices/invoice-payer-page.tsx').then((module) => ({ default: module.InvoicePayerPage })),
);
const DonorActionPage = lazy(() =>
  import('../../features/donations/donor-action-page.tsx').then((module) => ({ default: module.DonorActionPage })),
);

/**
 * The public entry's pages. The payment pages route among themselves (and answer an unknown path with their
 * "no longer active" page); the venue page (`/venue/{id}`) lists its people and teams; invoices and monthly donors' signed links (`/actions/…`) have theirs; the team invite
 * link opens the app's join page.
 */
export function PublicApp() {
  const [route] = useState(() => parsePublicRoute(window.location.pathname, window.location.hash));
  if (route.page === 'payment' || route.page === 'unknown') return <TipApp />;
  // Rendered by the server too, so not lazily loaded (hydration meets its markup at once); it is a list of links.
  if (route.page === 'venue') return <VenueApp />;
  if (route.page === 'invoice') {
    return (
      <Suspense fallback={null}>
        <InvoicePayerPage invoiceId={route.invoiceId} outcome={route.outcome} />
      </Suspense>
    );
  }
  if (route.page === 'action') {
    return (
      <Suspense fallback={null}>
        <DonorActionPage actionId={route.actionId} />
      </Suspense>
    );
  }
  return <ToApp path={`/teams/${encodeURIComponent(route.teamId)}/join`} />;
}

/** A link whose page lives in the app (the team invite needs sign-up, log-in and the session): the app's hash route. */
function ToApp({ path }: { path: string }) {
  useEffect(() => {
    window.location.replace(`/#${path}`);
  }, [path]);
  return null;
}
