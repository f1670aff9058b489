import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { auditRecord, payment, PAYMENT_ID, REQUEST_ID, USER_ID } from '../test-data.ts';
import { findHeading, renderOps } from '../test-render.tsx';

const PAYMENT = `GET /ops/payments/${PAYMENT_ID}`;
const REFUND = `POST /ops/payments/${PAYMENT_ID}/refunds`;
const OTHER_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const partial = { status: 'refunded', payment_status: 'succeeded', request_id: null };

async function fillRefund(amount: string, reason: string) {
  await userEvent.type(await screen.findByLabelText('Amount (EUR)'), amount);
  await userEvent.type(screen.getByLabelText('Reason'), reason);
  await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
  return screen.findByRole('dialog', { name: 'Confirm the refund' });
}

describe('the payment page', () => {
  it('says it is loading the payment', async () => {
    fakeApi({ [PAYMENT]: pending });
    renderOps(`/payments/${PAYMENT_ID}`, { role: 'support' });
    expect(await screen.findByRole('status', { name: 'Loading the payment…' })).toBeInTheDocument();
  });

  it('offers to try again when the payment does not load', async () => {
    let calls = 0;
    fakeApi({ [PAYMENT]: () => (calls++ === 0 ? apiError(404, 'not_found', 'No such payment.') : payment()) });
    renderOps(`/payments/${PAYMENT_ID}`, { role: 'support' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No such payment.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await findHeading('Payment 7D3E4F5A')).toBeInTheDocument();
  });

  it('tells the payment’s story: what was paid, for whom, shares, refunds, events, messages and audit', async () => {
    fakeApi({
      [PAYMENT]: payment({
        refunded_cents: 1_000,
        refundable_cents: 4_000,
        shares: [
          {
            user_id: USER_ID,
            platform_account: null,
            net_cents: 4_850,
            fee_cents: 150,
            reversed_net_cents: 1_000,
            reversed_fee_cents: 0,
            released_at: null,
          },
        ],
        refunds: [
          {
            id: REQUEST_ID,
            status: 'rejected',
            amount_cents: 3_000,
            reason: 'Charged twice',
            requested_by: 'maris@ops.example',
            decided_by: 'ilze@ops.example',
            decided_at: '2026-03-02T10:00:00Z',
            decline_reason: 'Only one charge was made',
            failure: null,
            created_at: '2026-03-02T09:45:00Z',
          },
        ],
        events: [
          { event_id: 'evt_1', type: 'payment.succeeded', outcome: 'applied', received_at: '2026-03-02T09:31:00Z' },
          { event_id: 'evt_2', type: 'charge.dispute.created', outcome: 'applied', received_at: '2026-03-03T09:00:00Z' },
        ],
        messages: [
          {
            id: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
            channel: 'email',
            recipient: 'guest@example.lv',
            subject: 'Your Tipcard receipt 7D3E4F5A',
            status: 'sent',
            created_at: '2026-03-02T09:32:00Z',
          },
        ],
        audit: [auditRecord({ action: 'refund.decline', subject_type: 'payment', subject_id: PAYMENT_ID })],
      }),
    });
    renderOps(`/payments/${PAYMENT_ID}`, { role: 'support' });
    expect(await findHeading('Payment 7D3E4F5A')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'its owner' })).toHaveAttribute('href', `/users/${USER_ID}`);
    const shares = screen.getByRole('table', { name: 'Who received what' });
    expect(within(shares).getByRole('link', { name: USER_ID })).toHaveAttribute('href', `/users/${USER_ID}`);
    const refunds = screen.getByRole('table', { name: 'Refunds asked for and made' });
    expect(refunds).toHaveTextContent('Only one charge was made');
    expect(refunds).toHaveTextContent('ilze@ops.example');
    expect(screen.getByRole('table', { name: 'What the provider told us' })).toHaveTextContent('payment.succeeded');
    expect(screen.getByRole('heading', { name: 'Disputes' }).parentElement).toHaveTextContent('charge.dispute.created');
    expect(screen.getByRole('table', { name: 'Messages sent about it' })).toHaveTextContent('email: guest@example.lv');
    expect(screen.getByRole('table', { name: "Operators' actions on this payment" })).toHaveTextContent('refund.decline');
    // Support reads the story; refunds are finance's.
    expect(screen.queryByLabelText('Amount (EUR)')).toBeNull();
  });

  it('refunds only after a confirmation that repeats the amount, the payment and who gets the money back', async () => {
    const api = fakeApi({ [PAYMENT]: payment(), [REFUND]: partial });
    renderOps(`/payments/${PAYMENT_ID}`, { role: 'finance' });
    const dialog = await fillRefund('12,30', 'Charged twice');
    expect(dialog).toHaveTextContent('Give 12.30 EUR back to the guest who paid payment 7D3E4F5A (tip, 50.00 EUR on');
    expect(dialog).toHaveTextContent("It is taken back from Anna's card.");
    expect(dialog).toHaveTextContent('Reason: Charged twice');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.sent(REFUND)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
    const again = await screen.findByRole('dialog', { name: 'Confirm the refund' });
    await userEvent.click(within(again).getByRole('button', { name: 'Refund 12.30 EUR' }));
    await waitFor(() => expect(api.sent(REFUND)).toHaveLength(1));
    const [sent] = api.sent(REFUND);
    expect(sent!.body).toEqual({ amount_cents: 1_230, reason: 'Charged twice' });
    expect(sent!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('after a partial refund says what was refunded, never "now succeeded", and the form is empty again', async () => {
    fakeApi({ [PAYMENT]: payment(), [REFUND]: partial });
    renderOps(`/payments/${PAYMENT_ID}`, { role: 'finance' });
    const dialog = await fillRefund('5', 'Goodwill');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund 5.00 EUR' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Refunded 5.00 EUR. The rest of the payment stays paid.');
    expect(screen.queryByText(/now succeeded/)).toBeNull();
    expect(screen.getByLabelText('Amount (EUR)')).toHaveValue('');
    expect(screen.getByLabelText('Reason')).toHaveValue('');
  });

  it('says when a refund gave back the whole payment, or waits for a second operator', async () => {
    let answer: object = { status: 'refunded', payment_status: 'refunded', request_id: null };
    fakeApi({ [PAYMENT]: payment(), [REFUND]: () => answer });
    renderOps(`/payments/${PAYMENT_ID}`, { role: 'finance' });
    await userEvent.click(within(await fillRefund('50', 'Whole')).getByRole('button', { name: 'Refund 50.00 EUR' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Refunded 50.00 EUR: the payment is now refunded in full.');
    answer = { status: 'awaiting_approval', payment_status: 'succeeded', request_id: REQUEST_ID };
    await userEvent.click(within(await fillRefund('40', 'Large')).getByRole('button', { name: 'Refund 40.00 EUR' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('waits for a second finance operator'));
  });

  it('keeps nothing of one payment’s refund when the next payment is opened', async () => {
    fakeApi({
      [PAYMENT]: payment(),
      [`GET /ops/payments/${OTHER_ID}`]: payment({ id: OTHER_ID, reference: '1A2B3C4D' }),
      [REFUND]: partial,
    });
    const { router } = renderOps(`/payments/${PAYMENT_ID}`, { role: 'finance' });
    await userEvent.click(within(await fillRefund('5', 'Goodwill')).getByRole('button', { name: 'Refund 5.00 EUR' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Refunded 5.00 EUR.');
    await userEvent.type(screen.getByLabelText('Amount (EUR)'), '7');
    await router.navigate(`/payments/${OTHER_ID}`);
    expect(await findHeading('Payment 1A2B3C4D')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByLabelText('Amount (EUR)')).toHaveValue('');
  });

  it('sends a retried refund with the same key, and a changed one with a new key', async () => {
    let attempts = 0;
    const api = fakeApi({
      [PAYMENT]: payment(),
      [REFUND]: () => (attempts++ < 1 ? apiError(503, 'provider_unavailable', 'The provider did not answer.') : partial),
    });
    renderOps(`/payments/${PAYMENT_ID}`, { role: 'finance' });
    await userEvent.click(within(await fillRefund('5', 'Goodwill')).getByRole('button', { name: 'Refund 5.00 EUR' }));
    expect(await screen.findByText('The provider did not answer.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Confirm the refund' })).getByRole('button', { name: 'Refund 5.00 EUR' }),
    );
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Refunded 5.00 EUR.'));
    await userEvent.click(within(await fillRefund('6', 'Goodwill')).getByRole('button', { name: 'Refund 6.00 EUR' }));
    await waitFor(() => expect(api.sent(REFUND)).toHaveLength(3));
    const keys = api.sent(REFUND).map((request) => request.headers.get('idempotency-key'));
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('refuses an amount that is not one without asking, and offers no refund of what cannot be refunded', async () => {
    const api = fakeApi({ [PAYMENT]: payment() });
    renderOps(`/payments/${PAYMENT_ID}`, { role: 'finance' });
    await userEvent.type(await screen.findByLabelText('Amount (EUR)'), '12.345');
    await userEvent.type(screen.getByLabelText('Reason'), 'Charged twice');
    await userEvent.click(screen.getByRole('button', { name: 'Refund…' }));
    expect(await screen.findByText('Enter an amount in euros above zero, e.g. 12.50.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent(REFUND)).toHaveLength(0);

    fakeApi({ [PAYMENT]: payment({ status: 'refunded', refunded_cents: 5_000, refundable_cents: 0 }) });
    renderOps(`/payments/${PAYMENT_ID}`, { role: 'finance' });
    expect(await screen.findByText('Nothing of this payment can be refunded.')).toBeInTheDocument();
  });
});
