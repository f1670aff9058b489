import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_FEE_CENTS } from '@tipcard/shared/payouts/schemas';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { createSandboxRail } from './payout-rail.ts';
import { setSchedule } from './payout-schedules.routes.test-support.ts';
import { fundMain, PAYOUT_TEST_ENV, runPayoutWork, staffWithMain, UK_METHOD } from './payouts.test-support.ts';

type Staff = Awaited<ReturnType<typeof staffWithMain>>;
const DAY = 86_400_000;

const stateOf = async (t: TestApp, staff: Staff) =>
  (await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/payout-schedule`, token: staff.jwt })).body.data;

const rows = async <T>(t: TestApp, query: ReturnType<typeof sql>) =>
  ((await t.app.db.execute(query)) as unknown as { rows: T[] }).rows;

const settle = (t: TestApp) =>
  runPayoutWork(
    { db: t.app.db, log: t.app.log, rail: createSandboxRail(t.app.db, 0), debtor: t.app.config.payouts.debtor },
    t.clock.now(),
  );

describe('payout schedule: setting it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PAYOUT_TEST_ENV });
  });
  afterAll(() => t.close());

  it('is in force only once the texted code is entered, and names its next run', async () => {
    const staff = await staffWithMain(t, 0);
    expect(await stateOf(t, staff)).toEqual({ schedule: null, pending_change: null, last_run: null });
    const asked = await t.call({
      method: 'PUT',
      url: `/api/clients/${staff.clientId}/payout-schedule`,
      token: staff.jwt,
      payload: { kind: 'weekly', weekday: 1, method_id: staff.methodId },
    });
    expect(asked.status).toBe(202);
    expect(asked.body.data.schedule).toBeNull();
    expect(asked.body.data.pending_change).toMatchObject({ kind: 'weekly', weekday: 1 });
    const wrong = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/payout-schedule/confirm`,
      token: staff.jwt,
      payload: {
        change_id: asked.body.data.pending_change.id,
        code: '000000' === (await t.lastCode(staff.phone)) ? '111111' : '000000',
      },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('wrong_code');
    const confirmed = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/payout-schedule/confirm`,
      token: staff.jwt,
      payload: { change_id: asked.body.data.pending_change.id, code: await t.lastCode(staff.phone) },
    });
    expect(confirmed.status).toBe(200);
    // Friday 20 November 2026, 12:00 in Riga: the next Monday at 09:00 Riga (UTC+2 in winter).
    expect(confirmed.body.data.schedule).toMatchObject({
      kind: 'weekly',
      weekday: 1,
      status: 'active',
      paused_for: null,
      next_run_at: '2026-11-23T07:00:00.000Z',
    });
    expect(confirmed.body.data.pending_change).toBeNull();
    // The code is used up.
    const again = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/payout-schedule/confirm`,
      token: staff.jwt,
      payload: { change_id: asked.body.data.pending_change.id, code: await t.lastCode(staff.phone) },
    });
    expect(again.body.code).toBe('wrong_code');
  });

  it('refuses another user’s method, a threshold below minimum plus fee, and another user’s client', async () => {
    const staff = await staffWithMain(t, 0);
    const other = await staffWithMain(t, 0);
    const put = (who: Staff, clientId: string, payload: object) =>
      t.call({ method: 'PUT', url: `/api/clients/${clientId}/payout-schedule`, token: who.jwt, payload });
    const foreignMethod = await put(staff, staff.clientId, { kind: 'weekly', weekday: 2, method_id: other.methodId });
    expect(foreignMethod.status).toBe(422);
    expect(foreignMethod.body.errors?.method_id ?? foreignMethod.body.code).toBeTruthy();
    const low = await put(staff, staff.clientId, { kind: 'threshold', threshold_cents: 400, method_id: staff.methodId });
    expect(low.status).toBe(422);
    const badDay = await put(staff, staff.clientId, { kind: 'monthly', month_day: 32, method_id: staff.methodId });
    expect(badDay.status).toBe(422);
    const foreignClient = await put(staff, other.clientId, { kind: 'weekly', weekday: 2, method_id: staff.methodId });
    expect(foreignClient.status).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `/api/clients/${other.clientId}/payout-schedule`, token: staff.jwt })).status,
    ).toBe(404);
  });

  it('kills the code after five wrong tries, and a cancellation kills a waiting change', async () => {
    const staff = await staffWithMain(t, 0);
    const asked = await t.call({
      method: 'PUT',
      url: `/api/clients/${staff.clientId}/payout-schedule`,
      token: staff.jwt,
      payload: { kind: 'monthly', month_day: 31, method_id: staff.methodId },
    });
    const code = await t.lastCode(staff.phone);
    const wrongCode = code === '123456' ? '654321' : '123456';
    const codes: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const answer = await t.call({
        method: 'POST',
        url: `/api/clients/${staff.clientId}/payout-schedule/confirm`,
        token: staff.jwt,
        payload: { change_id: asked.body.data.pending_change.id, code: wrongCode },
      });
      codes.push(answer.body.code);
    }
    expect(codes).toEqual(['wrong_code', 'wrong_code', 'wrong_code', 'wrong_code', 'too_many_attempts']);
    const right = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/payout-schedule/confirm`,
      token: staff.jwt,
      payload: { change_id: asked.body.data.pending_change.id, code },
    });
    expect(right.body.code).toBe('too_many_attempts');

    const second = await t.call({
      method: 'PUT',
      url: `/api/clients/${staff.clientId}/payout-schedule`,
      token: staff.jwt,
      payload: { kind: 'monthly', month_day: 31, method_id: staff.methodId },
    });
    const secondCode = await t.lastCode(staff.phone);
    const cancelled = await t.call({ method: 'DELETE', url: `/api/clients/${staff.clientId}/payout-schedule`, token: staff.jwt });
    expect(cancelled.body.data).toEqual({ schedule: null, pending_change: null, last_run: null });
    const late = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/payout-schedule/confirm`,
      token: staff.jwt,
      payload: { change_id: second.body.data.pending_change.id, code: secondCode },
    });
    expect(late.body.code).toBe('wrong_code');
    // Never logged or answered: only the SMS carries it.
    expect(JSON.stringify(second.body)).not.toContain(secondCode);
  });
});

describe('payout schedule: runs', () => {
  let t: TestApp;
  // Money arrives through signed sandbox webhooks, which must be fresh: every account is funded before the clock moves.
  let paid: Staff, poor: Staff, saver: Staff, unverified: Staff, leaving: Staff, racers: Staff[];
  beforeAll(async () => {
    t = await createTestApp({ env: { ...PAYOUT_TEST_ENV, VERIFICATION_LIMIT_CENTS: '5000' } });
    // One at a time: each waits for its own tips' release, which a concurrent release run could be holding.
    racers = [];
    for (let i = 0; i < 6; i += 1) racers.push(await staffWithMain(t, 3000));
    paid = await staffWithMain(t, 2500);
    poor = await staffWithMain(t, 400);
    saver = await staffWithMain(t, 1000);
    unverified = await staffWithMain(t, 6000);
    leaving = await staffWithMain(t, 2000);
  });
  afterAll(() => t.close());

  /** The state as the owner's GET answers it, read through the service (the access token does not outlive the clock's jumps). */
  const stateOf = (staff: Staff) => t.app.services.payoutSchedules.get(staff.userId, staff.clientId);
  const advanceTo = (iso: string) => t.clock.advance(Math.max(0, new Date(iso).getTime() - t.clock.now().getTime()));
  /** A fresh access token after the test clock moved past the old one's 15 minutes, as the app signs in again. */
  async function signedIn<S extends Staff>(staff: S): Promise<S> {
    await t.call({ method: 'POST', url: '/api/request-otp', payload: { username: staff.phone } });
    const answer = await t.call({
      method: 'POST',
      url: '/api/login_check',
      payload: { username: staff.phone, password: await t.lastCode(staff.phone) },
    });
    return { ...staff, jwt: answer.body.data.jwt as string };
  }

  it('a threshold schedule waits for its amount, then pays once that day', async () => {
    await setSchedule(t, saver, { kind: 'threshold', threshold_cents: 2000 });
    expect(await t.runJob('payouts.run-schedules')).toBe(1);
    expect((await stateOf(saver)).last_run).toBeNull();
    await fundMain(t, saver, 1500);
    t.clock.advance(15 * 60_000);
    await t.runJob('payouts.run-schedules');
    const state = await stateOf(saver);
    expect(state.last_run).toMatchObject({ outcome: 'paid', amount_cents: 2500 - PAYOUT_FEE_CENTS });
    // The next look is the next Riga day (the period is a day).
    expect(state.schedule!.next_run_at).toBe('2026-11-20T22:00:00.000Z');
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('two workers running the job at once make one payout per period', async () => {
    const weekday = isoWeekdayIn(t, DAY);
    const sets = [];
    for (const staff of racers) sets.push(await setSchedule(t, await signedIn(staff), { kind: 'weekly', weekday }));
    const job = t.app.services.jobs.find((j) => j.name === 'payouts.run-schedules')!;
    const worker = async () => {
      let done = 0;
      while (await job.runOne(t.clock.now())) done += 1;
      return done;
    };
    advanceTo(sets[0].schedule.next_run_at);
    const [a, b] = await Promise.all([worker(), worker()]);
    expect(a + b).toBeGreaterThanOrEqual(racers.length);
    const schedulePayouts = (staff: Staff) =>
      rows(t, sql`SELECT id FROM payouts WHERE user_id = ${staff.userId} AND idempotency_key LIKE 'schedule:%'`);
    for (const staff of racers) {
      expect(await rows(t, sql`SELECT period FROM payout_schedule_runs WHERE user_id = ${staff.userId}`)).toHaveLength(1);
      expect(await schedulePayouts(staff)).toHaveLength(1);
      expect((await userBalances(t.app.db, staff.userId)).main).toBe(0);
    }
    // The same period due again (a restarted instance with a stale due time): the database key answers, not a flag in memory.
    const racerIds = racers.map((staff) => staff.userId);
    await rows(
      t,
      sql`UPDATE payout_schedules SET next_run_at = ${sets[0].schedule.next_run_at}::timestamptz WHERE user_id IN ${racerIds}`,
    );
    await Promise.all([worker(), worker()]);
    for (const staff of racers) expect(await schedulePayouts(staff)).toHaveLength(1);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('pays the available balance minus the fee on its day, once, through the ledger, and it arrives', async () => {
    const set = await setSchedule(t, await signedIn(paid), { kind: 'weekly', weekday: isoWeekdayIn(t, 2 * DAY) });
    const due = new Date(set.schedule.next_run_at).getTime();
    expect(await t.runJob('payouts.run-schedules')).toBe(0);
    advanceTo(set.schedule.next_run_at);
    expect(await t.runJob('payouts.run-schedules')).toBeGreaterThanOrEqual(1);
    expect(await t.runJob('payouts.run-schedules')).toBe(0);
    const state = await stateOf(paid);
    expect(state.last_run).toMatchObject({ outcome: 'paid', reason: null, amount_cents: 2500 - PAYOUT_FEE_CENTS });
    expect(new Date(state.schedule!.next_run_at!).getTime()).toBe(due + 7 * DAY);
    expect((await userBalances(t.app.db, paid.userId)).main).toBe(0);
    expect((await settle(t)).paid).toBeGreaterThanOrEqual(1);
    const [payout] = await rows<{ id: string; status: string; amount_cents: string }>(
      t,
      sql`SELECT id, status, amount_cents FROM payouts WHERE user_id = ${paid.userId}`,
    );
    expect({ ...payout, amount_cents: Number(payout!.amount_cents) }).toEqual({
      id: state.last_run!.payout_id,
      status: 'paid',
      amount_cents: 2500 - PAYOUT_FEE_CENTS,
    });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('skips below the minimum and says why', async () => {
    const set = await setSchedule(t, await signedIn(poor), { kind: 'monthly', month_day: 31 });
    advanceTo(set.schedule.next_run_at);
    await t.runJob('payouts.run-schedules');
    expect((await stateOf(poor)).last_run).toMatchObject({ outcome: 'skipped', reason: 'below_minimum', payout_id: null });
    expect((await userBalances(t.app.db, poor.userId)).main).toBe(400);
  });

  it('pauses while verification is required or the account is blocked, tells the user once per pause, and resumes', async () => {
    const set = await setSchedule(t, await signedIn(unverified), { kind: 'weekly', weekday: isoWeekdayIn(t, DAY) });
    const notices = async () =>
      (
        await rows<{ body: string }>(
          t,
          sql`SELECT body FROM outbox_messages WHERE recipient = ${unverified.phone} AND body LIKE '%paused%'`,
        )
      ).length;
    advanceTo(set.schedule.next_run_at);
    await t.runJob('payouts.run-schedules');
    let state = await stateOf(unverified);
    expect(state.schedule!.paused_for).toBe('verification_required');
    expect(state.last_run).toMatchObject({ outcome: 'paused', reason: 'verification_required' });
    t.clock.advance(7 * DAY);
    await t.runJob('payouts.run-schedules');
    expect(await notices()).toBe(1);
    expect((await userBalances(t.app.db, unverified.userId)).main).toBe(6000);

    await rows(
      t,
      sql`INSERT INTO verifications (user_id, kind, status, details, reviewed_at) VALUES (${unverified.userId}, 'person', 'approved', '{}'::jsonb, now())`,
    );
    await rows(t, sql`UPDATE users SET blocked_at = now(), blocked_reason = 'test' WHERE id = ${unverified.userId}`);
    t.clock.advance(7 * DAY);
    await t.runJob('payouts.run-schedules');
    state = await stateOf(unverified);
    expect(state.schedule!.paused_for).toBe('blocked');
    expect(await notices()).toBe(2);

    await rows(t, sql`UPDATE users SET blocked_at = NULL, blocked_reason = NULL WHERE id = ${unverified.userId}`);
    t.clock.advance(7 * DAY);
    await t.runJob('payouts.run-schedules');
    state = await stateOf(unverified);
    expect(state.schedule!.paused_for).toBeNull();
    expect(state.last_run).toMatchObject({ outcome: 'paid', amount_cents: 6000 - PAYOUT_FEE_CENTS });
  });

  it('stops when its payout account is removed', async () => {
    const { jwt } = await signedIn(leaving);
    const second = await t.call({
      method: 'POST',
      url: `/api/clients/${leaving.clientId}/payout-methods`,
      token: jwt,
      payload: UK_METHOD,
    });
    const set = await setSchedule(t, { ...leaving, jwt, methodId: second.body.data.id }, { kind: 'weekly', weekday: 3 });
    expect((await t.call({ method: 'DELETE', url: `/api/payout-methods/${second.body.data.id}`, token: jwt })).status).toBe(200);
    advanceTo(set.schedule.next_run_at);
    await t.runJob('payouts.run-schedules');
    const state = await stateOf(leaving);
    expect(state.schedule).toMatchObject({ status: 'stopped', next_run_at: null });
    expect(state.last_run).toMatchObject({ outcome: 'stopped', reason: 'method_removed' });
    expect((await userBalances(t.app.db, leaving.userId)).main).toBe(2000);
  });
});

/** The ISO weekday `ms` after the test clock's now, in Riga. */
function isoWeekdayIn(t: TestApp, ms: number): number {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Riga' }).format(new Date(t.clock.now().getTime() + ms));
  return ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
}
