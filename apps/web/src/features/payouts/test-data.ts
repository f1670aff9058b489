import type { PayoutScheduleState } from '@tipcard/shared/payouts/schedules';
import type { PayeeCheck, Payout, PayoutMethod, PayoutStatus } from '@tipcard/shared/payouts/schemas';
import { CLIENT_ID } from '../../test/fixtures.ts';

export const PAYOUT_ID = '8d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f60';
export const METHOD_ID = '9e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a70';
export const OTHER_METHOD_ID = 'af6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b80';

export const ROUTES = {
  balances: `GET /clients/${CLIENT_ID}/account`,
  methods: `GET /clients/${CLIENT_ID}/payout-methods`,
  addMethod: `POST /clients/${CLIENT_ID}/payout-methods`,
  checkPayee: `POST /clients/${CLIENT_ID}/payout-methods/check`,
  payouts: `GET /clients/${CLIENT_ID}/payouts`,
  createPayout: `POST /clients/${CLIENT_ID}/payouts`,
  terms: `GET /clients/${CLIENT_ID}/payouts/terms`,
  payout: `GET /payouts/${PAYOUT_ID}`,
  confirm: `POST /payouts/${PAYOUT_ID}/confirm`,
  resend: `POST /payouts/${PAYOUT_ID}/resend`,
  schedule: `GET /clients/${CLIENT_ID}/payout-schedule`,
  setSchedule: `PUT /clients/${CLIENT_ID}/payout-schedule`,
  confirmSchedule: `POST /clients/${CLIENT_ID}/payout-schedule/confirm`,
  cancelSchedule: `DELETE /clients/${CLIENT_ID}/payout-schedule`,
} as const;

/** The payee-name check's answer (decision 0043). */
export function payeeAnswer(result: PayeeCheck['result'] = 'match', bankName: string | null = null): PayeeCheck {
  return { result, bank_name: bankName, checked_at: '2026-03-02T10:00:00Z' };
}

/** No automatic payouts, no change waiting, never run. */
export const NO_SCHEDULE: PayoutScheduleState = { schedule: null, pending_change: null, last_run: null };

/** Main and hold; the hold is released at one time, `releaseAt`, unless the test says more. */
export function balancesAnswer(
  main: number,
  hold = 0,
  releases = hold > 0 ? [{ amount_cents: hold, release_at: '2026-03-03T09:30:00Z' }] : [],
) {
  return {
    account_balances: [
      { type: 'main', balance: main },
      { type: 'hold', balance: hold },
    ],
    hold_releases: releases,
    currency: 'EUR',
  };
}

export function sepaMethod(overrides: Partial<PayoutMethod> = {}): PayoutMethod {
  return {
    id: METHOD_ID,
    kind: 'sepa',
    holder: 'Anna Ozola',
    masked_account: 'LV•• •••• •••• •••• •••• 5001',
    bic: 'HABALV22',
    instant: false,
    is_default: true,
    created_at: '2026-01-10T08:00:00Z',
    payee_check: { result: 'match', bank_name: null, checked_at: '2026-01-10T08:00:00Z' },
    ...overrides,
  };
}

export function ukMethod(overrides: Partial<PayoutMethod> = {}): PayoutMethod {
  return sepaMethod({
    id: OTHER_METHOD_ID,
    kind: 'uk',
    holder: 'Anna Ozola',
    masked_account: '•••• 5678',
    bic: null,
    is_default: false,
    created_at: '2026-02-10T08:00:00Z',
    ...overrides,
  });
}

export function payout(status: PayoutStatus = 'awaiting_confirmation', overrides: Partial<Payout> = {}): Payout {
  return {
    id: PAYOUT_ID,
    status,
    amount_cents: 1_000,
    fee_cents: 200,
    currency: 'EUR',
    instant: false,
    method: { kind: 'sepa', holder: 'Anna Ozola', masked_account: 'LV•• •••• •••• •••• •••• 5001' },
    expected_arrival: '2026-03-03',
    created_at: '2026-03-02T09:30:00Z',
    confirmed_at: status === 'awaiting_confirmation' ? null : '2026-03-02T09:31:00Z',
    paid_at: status === 'paid' ? '2026-03-03T10:00:00Z' : null,
    return_reason: status === 'returned' ? 'AC04' : null,
    code_expires_at: status === 'awaiting_confirmation' ? '2026-03-02T09:40:00Z' : null,
    resend_after_seconds: status === 'awaiting_confirmation' ? 0 : null,
    ...overrides,
  };
}

export const terms = {
  min_amount_cents: 300,
  fee_cents: 200,
  main_balance_cents: 8_450,
  max_amount_cents: 8_250,
  expected_arrival: '2026-03-03',
  currency: 'EUR',
};
