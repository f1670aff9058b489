import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { PAYMENT_ID, REQUEST_ID } from '../test-data.ts';
import { currentPath, findHeading, OPERATOR_ID, renderOps } from '../test-render.tsx';

const REQUESTS = 'GET /ops/refund-requests';
const APPROVE = `POST /ops/refund-requests/${REQUEST_ID}/approve`;
const DECLINE = `POST /ops/refund-requests/${REQUEST_ID}/decline`;
const waiting = {
  id: REQUEST_ID,
  status: 'pending' as const,
  payment_id: PAYMENT_ID,
  payment_reference: '7D3E4F5A',
  amount_cents: 12_000,
  reason: 'Charged twice',
  requested_by: 'f3a4b5c6-d7e8-4f9a-8b1c-2d3e4f5a6b7c',
  requested_by_email: 'maris@ops.example',
  created_at: '2026-03-02T09:30:00Z',
};
const own = {
  ...waiting,
  id: 'a4b5c6d7-e8f9-4a0b-9c1d-2e3f4a5b6c7d',
  requested_by: OPERATOR_ID,
  requested_by_email: 'finance@ops.example',
  reason: 'Mine',
};

describe('the refunds page', () => {
  it('says it is loading the requests waiting for approval', async () => {
    fakeApi({ [REQUESTS]: pending });
    renderOps('/refunds', { role: 'finance' });
    expect(await screen.findByRole('status', { name: 'Loading refund requests…' })).toBeInTheDocument();
  });

  it('says when no refund is waiting', async () => {
    fakeApi({ [REQUESTS]: [] });
    renderOps('/refunds', { role: 'finance' });
    expect(await screen.findByRole('heading', { name: 'No refund is waiting.' })).toBeInTheDocument();
  });

  it('offers to try again when the requests do not load', async () => {
    fakeApi({ [REQUESTS]: apiError(503, 'unavailable', 'The service is busy.') });
    renderOps('/refunds', { role: 'finance' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service is busy.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('lists who asked, when, and the payment as a link to it; nobody decides their own request', async () => {
    fakeApi({ [REQUESTS]: [waiting, own] });
    renderOps('/refunds', { role: 'finance' });
    const table = await screen.findByRole('table', { name: 'Refunds waiting for approval' });
    const [, theirs, mine] = within(table).getAllByRole('row');
    expect(theirs).toHaveTextContent('maris@ops.example');
    expect(theirs).toHaveTextContent('2 Mar 2026, 09:30');
    expect(within(theirs!).getByRole('link', { name: '7D3E4F5A' })).toHaveAttribute('href', `/payments/${PAYMENT_ID}`);
    expect(mine).toHaveTextContent('Your request: another operator approves');
    expect(within(mine!).queryByRole('button')).toBeNull();
  });

  it('approves another operator’s request only once the confirmation repeats the amount and the payment', async () => {
    let decided = false;
    const api = fakeApi({
      [REQUESTS]: () => (decided ? [own] : [waiting, own]),
      [APPROVE]: () => {
        decided = true;
        return { status: 'refunded', payment_status: 'succeeded', request_id: REQUEST_ID };
      },
    });
    renderOps('/refunds', { role: 'finance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Approve…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve the refund' });
    expect(dialog).toHaveTextContent('Give 120.00 EUR back to the guest who paid payment 7D3E4F5A');
    expect(api.sent(APPROVE)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund 120.00 EUR' }));
    await waitFor(() => expect(screen.queryByText('Charged twice')).toBeNull());
    expect(api.sent(APPROVE)).toHaveLength(1);
  });

  it('declines with a reason, which it asks for before sending anything', async () => {
    let declined = false;
    const api = fakeApi({
      [REQUESTS]: () => (declined ? [] : [waiting]),
      [DECLINE]: () => {
        declined = true;
        return { status: 'rejected', payment_status: 'succeeded', request_id: REQUEST_ID };
      },
    });
    renderOps('/refunds', { role: 'finance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Decline…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline the refund' });
    expect(dialog).toHaveTextContent('Decline maris@ops.example’s request to refund 120.00 EUR of payment 7D3E4F5A');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline request' }));
    expect(await within(dialog).findByText('This value should not be blank.')).toBeInTheDocument();
    expect(api.sent(DECLINE)).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Why (kept in the audit log)'), 'Only one charge was made');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline request' }));
    expect(await screen.findByRole('heading', { name: 'No refund is waiting.' })).toBeInTheDocument();
    expect(api.sent(DECLINE).map((request) => request.body)).toEqual([{ reason: 'Only one charge was made' }]);
  });

  it('shows why a decline was refused, in the dialog', async () => {
    fakeApi({ [REQUESTS]: [waiting], [DECLINE]: apiError(409, 'ops_conflict', 'Another operator decided it.') });
    renderOps('/refunds', { role: 'finance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Decline…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline the refund' });
    await userEvent.type(within(dialog).getByLabelText('Why (kept in the audit log)'), 'Not owed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline request' }));
    expect(await within(dialog).findByText('Another operator decided it.')).toBeInTheDocument();
  });

  it('finds a payment to refund by the reference its guest quotes', async () => {
    fakeApi({ [REQUESTS]: [], 'GET /ops/search': [] });
    const { router } = renderOps('/refunds', { role: 'finance' });
    await findHeading('Refunds');
    await userEvent.type(screen.getByLabelText('Payment reference or id'), 'a42c5fab');
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    await waitFor(() => expect(currentPath(router)).toBe('/search?q=a42c5fab'));
  });

  it('opens a payment to refund by its id, in any case', async () => {
    fakeApi({ [REQUESTS]: [], [`GET /ops/payments/${PAYMENT_ID}`]: pending });
    const { router } = renderOps('/refunds', { role: 'finance' });
    await userEvent.type(await screen.findByLabelText('Payment reference or id'), ` ${PAYMENT_ID.toUpperCase()} `);
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    await waitFor(() => expect(currentPath(router)).toBe(`/payments/${PAYMENT_ID}`));
  });
});
