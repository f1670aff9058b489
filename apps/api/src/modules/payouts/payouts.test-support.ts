import { expect } from 'vitest';
import { TIP_MAX_CENTS, TIP_MIN_CENTS } from '@tipcard/shared/payments/fees';
import { receiveTip } from '../../test/sandbox-events.ts';
import { signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { createSandboxRail } from './payout-rail.ts';
import { createPayoutSteps, type PayoutJobDeps } from './payouts.jobs.ts';
import { payoutRef } from './payouts.service.ts';

/** Puts `cents` on the owner's main balance the way money really arrives: paid tips, their webhooks, settlement (FEE_PERCENT=0, HOLD_HOURS=0). */
export async function fundMain(t: TestApp, owner: { cardId: string }, cents: number) {
  for (let left = cents; left > 0; left -= TIP_MAX_CENTS) await receiveTip(t, owner.cardId, Math.min(left, TIP_MAX_CENTS));
  await t.runJob('payments.release');
}

/** The code texted for this payout (the SMS names the payout's short reference). */
export async function codeFor(t: TestApp, phone: string, payoutId: string): Promise<string> {
  // The dev outbox, newest first, as a developer reads it (200 is its page limit and the concurrency test's size).
  const outbox = await t.call({ method: 'GET', url: `/api/dev/outbox?limit=200&to=${encodeURIComponent(phone)}` });
  const messages: { body: string }[] = outbox.body.data;
  const body =
    messages.find((message) => message.body.includes(`withdrawal ${payoutRef(payoutId)}:`) && message.body.includes('code is'))
      ?.body ?? '';
  const code = /code is (\d{6})/.exec(body)?.[1];
  if (!code) throw new Error(`no code texted for payout ${payoutId}`);
  return code;
}

/** A withdrawal asked for and confirmed with its texted code, as the user does it; answers both answers. */
export async function withdraw(
  t: TestApp,
  owner: { clientId: string; jwt: string; phone: string },
  cents: number,
  methodId: string,
) {
  const created = await t.call({
    method: 'POST',
    url: `/api/clients/${owner.clientId}/payouts`,
    token: owner.jwt,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { amount_cents: cents, method_id: methodId },
  });
  expect(created.status).toBe(201);
  const confirmed = await t.call({
    method: 'POST',
    url: `/api/payouts/${created.body.data.id}/confirm`,
    token: owner.jwt,
    payload: { code: await codeFor(t, owner.phone, created.body.data.id) },
  });
  return { created, confirmed };
}

/** A test app where money is withdrawable at once, free and without the identity check: payouts are the subject. */
export const PAYOUT_TEST_ENV = {
  FEE_PERCENT: '0',
  HOLD_HOURS: '0',
  SANDBOX_PAYOUT_DELAY_MS: '0',
  VERIFICATION_LIMIT_CENTS: '100000',
  PAYOUT_REQUESTS_PER_HOUR: '1000',
};

export const SEPA_METHOD = {
  kind: 'sepa',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  holder_last_name: 'Müller',
  address: 'Hauptstraße 1, Berlin',
} as const;
export const UK_METHOD = {
  kind: 'uk',
  account_number: '31926819',
  sort_code: '60-16-13',
  holder_name: 'Jane Smith',
  address: '1 High St, London',
} as const;

/**
 * Runs the payout jobs' steps until none has anything due at `now`, as the runner's ticks would, and counts what
 * each did; a fault injected by `deps.fault` ends the run there, as the process dying would.
 */
export async function runPayoutWork(deps: PayoutJobDeps, now: Date) {
  const steps = createPayoutSteps(deps);
  const expired = await steps.expire(now);
  let submitted = 0;
  while (await steps.submitOne(now)) submitted += 1;
  const settled = { paid: 0, returned: 0, unchanged: 0 };
  for (let outcome = await steps.settleOne(now); outcome; outcome = await steps.settleOne(now)) settled[outcome] += 1;
  let batches = 0;
  for (const kind of ['sepa', 'uk'] as const) while (await steps.batchOne(kind, now)) batches += 1;
  return { expired, submitted, paid: settled.paid, returned: settled.returned, batches };
}

/**
 * A staff member with `cents` on main and a payout method (FEE_PERCENT=0, HOLD_HOURS=0, SANDBOX_PAYOUT_DELAY_MS=0).
 * Below the smallest tip (1 EUR) the balance is what an ordinary withdrawal of 3 EUR (+2 EUR fee) leaves of a bigger
 * tip, paid by the bank before the test goes on.
 */
export async function staffWithMain(t: TestApp, cents: number, card: Parameters<typeof signUpWithCard>[1] = {}) {
  const owner = await signUpWithCard(t, card);
  const method = await t.call({
    method: 'POST',
    url: `/api/clients/${owner.clientId}/payout-methods`,
    token: owner.jwt,
    payload: SEPA_METHOD,
  });
  const methodId: string = method.body.data.id;
  if (cents >= TIP_MIN_CENTS) await fundMain(t, owner, cents);
  else if (cents > 0) {
    await fundMain(t, owner, cents + 500);
    expect((await withdraw(t, owner, 300, methodId)).confirmed.status).toBe(200);
    // Other tests' payouts in flight may be paid by the same run.
    expect(
      (
        await runPayoutWork(
          { db: t.app.db, log: t.app.log, rail: createSandboxRail(t.app.db, 0), debtor: t.app.config.payouts.debtor },
          t.clock.now(),
        )
      ).paid,
    ).toBeGreaterThanOrEqual(1);
  }
  expect((await userBalances(t.app.db, owner.userId)).main).toBe(cents);
  return { ...owner, methodId };
}
