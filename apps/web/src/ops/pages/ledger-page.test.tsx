import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { ledgerHealth, PAYMENT_ID } from '../test-data.ts';
import { renderOps } from '../test-render.tsx';

const HEALTH = 'GET /ops/ledger-health';

describe('the ledger health page', () => {
  it('says it is loading the check', async () => {
    fakeApi({ [HEALTH]: pending });
    renderOps('/ledger', { role: 'finance' });
    expect(await screen.findByRole('status', { name: 'Loading the ledger’s health…' })).toBeInTheDocument();
  });

  it('offers to try again when the check does not load', async () => {
    fakeApi({ [HEALTH]: apiError(500, 'internal', 'The check failed.') });
    renderOps('/ledger', { role: 'finance' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The check failed.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('says the books are healthy, with the balances and each day', async () => {
    fakeApi({ [HEALTH]: ledgerHealth() });
    renderOps('/ledger', { role: 'finance' });
    expect(await screen.findByText(/Every invariant holds/)).toBeInTheDocument();
    expect(screen.getByText('provider clearing')).toBeInTheDocument();
    expect(screen.getByText('100.00 EUR')).toBeInTheDocument();
    const days = within(screen.getByRole('table', { name: 'Ledger health per day, oldest first' })).getAllByRole('row');
    expect(days).toHaveLength(3);
    expect(days[2]).toHaveTextContent('no data');
    expect(screen.getByText(/None: every payment older than the reconciliation delay has an answer/)).toBeInTheDocument();
  });

  it('names each broken invariant and each late payment, and checks again on request', async () => {
    const api = fakeApi({
      [HEALTH]: ledgerHealth({
        invariant_problems: ['Entry 42 does not balance'],
        pending_payments: [{ id: PAYMENT_ID, purpose: 'tip', total_cents: 500, created_at: '2026-03-02T09:30:00Z' }],
      }),
    });
    renderOps('/ledger', { role: 'finance' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Entry 42 does not balance');
    expect(within(screen.getByRole('table', { name: 'Pending payments' })).getByText(PAYMENT_ID)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(api.sent(HEALTH)).toHaveLength(2));
  });
});
