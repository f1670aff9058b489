import type { Transaction } from '@tipcard/shared/transactions/schemas';

/** A tip on hold, with the guest's stars and message, as the history and the overview list it. */
export function tipTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    type: 'PAYIN',
    status: 'HOLD',
    amount_cents: 1_000,
    fee_cents: 50,
    currency: 'EUR',
    created_at: '2026-03-02T09:30:00Z',
    settled_at: null,
    description: 'Tip',
    detail: { kind: 'tip', card: 'Anna' },
    message: 'Thank you, lovely service!',
    rating: 5,
    ...overrides,
  };
}

/** A payout line: money going out, no stars. */
export function payoutTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return tipTransaction({
    id: '6b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e',
    type: 'PAYOUT',
    status: 'PAID',
    amount_cents: -2_500,
    fee_cents: 200,
    description: 'Payout',
    detail: { kind: 'payout', account: 'LV•• •••• 5001' },
    message: null,
    rating: null,
    ...overrides,
  });
}
