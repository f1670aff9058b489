import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { payment, PAYMENT_ID } from '../test-data.ts';
import { findHeading, OPERATOR_ID, renderOps } from '../test-render.tsx';

const REQUESTS = 'GET /ops/refund-requests';
const PAYMENT = `GET /ops/payments/${PAYMENT_ID}`;
const REFUND = `POST /ops/payments/${PAYMENT_ID}/refunds`;
const REQUEST_ID = 'e2f3a4b5-c6d7-4e8f-9a0b-1c2d3e4f5a6b';
const waiting = {
  id: REQUEST_ID,
  status: 'pending' as const,
  payment_id: PAYMENT_ID,
  amount_cents: 12_000,
  reason: 'Charged twice',
  requested_by: 'f3a4b5c6-d7e8-4f9a-8b1c-2d3e4f5a6b7c',
  created_at: '2026-03-02T09:30:00Z',
};
const refunded = { status: 'refunded', payment_status: 'partially_refunded', request_id: null };

async function findPayment() {
  await userEvent.type(await screen.findByLabelText('Payment id'), ` ${PAYMENT_ID} `);
  await userEvent.click(screen.getByRole('button', { name: 'Find' }));
  return screen.findByText(/refunded so far/);
}

async function refund(amount: string, reason: string) {
  await userEvent.type(screen.getByLabelText('Amount (EUR)'), amount);
  await userEvent.type(screen.getByLabelText('Reason'), reason);
  await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
}

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

  it('approves another operator’s request, and lets nobody approve their own', async () => {
    const approve = `POST /ops/refund-requests/${REQUEST_ID}/approve`;
    const own = { ...waiting, id: 'a4b5c6d7-e8f9-4a0b-9c1d-2e3f4a5b6c7d', requested_by: OPERATOR_ID, reason: 'Mine' };
    let decided = false;
    const api = fakeApi({
      [REQUESTS]: () => (decided ? [own] : [waiting, own]),
      [approve]: () => {
        decided = true;
        return refunded;
      },
    });
    renderOps('/refunds', { role: 'finance' });
    const table = await screen.findByRole('table', { name: 'Refunds waiting for approval' });
    const [, theirs, mine] = within(table).getAllByRole('row');
    expect(theirs).toHaveTextContent('120.00 EUR');
    expect(mine).toHaveTextContent('Your request: another operator approves');
    expect(within(mine!).queryByRole('button')).toBeNull();
    await userEvent.click(within(theirs!).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByText('Charged twice')).toBeNull());
    expect(api.sent(approve)).toHaveLength(1);
  });

  it('declines a request, and shows why a decision was refused', async () => {
    const decline = `POST /ops/refund-requests/${REQUEST_ID}/decline`;
    fakeApi({ [REQUESTS]: [waiting], [decline]: apiError(409, 'already_decided', 'Another operator decided it.') });
    renderOps('/refunds', { role: 'finance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Another operator decided it.')).toBeInTheDocument();
  });

  it('finds a payment and refunds part of it in cents, with one key per typed refund', async () => {
    const api = fakeApi({ [REQUESTS]: [], [PAYMENT]: payment(), [REFUND]: refunded });
    renderOps('/refunds', { role: 'finance' });
    expect(await findPayment()).toHaveTextContent('paid 50.00 EUR');
    await refund('12,30', 'Charged twice');
    expect(await screen.findByText('Refunded. The payment is now partially_refunded.')).toBeInTheDocument();
    const [sent] = api.sent(REFUND);
    expect(sent!.body).toEqual({ amount_cents: 1_230, reason: 'Charged twice' });
    expect(sent!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends a retried refund with the same key, and a changed one with a new key', async () => {
    let attempts = 0;
    const api = fakeApi({
      [REQUESTS]: [],
      [PAYMENT]: payment(),
      [REFUND]: () => (attempts++ < 2 ? apiError(503, 'provider_unavailable', 'The provider did not answer.') : refunded),
    });
    renderOps('/refunds', { role: 'finance' });
    await findPayment();
    await refund('5', 'Goodwill');
    expect(await screen.findByText('The provider did not answer.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    await waitFor(() => expect(api.sent(REFUND)).toHaveLength(2));
    await userEvent.type(screen.getByLabelText('Amount (EUR)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText(/^Refunded\./)).toBeInTheDocument();
    const keys = api.sent(REFUND).map((request) => request.headers.get('idempotency-key'));
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
    expect(api.sent(REFUND)[2]!.body).toEqual({ amount_cents: 5_000, reason: 'Goodwill' });
  });

  it('refuses an amount that is not one, and a payment id that is not one, without asking the API', async () => {
    const api = fakeApi({ [REQUESTS]: [], [PAYMENT]: payment() });
    renderOps('/refunds', { role: 'finance' });
    await findHeading('Refunds');
    await userEvent.type(screen.getByLabelText('Payment id'), 'pay_123');
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByText('Enter a payment id (a UUID).')).toBeInTheDocument();
    expect(api.sent(PAYMENT)).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('Payment id'));
    await findPayment();
    await refund('12.345', 'Charged twice');
    expect(await screen.findByText('Enter an amount in euros above zero, e.g. 12.50.')).toBeInTheDocument();
  });

  it('says when a refund waits for a second operator', async () => {
    fakeApi({
      [REQUESTS]: [],
      [PAYMENT]: payment(),
      [REFUND]: { status: 'awaiting_approval', payment_status: 'succeeded', request_id: REQUEST_ID },
    });
    renderOps('/refunds', { role: 'finance' });
    await findPayment();
    await refund('500', 'Large refund');
    expect(await screen.findByRole('status')).toHaveTextContent('waits for a second finance operator');
  });

  it('says it is looking the payment up', async () => {
    fakeApi({ [REQUESTS]: [], [PAYMENT]: pending });
    renderOps('/refunds', { role: 'finance' });
    await userEvent.type(await screen.findByLabelText('Payment id'), PAYMENT_ID);
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByRole('status', { name: 'Looking up the payment…' })).toBeInTheDocument();
  });

  it('keeps the refund form in place while the payment reloads after a refund', async () => {
    let lookups = 0;
    fakeApi({
      [REQUESTS]: [],
      [PAYMENT]: () => (lookups++ === 0 ? payment() : pending()),
      [REFUND]: refunded,
    });
    renderOps('/refunds', { role: 'finance' });
    await findPayment();
    await refund('1', 'Goodwill');
    expect(await screen.findByText('Refunded. The payment is now partially_refunded.')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Looking up the payment…' })).toBeNull();
  });

  it('says why a payment cannot be found', async () => {
    fakeApi({ [REQUESTS]: [], [PAYMENT]: apiError(404, 'not_found', 'No such payment.') });
    renderOps('/refunds', { role: 'finance' });
    await userEvent.type(await screen.findByLabelText('Payment id'), PAYMENT_ID);
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    expect(await screen.findByText('No such payment.')).toBeInTheDocument();
  });
});
