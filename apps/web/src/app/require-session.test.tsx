import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ACCESS_TOKEN_COOKIE } from '@tipcard/shared/constants';
import { setCookie } from '../lib/cookies.ts';
import { i18n, loadLocale } from '../lib/i18n.ts';
import { takeReturnPath } from '../lib/return-path.ts';
import { fakeApi, pending } from '../test/fake-api.ts';
import { CLIENT_ID, signedInRoutes } from '../test/fixtures.ts';
import { createQueryClient, Providers } from './providers.tsx';
import { RequireSession } from './require-session.tsx';

function openSignedInPage(path: string) {
  const page = <h1>Transactions</h1>;
  const router = createMemoryRouter(
    [
      {
        element: <RequireSession />,
        children: [
          { path: '/transactions', element: page },
          { path: '/lv/transactions', element: page },
          { path: '/overview', element: <h1>Overview</h1> },
        ],
      },
      { path: '/login', element: <h1>Log in</h1> },
      { path: '/lv/login', element: <h1>Pieteikties</h1> },
    ],
    { initialEntries: [path] },
  );
  render(
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

describe('a signed-in page', () => {
  beforeEach(() => void takeReturnPath());
  afterEach(() => i18n.changeLanguage('en'));

  it('sends a visitor without a session to the log-in form, and remembers the page to come back to', async () => {
    const router = openSignedInPage('/transactions?type=PAYIN');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(takeReturnPath()).toBe('/transactions?type=PAYIN');
  });

  it('keeps the language of the address on the way to the log-in form', async () => {
    await loadLocale('lv');
    await i18n.changeLanguage('lv');
    openSignedInPage('/lv/transactions');
    expect(await screen.findByRole('heading', { name: 'Pieteikties' })).toBeInTheDocument();
    expect(takeReturnPath()).toBe('/transactions');
  });

  it("keeps the server's skeleton on the page while the session loads, and lets the page take its place", async () => {
    fakeApi(signedInRoutes());
    setCookie(ACCESS_TOKEN_COOKIE, 'test-access-token', { days: 1 });
    const skeleton = Object.assign(document.createElement('div'), { id: 'boot', className: 'boot-app' });
    document.body.append(skeleton);
    openSignedInPage('/transactions');
    // Taken into the app's tree (where nothing hides it), not drawn again: the same element, no spinner.
    expect(skeleton).toBeInTheDocument();
    expect(skeleton.parentElement).not.toBe(document.body);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Transactions' })).toBeInTheDocument();
    expect(skeleton).not.toBeInTheDocument();
  });

  it('shows the page loader while the session loads on a later page, the skeleton gone', async () => {
    fakeApi(signedInRoutes());
    setCookie(ACCESS_TOKEN_COOKIE, 'test-access-token', { days: 1 });
    openSignedInPage('/transactions');
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Transactions' })).toBeInTheDocument();
  });

  it("asks for the overview's balances and figures beside the card, not after it", async () => {
    const { calls } = fakeApi({
      ...signedInRoutes(),
      [`GET /clients/${CLIENT_ID}/cards`]: () => pending(),
      [`GET /clients/${CLIENT_ID}/account`]: () => pending(),
      [`GET /clients/${CLIENT_ID}/overview`]: () => pending(),
    });
    setCookie(ACCESS_TOKEN_COOKIE, 'test-access-token', { days: 1 });
    openSignedInPage('/overview');
    await waitFor(() =>
      expect(calls.map((call) => call.path)).toEqual(
        expect.arrayContaining([`/clients/${CLIENT_ID}/account`, `/clients/${CLIENT_ID}/overview`]),
      ),
    );
  });

  it('asks for nothing of the overview on another page', async () => {
    const { calls } = fakeApi(signedInRoutes());
    setCookie(ACCESS_TOKEN_COOKIE, 'test-access-token', { days: 1 });
    openSignedInPage('/transactions');
    expect(await screen.findByRole('heading', { name: 'Transactions' })).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toEqual(['/me', `/clients/${CLIENT_ID}/cards`]);
  });

  it('shows the page to a signed-in user with a card, and remembers nothing', async () => {
    fakeApi(signedInRoutes());
    setCookie(ACCESS_TOKEN_COOKIE, 'test-access-token', { days: 1 });
    openSignedInPage('/transactions');
    expect(await screen.findByRole('heading', { name: 'Transactions' })).toBeInTheDocument();
    expect(takeReturnPath()).toBeNull();
  });
});
