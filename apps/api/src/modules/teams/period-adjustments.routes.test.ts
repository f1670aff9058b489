import { and, eq, sql } from 'drizzle-orm';
import * as fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { teamPeriodAdjustments, teamPeriodEvents } from '../../db/schema/teams.ts';
import { transactions } from '../../db/schema/transactions.ts';
import { users } from '../../db/schema/users.ts';
import { textOfPdf } from '../../test/pdf.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { codeFor, PAYOUT_TEST_ENV, SEPA_METHOD } from '../payouts/payouts.test-support.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { teamFixtures, type Staff } from './teams.fixtures.ts';

const HOUR = 3_600_000;
let t: TestApp;

beforeAll(async () => {
  // Tips free of fees and released at once: the members' main balances are what the adjustments move.
  t = await createTestApp({ env: PAYOUT_TEST_ENV });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
});

const { staff, team, later } = teamFixtures(() => t);

const post = (who: Staff, teamId: string, path: string, payload?: object) =>
  t.call({ method: 'POST', url: `/api/teams/${teamId}/periods/${path}`, token: who.jwt, ...(payload && { payload }) });
const adjust = (who: Staff, teamId: string, month: string, payload: object, key: string = crypto.randomUUID()) =>
  t.call({
    method: 'POST',
    url: `/api/teams/${teamId}/periods/${month}/adjustments`,
    token: who.jwt,
    headers: { 'idempotency-key': key },
    payload,
  });
const periodOf = async (who: Staff, teamId: string, month: string) => {
  const periods = (await t.call({ method: 'GET', url: `/api/teams/${teamId}/periods`, token: who.jwt })).body.data as {
    month: string;
    can_adjust: boolean;
    adjustments: { id: string }[];
  }[];
  return periods.find((period) => period.month === month)!;
};
const textsTo = async (person: Staff) =>
  (
    (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(person.phone)}` })).body.data as {
      body: string;
    }[]
  ).map((message) => message.body);
const mainOf = async (person: Staff) => (await userBalances(t.app.db, person.userId)).main;
const adjustmentRows = (teamId: string) =>
  t.app.db.select().from(teamPeriodAdjustments).where(eq(teamPeriodAdjustments.teamId, teamId));

/** Moves the test clock to `iso` (never back) and signs the people in again. */
async function until(iso: string, ...people: Staff[]) {
  const ms = new Date(iso).getTime() - t.clock.now().getTime();
  expect(ms).toBeGreaterThanOrEqual(0);
  await later(ms, ...people);
}

/**
 * A team of `size` with tips of 30.00 and 30.03 in the test clock's month, released to the members' main balances;
 * the month then ends, and the admin closes it and locks it once the 24 hours are over.
 */
async function lockedTeam(size: number, { lock = true } = {}) {
  const made = await team(size);
  const month = t.clock.now().toISOString().slice(0, 7);
  await receiveTip(t, made.card_id, 3_000);
  await receiveTip(t, made.card_id, 3_003);
  await t.runJob('payments.release');
  const next = new Date(`${month}-01T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  await until(new Date(next.getTime() + 9 * HOUR).toISOString(), ...made.members);
  expect((await post(made.admin, made.id, `${month}/close`)).status).toBe(200);
  await later(25 * HOUR, ...made.members);
  if (lock) expect((await post(made.admin, made.id, `${month}/lock`)).status).toBe(200);
  return { ...made, month };
}

describe('adjustments of a locked period', () => {
  it('moves cents main to main with its reason, audited, shown to the two members, in their history, records and texts', async () => {
    const { id, admin, members, month } = await lockedTeam(4);
    const [, bob, carol, dave] = members as [Staff, Staff, Staff, Staff];
    await t.app.db.update(users).set({ language: 'fr' }).where(eq(users.id, carol.userId));
    const before = { bob: await mainOf(bob), carol: await mainOf(carol), admin: await mainOf(admin), dave: await mainOf(dave) };
    expect(before.bob).toBeGreaterThanOrEqual(1_500);
    expect((await periodOf(admin, id, month)).can_adjust).toBe(true);
    expect((await periodOf(bob, id, month)).can_adjust).toBe(false);

    const key = crypto.randomUUID();
    const body = {
      from_user_id: bob.userId,
      to_user_id: carol.userId,
      amount_cents: 350,
      reason: 'Carol’s hours on the 12th were missing.',
    };
    const made = await adjust(admin, id, month, body, key);
    expect(made.status).toBe(201);
    const adjustment = made.body.data.adjustment;
    expect(adjustment).toMatchObject({
      from: { user_id: bob.userId, public_name: 'Member 2' },
      to: { user_id: carol.userId, public_name: 'Member 3' },
      amount_cents: 350,
      reason: body.reason,
      created_at: t.clock.now().toISOString(),
      created_by: { user_id: admin.userId, public_name: 'Anna' },
    });
    expect(made.body.data.period).toMatchObject({ state: 'locked', adjustments: [adjustment] });

    // The money moved, exactly, and nobody else's did.
    expect(await mainOf(bob)).toBe(before.bob - 350);
    expect(await mainOf(carol)).toBe(before.carol + 350);
    expect(await mainOf(admin)).toBe(before.admin);
    expect(await mainOf(dave)).toBe(before.dave);

    // A retry answers the same adjustment and changes nothing; the key with another body is refused.
    const again = await adjust(admin, id, month, body, key);
    expect(again.status).toBe(201);
    expect(again.body.data.adjustment).toEqual(adjustment);
    expect(await adjust(admin, id, month, { ...body, amount_cents: 351 }, key)).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused' },
    });
    expect(await mainOf(bob)).toBe(before.bob - 350);
    expect(await adjustmentRows(id)).toHaveLength(1);

    // Audited: an `adjusted` event naming the adjustment, by the admin.
    const events = await t.app.db
      .select()
      .from(teamPeriodEvents)
      .where(and(eq(teamPeriodEvents.teamId, id), eq(teamPeriodEvents.month, month), eq(teamPeriodEvents.kind, 'adjusted')));
    expect(events).toMatchObject([{ userId: admin.userId, adjustmentId: adjustment.id }]);

    // The admin and the two members see it; another member does not.
    expect((await periodOf(bob, id, month)).adjustments).toEqual([adjustment]);
    expect((await periodOf(carol, id, month)).adjustments).toEqual([adjustment]);
    expect((await periodOf(admin, id, month)).adjustments).toEqual([adjustment]);
    expect((await periodOf(dave, id, month)).adjustments).toEqual([]);

    // Both are texted once, in their language.
    const bobTexts = (await textsTo(bob)).filter((text) => text.includes('moved'));
    expect(bobTexts).toEqual([
      'Tipcard: the admin moved €3.50 from your balance to another member for the tips of November 2026. Team: Bar Riga (Bar Riga). The reason is on the Workplace page.',
    ]);
    const carolTexts = (await textsTo(carol)).filter((text) => text.includes('déplacé'));
    expect(carolTexts).toHaveLength(1);
    expect(carolTexts[0]!.replace(/[\u00A0\u202F]/g, ' ')).toContain('a déplacé 3,50 € vers votre solde');

    // Both histories show it, PAID at once: the giver's side as money out, the receiver's as money in.
    const history = await t.app.db
      .select({
        userId: transactions.userId,
        type: transactions.type,
        status: transactions.status,
        amount: transactions.amountCents,
        detail: transactions.detail,
      })
      .from(transactions)
      .where(sql`${transactions.detail}->>'kind' in ('team_adjustment', 'team_adjustment_given')`);
    expect(history).toEqual(
      expect.arrayContaining([
        {
          userId: bob.userId,
          type: 'PAYOUT',
          status: 'PAID',
          amount: 350,
          detail: { kind: 'team_adjustment_given', team: 'Bar Riga', month },
        },
        {
          userId: carol.userId,
          type: 'PAYIN',
          status: 'PAID',
          amount: 350,
          detail: { kind: 'team_adjustment', team: 'Bar Riga', month },
        },
      ]),
    );
    expect(history.filter((row) => [bob.userId, carol.userId].includes(row.userId))).toHaveLength(2);
    const bobPage = await t.call({ method: 'GET', url: `/api/clients/${bob.clientId}/transactions`, token: bob.jwt });
    expect(bobPage.body.data.items[0]).toMatchObject({
      type: 'PAYOUT',
      amount_cents: 350,
      description: `Team adjustment to another member of Bar Riga, period ${month}`,
    });

    // Both members' records of the month list it, the team's records both sides.
    const span = { from: `${month}-01T00:00:00Z`, to: t.clock.now().toISOString() };
    const records = (who: Staff, path: string, format: string, language = 'en') =>
      t.app.inject({
        method: 'GET',
        url: `/api/${path}/tip-records?${new URLSearchParams({ ...span, format }).toString()}`,
        headers: { authorization: `Bearer ${who.jwt}`, 'accept-language': language },
      });
    const bobCsv = (await records(bob, `clients/${bob.clientId}`, 'csv')).body;
    expect(bobCsv).toContain(`Bar Riga,,,,,,Member 2,${bob.userId},,,,,,3.50,0.00,EUR,adjustment_given,${month},Member 3,`);
    expect(bobCsv).toContain('Carol’s hours on the 12th were missing.');
    const teamCsv = (await records(admin, `teams/${id}`, 'csv')).body;
    expect(teamCsv).toContain(`adjustment_given,${month},Member 3`);
    expect(teamCsv).toContain(`adjustment_received,${month},Member 2`);
    const carolPdf = await textOfPdf((await records(carol, `clients/${carol.clientId}`, 'pdf', 'fr')).rawPayload);
    expect(carolPdf).toContain('Ajustements après le verrouillage');
    expect(carolPdf).toContain('De Member 2 pour novembre 2026');
    const danPdf = await textOfPdf((await records(dave, `clients/${dave.clientId}`, 'pdf')).rawPayload);
    expect(danPdf).not.toContain('Adjustments after the lock');

    // The row never changes and never goes; no adjustment of a period that is not locked gets in by another way.
    await expect(
      t.app.db.update(teamPeriodAdjustments).set({ amountCents: 1 }).where(eq(teamPeriodAdjustments.id, adjustment.id)),
    ).rejects.toThrow();
    await expect(t.app.db.delete(teamPeriodAdjustments).where(eq(teamPeriodAdjustments.id, adjustment.id))).rejects.toThrow();
  });

  it('refuses what is not an adjustment of a locked period by its admin, changing nothing', async () => {
    const { id, admin, members, month } = await lockedTeam(3);
    const [, bob, carol] = members as [Staff, Staff, Staff];
    const stranger = await staff('Zane');
    const body = { from_user_id: bob.userId, to_user_id: carol.userId, amount_cents: 100, reason: 'Hours corrected' };
    const balances = async () => [await mainOf(admin), await mainOf(bob), await mainOf(carol)];
    const before = await balances();

    // Another team's, a member's (not the admin's), a month before the team: 404.
    expect(await adjust(stranger, id, month, body)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await adjust(bob, id, month, body)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await adjust(admin, id, '2020-01', body)).toMatchObject({ status: 404, body: { code: 'not_found' } });

    // Not locked: the current month (open), and a month closed but not locked.
    const current = t.clock.now().toISOString().slice(0, 7);
    expect(await adjust(admin, id, current, body)).toMatchObject({ status: 409, body: { code: 'team_period_not_locked' } });

    // Bad amounts, the same member twice, a blank reason, a missing key: 422, naming the field.
    for (const amount of [0, -100, 1.5, 50_001, '100', null]) {
      const refused = await adjust(admin, id, month, { ...body, amount_cents: amount });
      expect(refused.status, `amount ${String(amount)}`).toBe(422);
      expect(refused.body.validation_errors).toHaveProperty('amount_cents');
    }
    const same = await adjust(admin, id, month, { ...body, to_user_id: bob.userId });
    expect(same.status).toBe(422);
    expect(same.body.validation_errors).toHaveProperty('to_user_id');
    expect((await adjust(admin, id, month, { ...body, reason: '   ' })).body.validation_errors).toHaveProperty('reason');
    expect((await adjust(admin, id, month, { ...body, reason: 'x'.repeat(501) })).body.validation_errors).toHaveProperty(
      'reason',
    );
    const keyless = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/periods/${month}/adjustments`,
      token: admin.jwt,
      payload: body,
    });
    expect(keyless.status).toBe(422);

    // Someone with no share and no place in the team, either way round.
    const outsider = await adjust(admin, id, month, { ...body, to_user_id: stranger.userId });
    expect(outsider).toMatchObject({ status: 422, body: { code: 'team_adjustment_member' } });
    expect(outsider.body.validation_errors).toHaveProperty('to_user_id');
    expect(await adjust(admin, id, month, { ...body, from_user_id: stranger.userId })).toMatchObject({
      status: 422,
      body: { code: 'team_adjustment_member' },
    });

    // More than the giver can withdraw: never a debt.
    const short = await adjust(admin, id, month, { ...body, amount_cents: before[1]! + 1 });
    expect(short).toMatchObject({ status: 422, body: { code: 'team_adjustment_balance_short' } });
    expect(short.body.validation_errors).toHaveProperty('amount_cents');

    expect(await balances()).toEqual(before);
    expect(await adjustmentRows(id)).toEqual([]);
    expect((await textsTo(bob)).some((text) => text.includes('moved'))).toBe(false);

    // The whole balance may go; a former member who had a share can still receive.
    expect((await adjust(admin, id, month, { ...body, amount_cents: before[1]! })).status).toBe(201);
    expect(await mainOf(bob)).toBe(0);
    expect((await t.call({ method: 'POST', url: `/api/teams/${id}/leave`, token: carol.jwt })).status).toBe(200);
    expect((await adjust(admin, id, month, { ...body, from_user_id: admin.userId, amount_cents: 1 })).status).toBe(201);
  });

  it('refuses a closed period not yet locked, and the database refuses an adjustment row for it too', async () => {
    const { id, admin, members, month } = await lockedTeam(2, { lock: false });
    const [, bob] = members as [Staff, Staff];
    const body = { from_user_id: bob.userId, to_user_id: admin.userId, amount_cents: 100, reason: 'Too early' };
    expect(await adjust(admin, id, month, body)).toMatchObject({ status: 409, body: { code: 'team_period_not_locked' } });
    await expect(
      t.app.db.insert(teamPeriodAdjustments).values({
        teamId: id,
        month,
        fromUserId: bob.userId,
        toUserId: admin.userId,
        amountCents: 100,
        reason: 'By hand',
        createdByUserId: admin.userId,
        idempotencyKey: crypto.randomUUID(),
        requestHash: '-',
        createdAt: t.clock.now(),
      }),
    ).rejects.toThrow();
    expect(await adjustmentRows(id)).toEqual([]);
  });

  it('a member who joined after the month and had no share may receive, being in the team now', async () => {
    const { id, admin, month } = await lockedTeam(2);
    const newcomer = await staff('Nora');
    const requested = await t.call({ method: 'POST', url: `/api/teams/${id}/requests`, token: newcomer.jwt });
    await t.call({ method: 'POST', url: `/api/teams/${id}/requests/${requested.body.data.id}/approve`, token: admin.jwt });
    const made = await adjust(admin, id, month, {
      from_user_id: admin.userId,
      to_user_id: newcomer.userId,
      amount_cents: 200,
      reason: 'Covered the bar on the 30th',
    });
    expect(made.status).toBe(201);
    expect(await mainOf(newcomer)).toBe(200);
    // The admin moved their own money: only the other member is texted.
    expect((await textsTo(newcomer)).filter((text) => text.includes('moved'))).toHaveLength(1);
    expect((await textsTo(admin)).some((text) => text.includes('moved'))).toBe(false);
  });

  it('two adjustments and a payout of the giver at once never take the giver below zero', async () => {
    const { id, admin, members, month } = await lockedTeam(3);
    const [, bob, carol] = members as [Staff, Staff, Staff];
    const method = await t.call({
      method: 'POST',
      url: `/api/clients/${bob.clientId}/payout-methods`,
      token: bob.jwt,
      payload: SEPA_METHOD,
    });
    expect(method.status).toBe(201);
    const balance = await mainOf(bob);
    const payoutCents = balance - 200 - 400;
    const payout = await t.call({
      method: 'POST',
      url: `/api/clients/${bob.clientId}/payouts`,
      token: bob.jwt,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { amount_cents: payoutCents, method_id: method.body.data.id },
    });
    expect(payout.status).toBe(201);
    const code = await codeFor(t, bob.phone, payout.body.data.id);
    const amountOut = payoutCents + payout.body.data.fee_cents;
    const body = { from_user_id: bob.userId, to_user_id: carol.userId, reason: 'Race' };

    const [first, second, confirmed] = await Promise.all([
      adjust(admin, id, month, { ...body, amount_cents: 400 }),
      adjust(admin, id, month, { ...body, amount_cents: 400 }),
      t.call({ method: 'POST', url: `/api/payouts/${payout.body.data.id}/confirm`, token: bob.jwt, payload: { code } }),
    ]);
    const adjusted = [first, second].filter((answer) => answer.status === 201).length;
    const paidOut = confirmed.status === 200 && confirmed.body.data.status !== 'awaiting_confirmation';
    for (const answer of [first, second])
      if (answer.status !== 201) expect(answer.body.code).toBe('team_adjustment_balance_short');
    const left = await mainOf(bob);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBe(balance - adjusted * 400 - (paidOut ? amountOut : 0));
    // 400 + 400 + the payout is more than Bob has: something was refused.
    expect(adjusted * 400 + (paidOut ? amountOut : 0)).toBeLessThanOrEqual(balance);
    expect(adjusted + (paidOut ? 1 : 0)).toBeLessThan(3);
  });

  it('conserves money: any sequence of adjustments leaves the sum of balances as it was and none below zero', async () => {
    const { id, admin, members, month } = await lockedTeam(3);
    const people = members as Staff[];
    const sumOfMains = async () => (await Promise.all(people.map(mainOf))).reduce((sum, cents) => sum + cents, 0);
    const total = await sumOfMains();
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            from: fc.nat({ max: people.length - 1 }),
            to: fc.nat({ max: people.length - 1 }),
            cents: fc.oneof(fc.integer({ min: 1, max: 2_500 }), fc.integer({ min: -5, max: 60_000 })),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        async (steps) => {
          for (const step of steps) {
            const model = await Promise.all(people.map(mainOf));
            const answer = await adjust(admin, id, month, {
              from_user_id: people[step.from]!.userId,
              to_user_id: people[step.to]!.userId,
              amount_cents: step.cents,
              reason: 'Property',
            });
            const after = await Promise.all(people.map(mainOf));
            const valid = step.from !== step.to && step.cents >= 1 && step.cents <= 50_000;
            if (valid && step.cents <= model[step.from]!) {
              expect(answer.status).toBe(201);
              model[step.from] = model[step.from]! - step.cents;
              model[step.to] = model[step.to]! + step.cents;
            } else expect(answer.status).toBe(422);
            expect(after).toEqual(model);
            expect(after.every((cents) => cents >= 0)).toBe(true);
          }
          expect(await sumOfMains()).toBe(total);
          expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
        },
      ),
      { numRuns: 12 },
    );
  });
});
