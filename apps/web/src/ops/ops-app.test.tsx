import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../test/fake-api.ts';
import { session } from './ops-api.ts';
import { operatorRow } from './test-data.ts';
import { currentPath, findHeading, renderOps } from './test-render.tsx';

describe('the back office shell', () => {
  it('sends a visitor without a session to sign-in', async () => {
    fakeApi({});
    const { router } = renderOps('/operators', { role: null });
    expect(await findHeading('Tipcard Ops')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/sign-in');
  });

  it('shows an operator only the screens of their role, and opens the first', async () => {
    fakeApi({});
    const { router } = renderOps('/', { role: 'finance' });
    const nav = await screen.findByRole('navigation', { name: 'Back office' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Search', 'Users', 'Payouts', 'Refunds', 'Ledger health']);
    expect(await findHeading('Search')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/search');
  });

  it('turns an operator away from a screen of another role', async () => {
    fakeApi({});
    const { router } = renderOps('/operators', { role: 'support' });
    expect(await findHeading('Search')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/search');
  });

  it('counts the waiting work beside each queue of the menu, and nothing beside an empty one', async () => {
    fakeApi({ 'GET /ops/refund-requests': [] });
    renderOps('/refunds', { role: 'finance', queues: { refunds_to_approve: 2, batches_to_close: 1, dead_messages: 0 } });
    const nav = await screen.findByRole('navigation', { name: 'Back office' });
    const refunds = await within(nav).findByRole('link', { name: /^Refunds/ });
    await waitFor(() => expect(refunds).toHaveTextContent('Refunds2 waiting'));
    console.log(
      JSON.stringify(
        within(nav)
          .getAllByRole('link')
          .map((l) => l.textContent),
      ),
    );
    expect(within(nav).getByRole('link', { name: /^Payouts/ })).toHaveTextContent('Payouts1 waiting');
    expect(within(nav).getByRole('link', { name: /^Ledger health/ })).toHaveTextContent(/^Ledger health$/);
  });

  it('goes back to sign-in and says why when the API ends the session (401)', async () => {
    fakeApi({ 'GET /ops/operators': apiError(401, 'unauthenticated', 'Sign in again.') });
    const { router } = renderOps('/operators');
    expect(await screen.findByText(/Your session has ended/)).toBeInTheDocument();
    expect(currentPath(router)).toBe('/sign-in');
    expect(session.token()).toBeNull();
  });

  it('signs out: tells the API, forgets the token and shows sign-in', async () => {
    const api = fakeApi({ 'GET /ops/operators': [operatorRow()], 'POST /ops/sign-out': null });
    const { router } = renderOps('/operators');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await findHeading('Tipcard Ops')).toBeInTheDocument();
    expect(api.sent('POST /ops/sign-out')).toHaveLength(1);
    expect(api.sent('POST /ops/sign-out')[0]!.headers.get('authorization')).toBe('Bearer ops-test-token');
    await waitFor(() => expect(currentPath(router)).toBe('/sign-in'));
    expect(session.token()).toBeNull();
  });
});
