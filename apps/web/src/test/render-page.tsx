import type { ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import type { Locale } from '@tipcard/shared/constants';
import { ACCESS_TOKEN_COOKIE } from '@tipcard/shared/constants';
import { createQueryClient, Providers } from '../app/providers.tsx';
import { setCookie } from '../lib/cookies.ts';
import { i18n, loadLocale } from '../lib/i18n.ts';
import { uiStore } from '../lib/ui-store.ts';

interface RenderPageOptions {
  /** The URL the page opens at ("/payouts"); the router is in memory. */
  path?: string;
  /** The route pattern the page is mounted at ("/support/:ticketId"), for pages that read params. */
  route?: string;
  locale?: Locale;
  /** With an access token, as after sign-in (default); `false` for the pages a visitor opens. */
  signedIn?: boolean;
}

/** Where the router went: any path other than the page's renders this, so a test can read a navigation. */
function Elsewhere() {
  const location = useLocation();
  return <p data-testid="navigated-to">{`${location.pathname}${location.search}`}</p>;
}

/**
 * A page as the app shows it: the app's providers (query client without retries, i18n), a memory router, a session
 * cookie when signed in, and a clean UI store (snackbar, modals, error page). Pair it with `fakeApi` for the calls.
 */
export async function renderPage(ui: ReactNode, options: RenderPageOptions = {}) {
  const { path = '/', route = path.split('?')[0]!, locale = 'en', signedIn = true } = options;
  await loadLocale(locale);
  await i18n.changeLanguage(locale);
  uiStore.set({ snackbar: null, loading: false, fatalError: null, modals: { card: false, verification: false, cookie: false } });
  if (signedIn) setCookie(ACCESS_TOKEN_COOKIE, 'test-access-token', { days: 1 });
  const queryClient = createQueryClient();
  const router = createMemoryRouter(
    [
      { path: route, element: ui },
      { path: '*', element: <Elsewhere /> },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, queryClient };
}

/** The path the page navigated to, once it has. */
export async function navigatedTo(): Promise<string> {
  return (await screen.findByTestId('navigated-to')).textContent ?? '';
}

/** What the snackbar says now (the API client's error texts land there). */
export const snackbarText = (): string | null => uiStore.get().snackbar?.message ?? null;

/** The status of the error page the client asked for, or null. */
export const fatalErrorStatus = (): number | null => uiStore.get().fatalError;
