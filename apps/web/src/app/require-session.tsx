import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { lazyWithReload } from '../lib/chunk-reload.ts';
import { stripLocale } from '../lib/locale.ts';
import { rememberReturnPath } from '../lib/return-path.ts';
import { hasSession } from '../lib/tokens.ts';
import { useLocalePath } from '../lib/use-locale-path.ts';
import { useOverviewStart } from '../features/overview/api/use-overview-start.ts';
import { PageLoader, SessionLoader } from './guards.tsx';
import { useMyCard } from './session/use-my-card.ts';

const RestoreAccountPage = lazyWithReload(() => import('../features/account/restore-account-page.tsx'));

/** Signed-in pages: no token → log in (and back); signed in without a card → account-create. */
export function RequireSession() {
  const to = useLocalePath();
  const location = useLocation();
  const { card, me, clientId, isPending, isError } = useMyCard();

  const path = stripLocale(location.pathname);
  useOverviewStart(path === '/overview' && me && !me.deletion ? clientId : undefined);
  if (!hasSession()) {
    // A signed-in page opened without a session (it ended, or a link was shared): log in, then come back here.
    rememberReturnPath(`${path}${location.search}`);
    return <Navigate to={to('/login')} replace />;
  }
  if (isPending || isError) return <SessionLoader />;
  // Signed in again within 30 days of deleting the account: the only question is whether to restore it.
  if (me?.deletion) {
    return (
      <Suspense fallback={<PageLoader />}>
        <RestoreAccountPage deletion={me.deletion} />
      </Suspense>
    );
  }

  if (!card && path !== '/account/create') return <Navigate to={to('/account/create')} replace />;
  if (card && path === '/account/create') return <Navigate to={to('/overview')} replace />;
  return <Outlet />;
}
