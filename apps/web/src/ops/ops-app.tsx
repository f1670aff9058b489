import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { opsQueueCounts } from '@tipcard/shared/ops/schemas';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import {
  createHashRouter,
  Navigate,
  NavLink,
  Outlet,
  RouterProvider,
  useLocation,
  useNavigate,
  type RouteObject,
} from 'react-router';
import { z } from 'zod';
import { Button } from '../components/ui/button-base.tsx';
import { cn } from '../components/ui/cn.ts';
import { SkeletonRows } from '../components/ui/skeleton.tsx';
import { opsI18n } from './ops-i18n.ts';
import { opsGet, opsPost, session, setSignedOutHandler } from './ops-api.ts';
import { canSee, SCREENS } from './screens.ts';
import { EnrolPage } from './pages/enrol-page.tsx';
import { SetupPage } from './pages/setup-page.tsx';
import { SignInPage, type SignInState } from './pages/sign-in-page.tsx';

export const createOpsQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

/** How often the menu's counts of waiting work are asked again (any change an operator makes asks at once). */
const QUEUE_REFRESH_MS = 60_000;

/** The count of a queue beside its menu entry; nothing when none waits (or the count could not be had). */
function QueueBadge({ count }: { count: number | null | undefined }) {
  if (!count) return null;
  return (
    <span className="ml-auto rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
      {count}
      <span className="sr-only"> waiting</span>
    </span>
  );
}

function Shell() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const operator = session.operator();
  // Where sign-in brings the operator back to: the screen they opened (a link a colleague sent) or were on.
  const here = `${location.pathname}${location.search}`;
  const signedIn = operator !== null && session.token() !== null;
  const queues = useQuery({
    queryKey: ['ops', 'queues'],
    queryFn: () => opsGet(opsQueueCounts, '/queues'),
    refetchInterval: QUEUE_REFRESH_MS,
    enabled: signedIn,
  });
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    setSignedOutHandler((reason) => {
      queryClient.clear();
      setNotice(reason);
      void navigate('/sign-in', { replace: true, state: { notice: reason, from: here } satisfies SignInState });
    });
  }, [navigate, queryClient, here]);
  if (!operator || !signedIn) return <Navigate to="/sign-in" replace state={{ notice, from: here } satisfies SignInState} />;

  const signOut = async () => {
    await opsPost(z.unknown(), '/sign-out').catch(() => undefined);
    session.clear();
    queryClient.clear();
    void navigate('/sign-in', { replace: true });
  };
  const screens = SCREENS.filter((screen) => screen.nav && canSee(screen, operator.role));
  return (
    // Desktop-first: below md (a phone an operator checks something on) the menu sits above the screen, not beside it.
    <div className="flex min-h-screen flex-col md:flex-row">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <aside className="flex w-full shrink-0 flex-col border-b border-slate-200 bg-white md:w-60 md:border-b-0 md:border-r">
        <div className="border-b border-slate-200 px-5 py-4">
          <p className="text-lg font-bold text-primary-900">Tipcard Ops</p>
          <p className="truncate text-xs text-slate-600" title={operator.email}>
            {operator.email} · {operator.role}
          </p>
          <NavLink to="/account" className="text-xs font-medium text-primary-800 underline">
            Your account and passkeys
          </NavLink>
        </div>
        <nav aria-label="Back office" className="flex-1 p-3">
          <ul className="space-y-1">
            {screens.map((screen) => (
              <li key={screen.path}>
                <NavLink
                  to={screen.path}
                  className={({ isActive }) =>
                    cn(
                      'flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium',
                      isActive ? 'bg-primary-50 text-primary-900' : 'text-slate-700 hover:bg-slate-100',
                    )
                  }
                >
                  {screen.label}
                  {screen.queue && <QueueBadge count={queues.data?.[screen.queue]} />}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <Button variant="secondary" size="sm" className="m-3" onClick={() => void signOut()}>
          Sign out
        </Button>
      </aside>
      <main id="main" className="min-w-0 flex-1 p-4 md:p-8">
        <Suspense fallback={<SkeletonRows label="Loading…" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

function Home() {
  const operator = session.operator();
  const first = operator ? SCREENS.find((screen) => screen.nav && canSee(screen, operator.role)) : undefined;
  return <Navigate to={first?.path ?? '/sign-in'} replace />;
}

/** The back office's routes: sign-in and enrolment open to anyone, every screen behind the shell's session check. */
export const OPS_ROUTES: RouteObject[] = [
  { path: '/sign-in', element: <SignInPage /> },
  { path: '/enrol/:token', element: <EnrolPage /> },
  { path: '/setup/:token', element: <SetupPage /> },
  {
    element: <Shell />,
    children: [
      { index: true, element: <Home /> },
      ...SCREENS.map((screen) => ({
        path: screen.path,
        Component: function Guarded() {
          const operator = session.operator();
          if (!operator || !canSee(screen, operator.role)) return <Navigate to="/" replace />;
          const Page = screen.page;
          return <Page />;
        },
      })),
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/** What every back-office screen runs in: its query cache and the English `common` catalog of the shared widgets. */
export function OpsProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={opsI18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nextProvider>
  );
}

const router = createHashRouter(OPS_ROUTES);
const queryClient = createOpsQueryClient();

export function OpsApp() {
  return (
    <OpsProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </OpsProviders>
  );
}
