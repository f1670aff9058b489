import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_FEE_CENTS } from '@tipcard/shared/payouts/schemas';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { isInstantReachable } from './instant-reachability.ts';
import { createSandboxRail, SANDBOX_FAILING_IBAN, SANDBOX_INSTANT_TIMEOUT_IBAN } from './payout-rail.ts';
import { createPayoutSteps, type PayoutJobDeps } from './payouts.jobs.ts';
import { codeFor, PAYOUT_TEST_ENV, SEPA_METHOD, staffWithMain, UK_METHOD } from './payouts.test-support.ts';

type Staff = Awaited<ReturnType<typeof staffWithMain>>;
/** An ordinary payout waits an hour at this sandbox bank: what settles at once below is the instant path. */
const SLOW_BANK_MS = 3_600_000;

describe('SEPA Instant payouts (sandbox rail)', () => {
  let t: TestApp;
  let deps: PayoutJobDeps;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...PAYOUT_TEST_ENV, SANDBOX_PAYOUT_DELAY_MS: String(SLOW_BANK_MS) } });
    deps = {
      db: t.app.db,
      log: t.app.log,
      rail: createSandboxRail(t.app.db, SLOW_BANK_MS),
      debtor: t.app.config.payouts.debtor,
      instantTimeoutMs: 300,
    };
  });
  afterAll(() => t.close());

  const addMethod = async (staff: Staff, method: object) =>
    (await t.call({ method: 'POST', url: `/api/clients/${staff.clientId}/payout-methods`, token: staff.jwt, payload: method }))
      .body.data;
  const ask = (staff: Staff, methodId: string, cents: number, instant: boolean) =>
    t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/payouts`,
      token: staff.jwt,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { amount_cents: cents, method_id: methodId, instant },
    });
  async function instantPayout(staff: Staff, methodId: string, cents: number) {
    const created = await ask(staff, methodId, cents, true);
    expect(created.status).toBe(201);
    const confirmed = await t.call({
      method: 'POST',
      url: `/api/payouts/${created.body.data.id}/confirm`,
      token: staff.jwt,
      payload: { code: await codeFor(t, staff.phone, created.body.data.id) },
    });
    expect(confirmed.body.data).toMatchObject({ status: 'in_flight', instant: true, fee_cents: PAYOUT_FEE_CENTS });
    return confirmed.body.data as { id: string; expected_arrival: string };
  }
  const payoutOf = async (staff: Staff, id: string) =>
    (await t.call({ method: 'GET', url: `/api/payouts/${id}`, token: staff.jwt })).body.data;

  it('names which methods are reachable, and refuses instant to one that is not', async () => {
    const staff = await staffWithMain(t, 1000);
    const uk = await addMethod(staff, UK_METHOD);
    const luminor = await addMethod(staff, { ...SEPA_METHOD, iban: 'LV89RIKO0002930000000', bic: 'RIKOLV2X' });
    const methods = (await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/payout-methods`, token: staff.jwt })).body
      .data as { id: string; instant: boolean }[];
    expect(Object.fromEntries(methods.map((m) => [m.id, m.instant]))).toEqual({
      [staff.methodId]: true,
      [uk.id]: false,
      [luminor.id]: false,
    });
    for (const methodId of [uk.id, luminor.id]) {
      const refused = await ask(staff, methodId, 300, true);
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('instant_unreachable');
    }
    expect(isInstantReachable({ kind: 'sepa', bic: 'habalv22' })).toBe(true);
  });

  it('accepted: Paid at the first run of the worker, the same fee as an ordinary payout, arriving today', async () => {
    const staff = await staffWithMain(t, 1000);
    const payout = await instantPayout(staff, staff.methodId, 500);
    expect(payout.expected_arrival).toBe('2026-11-20');
    const steps = createPayoutSteps(deps);
    expect(await steps.submitOne(t.clock.now())).toBe(true);
    expect(await payoutOf(staff, payout.id)).toMatchObject({ status: 'paid', paid_at: t.clock.now().toISOString() });
    expect(await userBalances(t.app.db, staff.userId)).toMatchObject({ main: 1000 - 500 - PAYOUT_FEE_CENTS });
    // Submitting again (a worker that died before recording) changes nothing: one transfer, one payment.
    expect(await steps.submitOne(t.clock.now())).toBe(false);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('rejected: the money and the fee come back at once, with the bank’s reason code', async () => {
    const staff = await staffWithMain(t, 1000);
    const closed = await addMethod(staff, { ...SEPA_METHOD, iban: SANDBOX_FAILING_IBAN, bic: 'HABALV22' });
    const payout = await instantPayout(staff, closed.id, 500);
    expect(await createPayoutSteps(deps).submitOne(t.clock.now())).toBe(true);
    expect(await payoutOf(staff, payout.id)).toMatchObject({ status: 'returned', return_reason: 'AC04' });
    expect(await userBalances(t.app.db, staff.userId)).toMatchObject({ main: 1000 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('no answer by the deadline: left in flight, then the inquiry finds the scheme rejected it (AB05) and everything comes back', async () => {
    const staff = await staffWithMain(t, 1000);
    const silent = await addMethod(staff, { ...SEPA_METHOD, iban: SANDBOX_INSTANT_TIMEOUT_IBAN, bic: 'HABALV22' });
    const payout = await instantPayout(staff, silent.id, 400);
    const steps = createPayoutSteps(deps);
    const started = performance.now();
    expect(await steps.submitOne(t.clock.now())).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(await payoutOf(staff, payout.id)).toMatchObject({ status: 'in_flight' });
    expect(await userBalances(t.app.db, staff.userId)).toMatchObject({ main: 1000 - 400 - PAYOUT_FEE_CENTS });
    expect(await steps.settleOne(t.clock.now())).toBe('returned');
    expect(await payoutOf(staff, payout.id)).toMatchObject({ status: 'returned', return_reason: 'AB05' });
    expect(await userBalances(t.app.db, staff.userId)).toMatchObject({ main: 1000 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('an ordinary payout to the same bank still waits for the bank', async () => {
    const staff = await staffWithMain(t, 1000);
    const created = await ask(staff, staff.methodId, 300, false);
    await t.call({
      method: 'POST',
      url: `/api/payouts/${created.body.data.id}/confirm`,
      token: staff.jwt,
      payload: { code: await codeFor(t, staff.phone, created.body.data.id) },
    });
    const steps = createPayoutSteps(deps);
    expect(await steps.submitOne(t.clock.now())).toBe(true);
    expect(await steps.settleOne(t.clock.now())).toBe('unchanged');
    expect(await payoutOf(staff, created.body.data.id)).toMatchObject({ status: 'in_flight', instant: false });
  });
});
