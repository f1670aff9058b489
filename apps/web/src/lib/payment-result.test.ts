import { describe, expect, it } from 'vitest';
import type { PublicPayment } from '@tipcard/shared/payments/schemas';
import { initialResultState, POLL_TIMEOUT_MS, resultReducer, type ResultEvent, type ResultState } from './payment-result.ts';

const payment = (status: PublicPayment['status']): PublicPayment => ({
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  card_id: '9b2f6b8e-2a55-4c4e-9a43-6a8f3a6c1d10',
  status,
  amount_cents: 500,
  fee_cents: 25,
  total_cents: 500,
  receipt_url: null,
  cover_fee: false,
  currency: 'EUR',
  checkout_url: 'https://checkout.example/1',
  created_at: '2025-01-01T12:00:00.000Z',
});

const run = (events: ResultEvent[], start = 0): ResultState => events.reduce(resultReducer, initialResultState(start));

describe('the return page state machine', () => {
  it('keeps checking while the payment is pending, then shows success', () => {
    const pending = run([{ type: 'status', payment: payment('pending'), now: 1_000 }]);
    expect(pending.phase).toBe('checking');
    const done = resultReducer(pending, { type: 'status', payment: payment('succeeded'), now: 2_000 });
    expect(done.phase).toBe('succeeded');
    expect(done.payment?.card_id).toBe(payment('succeeded').card_id);
  });

  it('shows the failure state for a failed or refunded payment, and canceled for a canceled one', () => {
    expect(run([{ type: 'status', payment: payment('failed'), now: 1 }]).phase).toBe('failed');
    expect(run([{ type: 'status', payment: payment('refunded'), now: 1 }]).phase).toBe('failed');
    expect(run([{ type: 'status', payment: payment('canceled'), now: 1 }]).phase).toBe('canceled');
  });

  it('says timeout once the payment is still pending after 30 seconds', () => {
    expect(run([{ type: 'status', payment: payment('pending'), now: POLL_TIMEOUT_MS - 1 }]).phase).toBe('checking');
    expect(run([{ type: 'status', payment: payment('pending'), now: POLL_TIMEOUT_MS }]).phase).toBe('timeout');
  });

  it('rides out a poor connection until the deadline, then says timeout', () => {
    expect(run([{ type: 'error', now: 5_000 }]).phase).toBe('checking');
    expect(
      run([
        { type: 'error', now: 5_000 },
        { type: 'error', now: POLL_TIMEOUT_MS + 1 },
      ]).phase,
    ).toBe('timeout');
  });

  it('checks again for another 30 seconds after a timeout, and can still succeed', () => {
    const timedOut = run([{ type: 'status', payment: payment('pending'), now: POLL_TIMEOUT_MS }]);
    const again = resultReducer(timedOut, { type: 'check_again', now: 40_000 });
    expect(again).toMatchObject({ phase: 'checking', deadline: 40_000 + POLL_TIMEOUT_MS });
    expect(resultReducer(again, { type: 'status', payment: payment('succeeded'), now: 41_000 }).phase).toBe('succeeded');
  });

  it('never overwrites a final outcome with a late answer', () => {
    const done = run([{ type: 'status', payment: payment('succeeded'), now: 1 }]);
    expect(resultReducer(done, { type: 'status', payment: payment('pending'), now: 2 })).toBe(done);
    expect(resultReducer(done, { type: 'error', now: POLL_TIMEOUT_MS * 2 })).toBe(done);
    expect(resultReducer(done, { type: 'check_again', now: 3 })).toBe(done);
  });

  it('fails at once when there is no such payment', () => {
    expect(run([{ type: 'not_found' }]).phase).toBe('failed');
  });
});
