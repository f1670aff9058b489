import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Answer, apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import PayoutSettingsPage from './payout-settings-page.tsx';
import { METHOD_ID, OTHER_METHOD_ID, ROUTES, sepaMethod, ukMethod } from './test-data.ts';

const MAKE_DEFAULT = `POST /payout-methods/${OTHER_METHOD_ID}/default`;
const DELETE = `DELETE /payout-methods/${METHOD_ID}`;
const noContent = new Answer(204, undefined);

describe('the payout settings page', () => {
  it('holds places for the accounts while they load', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.methods]: pending });
    await renderPage(<PayoutSettingsPage />, { path: '/settings/payout' });
    expect(await screen.findByRole('status', { name: 'Loading payout methods…' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
  });

  it('explains that there is no account yet, with the way to add one', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.methods]: [] });
    await renderPage(<PayoutSettingsPage />, { path: '/settings/payout' });
    const empty = await screen.findByTestId('methods-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('No payout methods yet');
    expect(within(empty).getByRole('link', { name: 'Add a payout method' })).toHaveAttribute(
      'href',
      '/payouts/add-method?return=settings',
    );
    expect(screen.getAllByRole('link', { name: 'Add a payout method' })).toHaveLength(1);
  });

  it('says under each account what the bank answered to the name check, and when', async () => {
    fakeApi({
      ...signedInRoutes(),
      [ROUTES.methods]: [
        sepaMethod(),
        ukMethod({
          payee_check: { result: 'close_match', bank_name: 'Anna Ozoliņa', checked_at: '2026-02-01T10:00:00Z' },
        }),
        ukMethod({ id: 'bf6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b81', created_at: '2026-02-20T10:00:00Z', payee_check: null }),
      ],
    });
    await renderPage(<PayoutSettingsPage />, { path: '/settings/payout' });
    const list = await screen.findByRole('list', { name: 'Payout methods' });
    const lines = within(list)
      .getAllByTestId('payee-check-line')
      .map((line) => line.textContent);
    expect(lines).toEqual([
      'Name confirmed by the bank · Jan 10, 2026',
      'The bank holds the name “Anna Ozoliņa” · Feb 1, 2026',
      'Name not checked with the bank',
    ]);
  });

  it('lists the accounts, the default one first', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.methods]: [ukMethod(), sepaMethod()] });
    await renderPage(<PayoutSettingsPage />, { path: '/settings/payout' });
    const list = await screen.findByRole('list', { name: 'Payout methods' });
    const [first, second] = within(list).getAllByTestId('payout-method');
    expect(first).toHaveTextContent('LV•• •••• 5001');
    expect(first).toHaveTextContent('Default');
    expect(first).toHaveTextContent('SEPA bank account · HABALV22');
    expect(within(first!).queryByRole('button', { name: /^Make default/ })).not.toBeInTheDocument();
    expect(second).toHaveTextContent('UK bank account');
    expect(within(second!).getByRole('button', { name: 'Make default: •••• 5678' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a payout method' })).toHaveAttribute(
      'href',
      '/payouts/add-method?return=settings',
    );
  });

  it('makes another account the default', async () => {
    let defaultId = METHOD_ID;
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.methods]: () => [
        sepaMethod({ is_default: defaultId === METHOD_ID }),
        ukMethod({ is_default: defaultId === OTHER_METHOD_ID }),
      ],
      [MAKE_DEFAULT]: () => {
        defaultId = OTHER_METHOD_ID;
        return noContent;
      },
    });
    await renderPage(<PayoutSettingsPage />, { path: '/settings/payout' });
    await userEvent.click(await screen.findByRole('button', { name: 'Make default: •••• 5678' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('Default payout method changed.'));
    await vi.waitFor(() => expect(screen.getAllByTestId('payout-method')[0]).toHaveTextContent('•••• 5678'));
    expect(screen.getByRole('button', { name: 'Make default: LV•• •••• 5001' })).toBeInTheDocument();
    expect(api.sent(MAKE_DEFAULT)[0]!.headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('deletes an account once the user confirms, and keeps it when they change their mind', async () => {
    let deleted = false;
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.methods]: () => (deleted ? [] : [sepaMethod()]),
      [DELETE]: () => {
        deleted = true;
        return noContent;
      },
    });
    await renderPage(<PayoutSettingsPage />, { path: '/settings/payout' });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete: LV•• •••• 5001' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete this payout method?' });
    expect(within(dialog).getByTestId('masked-account')).toHaveTextContent('LV•• •••• 5001');
    await userEvent.click(within(dialog).getByRole('button', { name: 'No, keep it' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent(DELETE)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete: LV•• •••• 5001' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete this payout method?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByTestId('methods-empty')).toBeInTheDocument();
    expect(snackbarText()).toBe('Payout method deleted.');
    expect(api.sent(DELETE)).toHaveLength(1);
  });

  it('offers to try again after a failed load', async () => {
    let failures = 1;
    fakeApi({
      ...signedInRoutes(),
      [ROUTES.methods]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : [sepaMethod()]),
    });
    await renderPage(<PayoutSettingsPage />, { path: '/settings/payout' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The payout accounts could not be loaded.');
    expect(screen.queryByTestId('methods-empty')).not.toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('payout-method')).toHaveTextContent('Anna Ozola');
  });
});
