import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage } from '../../test/render-page.tsx';
import { uiStore } from '../../lib/ui-store.ts';
import PayoutsPage from './payouts-page.tsx';
import {
  balancesAnswer,
  METHOD_ID,
  NO_SCHEDULE,
  OTHER_METHOD_ID,
  PAYOUT_ID,
  payout,
  ROUTES,
  sepaMethod,
  terms,
  ukMethod,
} from './test-data.ts';

function routes(overrides: Record<string, unknown> = {}) {
  return {
    ...signedInRoutes(),
    [ROUTES.balances]: balancesAnswer(8_450, 1_000),
    [ROUTES.methods]: [sepaMethod()],
    [ROUTES.payouts]: [],
    [ROUTES.terms]: terms,
    [ROUTES.schedule]: NO_SCHEDULE,
    ...overrides,
  };
}

describe('the payouts page', () => {
  it('holds places for the account and the history while they load', async () => {
    fakeApi(routes({ [ROUTES.methods]: pending, [ROUTES.payouts]: pending }));
    await renderPage(<PayoutsPage />, { path: '/payouts' });
    expect(await screen.findByRole('status', { name: 'Loading the payout account…' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading payouts…' })).toBeInTheDocument();
  });

  it('shows the balance, the payout account and when a payout made now arrives', async () => {
    fakeApi(routes());
    await renderPage(<PayoutsPage />, { path: '/payouts' });
    expect(await screen.findByTestId('payouts-balance-main')).toHaveTextContent('€84.50');
    expect(screen.getByText('€10.00 on hold, available:')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'When the money on hold becomes available' })).toHaveTextContent(
      /^€10\.00 on Mar 3, 2026, \d{1,2}:30\s?[AP]M$/,
    );
    expect(await screen.findByTestId('masked-account')).toHaveTextContent('LV•• •••• 5001');
    expect(screen.getByText('Default')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage' })).toHaveAttribute('href', '/settings/payout');
    expect(await screen.findByTestId('arrival-hint')).toHaveTextContent('Withdraw now and the money arrives on');
  });

  it('explains an empty history and asks for an account when there is none', async () => {
    fakeApi(routes({ [ROUTES.methods]: [] }));
    await renderPage(<PayoutsPage />, { path: '/payouts' });
    const empty = await screen.findByTestId('payouts-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('No payouts yet');
    expect(await screen.findByText('Add the bank account your tips should go to.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a payout method' })).toHaveAttribute('href', '/payouts/add-method');
    expect(screen.queryByRole('link', { name: 'Manage' })).not.toBeInTheDocument();
  });

  it('lists the payouts, and leads one awaiting its code to the confirmation', async () => {
    fakeApi(
      routes({
        [ROUTES.payouts]: [
          payout('awaiting_confirmation'),
          payout('paid', { id: 'b07b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c90', amount_cents: 2_500 }),
          payout('returned', { id: 'c18c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9da0' }),
        ],
      }),
    );
    await renderPage(<PayoutsPage />, { path: '/payouts' });
    const list = await screen.findByRole('list', { name: 'Payouts' });
    const rows = within(list).getAllByTestId('payout');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('To LV•• •••• 5001');
    expect(rows[0]).toHaveTextContent('Enter code');
    expect(rows[0]).toHaveAttribute('href', `/payouts/${PAYOUT_ID}/confirmation`);
    expect(within(rows[1]!).getByTestId('payout-amount')).toHaveTextContent('−€25.00');
    expect(within(rows[1]!).getByTestId('payout-arrival')).toHaveTextContent('Paid');
    expect(rows[1]).not.toHaveAttribute('href');
    expect(within(rows[2]!).getByTestId('payout-arrival')).toHaveTextContent('Returned to your balance');
    // A returned payout names the bank's reason, and its fee is no longer charged.
    expect(within(rows[2]!).getByTestId('payout-return-reason')).toHaveTextContent('Reason: Account closed');
    expect(within(rows[2]!).getByTestId('payout-fee')).toHaveTextContent('Fee €2.00 refunded');
    expect(within(rows[1]!).getByTestId('payout-fee')).toHaveTextContent(/^Fee €2\.00$/);
  });

  it('says a payout in flight is on its way, and a returned one’s reason in the reader’s language', async () => {
    fakeApi(
      routes({
        [ROUTES.payouts]: [
          payout('in_flight'),
          payout('returned', { id: 'c18c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9da0', return_reason: 'AC01' }),
          payout('returned', { id: 'd29d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0eb0', return_reason: null }),
        ],
      }),
    );
    await renderPage(<PayoutsPage />, { path: '/es/payouts', locale: 'es' });
    const rows = await screen.findAllByTestId('payout');
    expect(within(rows[0]!).getByTestId('payout-status')).toHaveTextContent('En camino');
    expect(within(rows[1]!).getByTestId('payout-return-reason')).toHaveTextContent('Motivo: Número de cuenta incorrecto');
    expect(within(rows[2]!).getByTestId('payout-return-reason')).toHaveTextContent('Motivo: El banco no dio ningún motivo');
  });

  it('offers to try again after the history failed to load', async () => {
    let failures = 1;
    const api = fakeApi(
      routes({ [ROUTES.payouts]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : [payout('paid')]) }),
    );
    await renderPage(<PayoutsPage />, { path: '/payouts' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The payouts could not be loaded.');
    expect(screen.queryByTestId('payouts-empty')).not.toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('payout')).toHaveAttribute('data-status', 'paid');
    expect(api.sent(ROUTES.payouts)).toHaveLength(2);
  });

  it('does not ask to add an account when the accounts failed to load', async () => {
    fakeApi(routes({ [ROUTES.methods]: apiError(503, 'service_unavailable') }));
    await renderPage(<PayoutsPage />, { path: '/payouts' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The payout account could not be loaded.');
    expect(screen.queryByRole('link', { name: 'Add a payout method' })).not.toBeInTheDocument();
  });

  it('withdraws an amount to the default account and goes on to the code', async () => {
    const api = fakeApi(routes({ [ROUTES.createPayout]: payout('awaiting_confirmation') }));
    await renderPage(<PayoutsPage />, { path: '/payouts' });
    await screen.findByTestId('masked-account');
    await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw money' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Amount to withdraw' }), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    const slider = await within(dialog).findByRole('slider', { name: 'Slide to withdraw €10.00' });
    slider.focus();
    await userEvent.keyboard('{Enter}');
    expect(await navigatedTo()).toBe(`/payouts/${PAYOUT_ID}/confirmation`);
    const [request] = api.sent(ROUTES.createPayout);
    expect(request!.body).toEqual({ amount_cents: 1_000, method_id: METHOD_ID, instant: false });
    expect(request!.headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('withdraws to another account the user picks', async () => {
    const api = fakeApi(
      routes({ [ROUTES.methods]: [sepaMethod(), ukMethod()], [ROUTES.createPayout]: payout('awaiting_confirmation') }),
    );
    await renderPage(<PayoutsPage />, { path: '/payouts?withdraw=1' });
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw money' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Amount to withdraw' }), '5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    const accounts = await within(dialog).findAllByRole('radio');
    expect(accounts[0]).toBeChecked();
    await userEvent.click(accounts[1]!);
    expect(within(dialog).getByTestId('payout-summary')).toHaveTextContent('To•••• 5678');
    within(dialog).getByRole('slider').focus();
    await userEvent.keyboard('{Enter}');
    expect(await navigatedTo()).toBe(`/payouts/${PAYOUT_ID}/confirmation`);
    expect(api.sent(ROUTES.createPayout)[0]!.body).toEqual({ amount_cents: 500, method_id: OTHER_METHOD_ID, instant: false });
  });

  it('asks for an account first when there is none to withdraw to', async () => {
    const api = fakeApi(routes({ [ROUTES.methods]: [] }));
    await renderPage(<PayoutsPage />, { path: '/payouts?withdraw=1' });
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw money' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Amount to withdraw' }), '5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('Where should the money go?')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Add a payout method' })).toHaveAttribute(
      'href',
      '/payouts/add-method?return=withdraw&amount=500',
    );
    expect(within(dialog).queryByRole('slider')).not.toBeInTheDocument();
    expect(api.sent(ROUTES.createPayout)).toEqual([]);
  });

  it('opens with the focus on the amount: typed digits go there and Enter goes on, not away', async () => {
    // Like a browser's showModal: the focus goes to the first focusable element unless one has the autofocus attribute.
    const showModal = function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
      (this.querySelector<HTMLElement>('[autofocus]') ?? this.querySelector<HTMLElement>('button, input'))?.focus();
    };
    Object.defineProperty(HTMLDialogElement.prototype, 'showModal', { configurable: true, value: showModal });
    try {
      fakeApi(routes());
      await renderPage(<PayoutsPage />, { path: '/payouts' });
      await screen.findByTestId('masked-account');
      await userEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
      const dialog = await screen.findByRole('dialog', { name: 'Withdraw money' });
      const amount = within(dialog).getByRole('textbox', { name: 'Amount to withdraw' });
      expect(amount).toHaveFocus();
      await userEvent.keyboard('25{Enter}');
      expect(amount).toHaveValue('25');
      expect(await within(dialog).findByTestId('withdraw-amount')).toHaveTextContent('€25.00');
    } finally {
      Reflect.deleteProperty(HTMLDialogElement.prototype, 'showModal');
    }
  });

  it('offers three or more accounts in one select, so the slide stays in view', async () => {
    const methods = [
      sepaMethod(),
      ukMethod(),
      sepaMethod({ id: 'b07b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c91', masked_account: 'EE•• •••• •••• •••• 7777', is_default: false }),
      sepaMethod({ id: 'b07b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c92', masked_account: 'LT•• •••• •••• •••• 8888', is_default: false }),
    ];
    const api = fakeApi(routes({ [ROUTES.methods]: methods, [ROUTES.createPayout]: payout('awaiting_confirmation') }));
    await renderPage(<PayoutsPage />, { path: '/payouts?withdraw=1' });
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw money' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Amount to withdraw' }), '5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    const select = await within(dialog).findByRole('combobox', { name: 'Pay out to' });
    expect(within(dialog).queryAllByRole('radio')).toEqual([]);
    expect(select).toHaveValue(METHOD_ID);
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent)
        .sort(),
    ).toEqual([
      'EE•• •••• 7777 · Anna Ozola',
      'LT•• •••• 8888 · Anna Ozola',
      'LV•• •••• 5001 · Anna Ozola',
      '•••• 5678 · Anna Ozola',
    ]);
    await userEvent.selectOptions(select, methods[2]!.id);
    within(dialog).getByRole('slider').focus();
    await userEvent.keyboard('{Enter}');
    expect(await navigatedTo()).toBe(`/payouts/${PAYOUT_ID}/confirmation`);
    expect(api.sent(ROUTES.createPayout)[0]!.body).toEqual({ amount_cents: 500, method_id: methods[2]!.id, instant: false });
  });

  it('keeps the amount when an account is added mid-withdrawal, and picks the new account', async () => {
    fakeApi(routes({ [ROUTES.methods]: [sepaMethod(), ukMethod()] }));
    await renderPage(<PayoutsPage />, { path: '/payouts?withdraw=1' });
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw money' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Amount to withdraw' }), '12.50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByRole('link', { name: 'Add another account' })).toHaveAttribute(
      'href',
      '/payouts/add-method?return=withdraw&amount=1250',
    );
  });

  it('comes back from adding an account at the account step, with the amount and the new account chosen', async () => {
    fakeApi(routes({ [ROUTES.methods]: [sepaMethod(), ukMethod()] }));
    await renderPage(<PayoutsPage />, { path: `/payouts?withdraw=1&amount=1250&method=${OTHER_METHOD_ID}` });
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw money' });
    expect(await within(dialog).findByTestId('withdraw-amount')).toHaveTextContent('€12.50');
    const accounts = within(dialog).getAllByRole('radio');
    expect(accounts[1]).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change amount' }));
    expect(within(dialog).getByRole('textbox', { name: 'Amount to withdraw' })).toHaveValue('12.50');
  });

  it('steps aside for the verification modal when the payout needs verification', async () => {
    fakeApi(routes({ [ROUTES.createPayout]: apiError(451, 'verification_required') }));
    await renderPage(<PayoutsPage />, { path: '/payouts?withdraw=1' });
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw money' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Amount to withdraw' }), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    (await within(dialog).findByRole('slider')).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(uiStore.get().modals.verification).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Withdraw money' })).not.toBeInTheDocument());
    expect(screen.queryByText('Sending your request…')).not.toBeInTheDocument();
  });

  it('opens the withdrawal from the link it was left at', async () => {
    fakeApi(routes());
    await renderPage(<PayoutsPage />, { path: '/payouts?withdraw=1' });
    expect(await screen.findByRole('dialog', { name: 'Withdraw money' })).toBeInTheDocument();
  });
});
