import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { opsUser, PAYMENT_ID, payout, TICKET_ID, userDetail, USER_ID } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const DETAIL = `GET /ops/users/${USER_ID}`;
const BLOCK = `POST /ops/users/${USER_ID}/block`;
const UNBLOCK = `POST /ops/users/${USER_ID}/unblock`;
const REASON = 'Reason (kept in the audit log)';

const fullDetail = userDetail({
  cards: [
    {
      id: '2d8b0c3e-5f6a-4b7c-9d8e-0f1a2b3c4d5e',
      title: 'Terrace',
      public_name: 'Anna',
      activity_type: 'WAITER',
      is_private: true,
    },
  ],
  team: {
    id: '3e9c1d4f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
    title: 'Kafejnīca',
    workplace: 'Rīga',
    workplace_id: '4f0d2e5a-7b8c-4d9e-8f1a-2b3c4d5e6f70',
    card_id: '2d8b0c3e-5f6a-4b7c-9d8e-0f1a2b3c4d5e',
    admin: true,
    members: 4,
    joined_at: '2026-03-02T09:30:00Z',
  },
  tickets: [
    {
      id: TICKET_ID,
      title: 'Where is my payout?',
      status: 'open',
      created_at: '2026-03-02T09:30:00Z',
      updated_at: '2026-03-02T09:30:00Z',
    },
  ],
  payouts: [payout({ status: 'returned', return_reason: 'AC04 Closed account number' })],
});

describe('a user’s page', () => {
  it('says it is loading the user', async () => {
    fakeApi({ [DETAIL]: pending });
    renderOps(`/users/${USER_ID}`);
    expect(await screen.findByRole('status', { name: 'Loading the user…' })).toBeInTheDocument();
  });

  it('says why the user cannot be shown, and loads again on request', async () => {
    let failures = 1;
    fakeApi({ [DETAIL]: () => (failures-- > 0 ? apiError(404, 'not_found', 'No such user.') : userDetail()) });
    renderOps(`/users/${USER_ID}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No such user.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await findHeading('+37120000000')).toBeInTheDocument();
  });

  it('shows what a user has, and says what they have not', async () => {
    fakeApi({ [DETAIL]: userDetail() });
    renderOps(`/users/${USER_ID}`);
    expect(await findHeading('+37120000000')).toBeInTheDocument();
    expect(screen.getByTestId('balance-main')).toHaveTextContent('20.00 EUR');
    expect(screen.getByText('No cards.')).toBeInTheDocument();
    expect(screen.getByText('In no team.')).toBeInTheDocument();
    expect(screen.getByText('No tickets.')).toBeInTheDocument();
    expect(screen.getByText('No transactions yet.')).toBeInTheDocument();
    expect(screen.getByText('No payouts.')).toBeInTheDocument();
  });

  it('shows the cards, team, payouts and tickets, and opens a ticket for support', async () => {
    fakeApi({ [DETAIL]: fullDetail, [`GET /ops/tickets/${TICKET_ID}`]: pending });
    const { router } = renderOps(`/users/${USER_ID}`, { role: 'support' });
    expect(await screen.findByText('Kafejnīca')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rīga' })).toHaveAttribute('href', '/venues/4f0d2e5a-7b8c-4d9e-8f1a-2b3c4d5e6f70');
    expect(screen.getByText(/Anna · Terrace/)).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'AC04 Closed account number' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Block' })).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Where is my payout?' }));
    expect(currentPath(router)).toBe(`/tickets/${TICKET_ID}`);
  });

  it('links each payment of the history to its page, by the reference its guest was given', async () => {
    fakeApi({
      [DETAIL]: userDetail({
        history: [
          {
            id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
            type: 'PAYIN',
            status: 'HOLD',
            amount_cents: 4_850,
            fee_cents: 150,
            payment_id: PAYMENT_ID,
            created_at: '2026-03-02T09:30:00Z',
          },
        ],
      }),
    });
    renderOps(`/users/${USER_ID}`, { role: 'support' });
    const history = await screen.findByRole('table', { name: 'Transactions' });
    expect(within(history).getByRole('link', { name: '7D3E4F5A' })).toHaveAttribute('href', `/payments/${PAYMENT_ID}`);
  });

  it('does not link tickets for an operator without support', async () => {
    fakeApi({ [DETAIL]: fullDetail });
    renderOps(`/users/${USER_ID}`, { role: 'finance' });
    expect(await screen.findByText('Where is my payout?')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Where is my payout?' })).toBeNull();
  });

  it('blocks a user with a reason, which it asks for first', async () => {
    let blocked = false;
    const api = fakeApi({
      [DETAIL]: () => (blocked ? userDetail({ user: opsUser({ blocked: true, blocked_reason: 'Fraud report' }) }) : userDetail()),
      [BLOCK]: () => {
        blocked = true;
        return opsUser({ blocked: true, blocked_reason: 'Fraud report' });
      },
    });
    renderOps(`/users/${USER_ID}`, { role: 'compliance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Block' }));
    await waitFor(() => expect(screen.getByLabelText(REASON)).toHaveAttribute('aria-invalid', 'true'));
    expect(api.sent(BLOCK)).toHaveLength(0);
    await userEvent.type(screen.getByLabelText(REASON), 'Fraud report');
    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('Blocked: Fraud report')).toBeInTheDocument();
    expect(api.sent(BLOCK)[0]!.body).toEqual({ reason: 'Fraud report' });
    expect(screen.getByRole('button', { name: 'Unblock' })).toBeInTheDocument();
    expect(screen.getByLabelText(REASON)).toHaveValue('');
  });

  it('unblocks a blocked user, and shows a refusal', async () => {
    fakeApi({
      [DETAIL]: userDetail({ user: opsUser({ blocked: true, blocked_reason: 'Fraud report' }) }),
      [UNBLOCK]: apiError(409, 'not_blocked', 'The user was unblocked meanwhile.'),
    });
    renderOps(`/users/${USER_ID}`, { role: 'compliance' });
    await userEvent.type(await screen.findByLabelText(REASON), 'Cleared');
    await userEvent.click(screen.getByRole('button', { name: 'Unblock' }));
    expect(await screen.findByText('The user was unblocked meanwhile.')).toBeInTheDocument();
  });
});
