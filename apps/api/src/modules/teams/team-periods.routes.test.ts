import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamPeriodEvents, teamPeriodObjections, teamPeriods } from '../../db/schema/teams.ts';
import { users } from '../../db/schema/users.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { monthOfInstant, periodSpan } from './team-periods.ts';
import { teamFixtures, type Staff } from './teams.fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { staff, team, later, join } = teamFixtures(() => t);

const periodsOf = async (who: Staff, teamId: string) =>
  t.call({ method: 'GET', url: `/api/teams/${teamId}/periods`, token: who.jwt });
const post = (who: Staff, teamId: string, path: string, payload?: object) =>
  t.call({ method: 'POST', url: `/api/teams/${teamId}/periods/${path}`, token: who.jwt, ...(payload && { payload }) });
const close = (who: Staff, teamId: string, month: string) => post(who, teamId, `${month}/close`);
const object = (who: Staff, teamId: string, month: string, text: unknown = 'My hours on the 12th are missing.') =>
  post(who, teamId, `${month}/objections`, { text });
const answer = (who: Staff, teamId: string, month: string, id: string, text: unknown = 'Checked: corrected next month.') =>
  post(who, teamId, `${month}/objections/${id}/answer`, { answer: text });
const confirm = (who: Staff, teamId: string, month: string) => post(who, teamId, `${month}/confirm`);
const lock = (who: Staff, teamId: string, month: string) => post(who, teamId, `${month}/lock`);
const textsTo = async (person: Staff) =>
  (
    (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(person.phone)}` })).body.data as {
      body: string;
    }[]
  ).map((message) => message.body);

/** Moves the test clock to `iso` (never back) and signs the people in again. */
async function until(iso: string, ...people: Staff[]) {
  const ms = new Date(iso).getTime() - t.clock.now().getTime();
  expect(ms).toBeGreaterThanOrEqual(0);
  await later(ms, ...people);
}

/** A team of `size` with tips in the test clock's month, which is then over: the clock is on the 1st of the next. */
async function teamWithTips(size: number) {
  const made = await team(size);
  const month = t.clock.now().toISOString().slice(0, 7);
  await receiveTip(t, made.card_id, 1_000);
  await receiveTip(t, made.card_id, 2_001);
  const next = new Date(`${month}-01T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  await until(new Date(next.getTime() + 9 * HOUR).toISOString(), ...made.members);
  return { ...made, month };
}

/** What a period is made of in the database: its row, objections and transitions. */
async function stored(teamId: string, month: string) {
  const where = <T extends { teamId: any; month: any }>(table: T) => and(eq(table.teamId, teamId), eq(table.month, month));
  return {
    period: await t.app.db.select().from(teamPeriods).where(where(teamPeriods)),
    objections: await t.app.db.select().from(teamPeriodObjections).where(where(teamPeriodObjections)),
    events: await t.app.db
      .select({ kind: teamPeriodEvents.kind, userId: teamPeriodEvents.userId, at: teamPeriodEvents.at })
      .from(teamPeriodEvents)
      .where(where(teamPeriodEvents))
      .orderBy(teamPeriodEvents.at, teamPeriodEvents.kind),
  };
}

describe('team periods: close, objections within 24 hours, lock', () => {
  it('closes an ended month, takes an objection and its answer, and locks once the 24 hours are over', async () => {
    const { id, admin, members, month } = await teamWithTips(3);
    const [, bob, carol] = members as [Staff, Staff, Staff];
    await t.app.db.update(users).set({ language: 'fr' }).where(eq(users.id, bob.userId));

    const listed = (await periodsOf(admin, id)).body.data;
    expect(listed.map((period: { month: string }) => period.month)).toEqual(['2026-12', '2026-11']);
    expect(listed[0]).toMatchObject({ state: 'open', can_close: false, tip_count: 0 });
    expect(listed[1]).toMatchObject({
      month: '2026-11',
      state: 'open',
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
      deadline: '2027-01-01T00:00:00.000Z',
      deadline_soon: false,
      tip_count: 2,
      total_cents: 950 + 1_901,
      sharers: 3,
      can_close: true,
    });
    expect((await periodsOf(bob, id)).body.data[1]).toMatchObject({ can_close: false, can_object: false });

    // Only the admin closes, and only once.
    expect(await close(bob, id, month)).toMatchObject({ status: 403, body: { code: 'team_admin_only' } });
    const closed = await close(admin, id, month);
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({
      state: 'closed',
      closed_at: t.clock.now().toISOString(),
      closed_by: { user_id: admin.userId, public_name: 'Anna' },
      objections_until: new Date(t.clock.now().getTime() + DAY).toISOString(),
      can_lock: false,
    });
    expect(await close(admin, id, month)).toMatchObject({ status: 409, body: { code: 'team_period_closed' } });
    // French typography puts no-break spaces (of two widths) before its colons and semicolons; compared as spaces.
    expect((await textsTo(bob))[0]!.replace(/[\u00A0\u202F]/g, ' ')).toBe(
      'Tipcard : l’administrateur a clôturé les pourboires de novembre 2026. Équipe : Bar Riga (Bar Riga). Vous avez 24 heures pour contester sur la page Lieu de travail ; ensuite la période est verrouillée.',
    );
    expect((await textsTo(carol))[0]).toContain('You have 24 hours to object');
    expect((await textsTo(admin)).some((text) => text.includes('closed the tips'))).toBe(false);

    // Bob objects once; the admin is told; a second objection waits for the first's answer; bad text changes nothing.
    await later(HOUR, ...members);
    expect((await periodsOf(bob, id)).body.data[1]).toMatchObject({ can_object: true, can_confirm: true });
    const objected = await object(bob, id, month);
    expect(objected.status).toBe(201);
    const objection = objected.body.data.objections[0];
    expect(objection).toMatchObject({ user_id: bob.userId, text: 'My hours on the 12th are missing.', answer: null });
    expect(objected.body.data).toMatchObject({ can_object: false, can_confirm: false, open_objections: 1 });
    expect((await textsTo(admin))[0]).toBe(
      'Tipcard: a member objected to the tips of November 2026. Team: Bar Riga (Bar Riga). Answer on the Workplace page before locking the period.',
    );
    expect(await object(bob, id, month, 'Again')).toMatchObject({
      status: 409,
      body: { code: 'team_period_objection_pending' },
    });
    expect((await object(carol, id, month, 'x'.repeat(1_001))).body.validation_errors).toHaveProperty('text');
    expect((await object(carol, id, month, '   ')).body.validation_errors).toHaveProperty('text');
    expect((await stored(id, month)).objections).toHaveLength(1);

    // Carol sees only her own objections (none); the admin sees Bob's.
    expect((await periodsOf(carol, id)).body.data[1].objections).toEqual([]);
    expect((await periodsOf(admin, id)).body.data[1].objections).toHaveLength(1);

    // The lock waits for the answer; only the admin answers, once.
    await later(60_000, ...members);
    expect(await lock(admin, id, month)).toMatchObject({
      status: 422,
      body: { code: 'team_period_unanswered_objections' },
    });
    expect(await answer(bob, id, month, objection.id)).toMatchObject({ status: 403, body: { code: 'team_admin_only' } });
    const answered = await answer(admin, id, month, objection.id);
    expect(answered.status).toBe(200);
    expect(answered.body.data.objections[0]).toMatchObject({
      answer: 'Checked: corrected next month.',
      answered_at: t.clock.now().toISOString(),
    });
    expect((await textsTo(bob))[0]).toContain('a répondu à votre contestation');
    expect(await answer(admin, id, month, objection.id, 'Changed my mind')).toMatchObject({
      status: 409,
      body: { code: 'team_period_objection_answered' },
    });
    // The lock also waits for the 24 hours (nobody confirmed).
    expect(await lock(admin, id, month)).toMatchObject({ status: 422, body: { code: 'team_period_window_open' } });
    expect((await stored(id, month)).period[0]!.lockedAt).toBeNull();

    // 24 hours after the close: no more objections, and the lock goes through, once.
    await later(23 * HOUR - 60_000, ...members);
    expect(await object(carol, id, month)).toMatchObject({ status: 422, body: { code: 'team_period_objections_over' } });
    expect((await periodsOf(admin, id)).body.data[1]).toMatchObject({ can_lock: true });
    const locked = await lock(admin, id, month);
    expect(locked.status).toBe(200);
    expect(locked.body.data).toMatchObject({
      state: 'locked',
      locked_at: t.clock.now().toISOString(),
      locked_by: { user_id: admin.userId },
      can_lock: false,
      can_confirm: false,
      deadline_soon: false,
    });
    const before = await stored(id, month);
    expect(await lock(admin, id, month)).toMatchObject({ status: 409, body: { code: 'team_period_locked' } });
    expect(await close(admin, id, month)).toMatchObject({ status: 409, body: { code: 'team_period_locked' } });
    expect(await object(bob, id, month)).toMatchObject({ status: 409, body: { code: 'team_period_locked' } });
    expect(await confirm(carol, id, month)).toMatchObject({ status: 409, body: { code: 'team_period_locked' } });
    expect(await answer(admin, id, month, objection.id)).toMatchObject({ status: 409, body: { code: 'team_period_locked' } });
    expect(await stored(id, month)).toEqual(before);
    // The database refuses it too: a locked period's row and objections take no write, its transitions no edit.
    const period = and(eq(teamPeriods.teamId, id), eq(teamPeriods.month, month));
    await expect(t.app.db.update(teamPeriods).set({ lockedAt: null, lockedByUserId: null }).where(period)).rejects.toThrow();
    await expect(
      t.app.db
        .insert(teamPeriodObjections)
        .values({ teamId: id, month, userId: carol.userId, text: 'Late', createdAt: t.clock.now() }),
    ).rejects.toThrow();
    await expect(
      t.app.db.update(teamPeriodObjections).set({ answer: 'Edited' }).where(eq(teamPeriodObjections.id, objection.id)),
    ).rejects.toThrow();
    await expect(t.app.db.delete(teamPeriodEvents).where(eq(teamPeriodEvents.teamId, id))).rejects.toThrow();
    expect(await stored(id, month)).toEqual(before);
    // Every transition is on record with who made it.
    expect(before.events.map((event) => [event.kind, event.userId])).toEqual([
      ['closed', admin.userId],
      ['objected', bob.userId],
      ['answered', admin.userId],
      ['locked', admin.userId],
    ]);
  });

  it('locks before the 24 hours are over once every member with a share has confirmed', async () => {
    const { id, admin, members, month } = await teamWithTips(2);
    const [, bob] = members as [Staff, Staff];
    expect(await confirm(bob, id, month)).toMatchObject({ status: 422, body: { code: 'team_period_not_closed' } });
    expect(await lock(admin, id, month)).toMatchObject({ status: 422, body: { code: 'team_period_not_closed' } });
    await close(admin, id, month);
    const confirmed = await confirm(bob, id, month);
    expect(confirmed.body.data).toMatchObject({ confirmed_by_me: true, confirmed: 1, sharers: 2, can_confirm: false });
    // Confirming again keeps the first confirmation.
    expect((await confirm(bob, id, month)).body.data.confirmed).toBe(1);
    expect(await lock(admin, id, month)).toMatchObject({ status: 422, body: { code: 'team_period_window_open' } });
    expect((await confirm(admin, id, month)).body.data).toMatchObject({ confirmed: 2, can_lock: true });
    expect((await lock(admin, id, month)).body.data.state).toBe('locked');
    expect((await stored(id, month)).events.map((event) => event.kind)).toEqual(['closed', 'confirmed', 'confirmed', 'locked']);
  });

  it("tells an objection to the team's admin and every admin of its venue, each once, in their language", async () => {
    const { id, admin, members, month } = await teamWithTips(2);
    const bob = members[1]!;
    const workplaceId = (await t.call({ method: 'GET', url: `/api/clients/${admin.clientId}/workplace`, token: admin.jwt })).body
      .data.id as string;
    const kitchen = await t.call({
      method: 'POST',
      url: `/api/workplaces/${workplaceId}/teams`,
      token: admin.jwt,
      payload: { title: 'Kitchen' },
    });
    const [carol, dan] = [await staff('Carol'), await staff('Dan')];
    await join(kitchen.body.data.id, admin, carol);
    await join(kitchen.body.data.id, admin, dan);
    // Carol runs the venue with Anna; Dan runs the kitchen only, so the front of house's periods are not his business.
    const added = await t.call({
      method: 'POST',
      url: `/api/workplaces/${workplaceId}/admins`,
      token: admin.jwt,
      payload: { user_id: carol.userId },
    });
    expect(added.status).toBe(200);
    const handed = await t.call({
      method: 'POST',
      url: `/api/teams/${kitchen.body.data.id}/admin`,
      token: admin.jwt,
      payload: { user_id: dan.userId },
    });
    expect(handed.status).toBe(200);
    await t.app.db.update(users).set({ language: 'es' }).where(eq(users.id, carol.userId));
    expect((await close(admin, id, month)).status).toBe(200);
    await later(HOUR, admin, bob, carol, dan);
    expect((await object(bob, id, month)).status).toBe(201);

    const objectionTexts = async (who: Staff) => (await textsTo(who)).filter((text) => /objected|objetado|contesté/.test(text));
    // The month is named in each one's language (the test clock's month depends on the tests before).
    expect(await objectionTexts(admin)).toEqual([
      expect.stringMatching(
        /^Tipcard: a member objected to the tips of [A-Z][a-z]+ \d{4}\. Team: Bar Riga \(Bar Riga\)\. Answer on/,
      ),
    ]);
    expect(await objectionTexts(carol)).toEqual([
      expect.stringMatching(
        /^Tipcard: un miembro ha objetado las propinas de [a-z]+ de \d{4}\. Equipo: Bar Riga \(Bar Riga\)\. Responde/,
      ),
    ]);
    expect(await objectionTexts(dan)).toEqual([]);
    expect(await objectionTexts(bob)).toEqual([]);
    const objectionNotices = async (who: Staff) =>
      (
        (await t.call({ method: 'GET', url: `/api/clients/${who.clientId}/notices`, token: who.jwt })).body.data.notices as {
          kind: string;
          month: string | null;
        }[]
      ).filter((notice) => notice.kind === 'team_period_objection');
    expect(await objectionNotices(admin)).toMatchObject([{ month }]);
    expect(await objectionNotices(carol)).toMatchObject([{ month }]);
    expect(await objectionNotices(dan)).toEqual([]);
    expect(await objectionNotices(bob)).toEqual([]);
  });

  it('refuses a month not over, one before the team, a bad month, strangers and members who had no part in it', async () => {
    const made = await team(2);
    const month = t.clock.now().toISOString().slice(0, 7);
    expect(await close(made.admin, made.id, month)).toMatchObject({ status: 422, body: { code: 'team_period_not_ended' } });
    expect((await close(made.admin, made.id, '2026-13')).status).toBe(404);
    expect((await close(made.admin, made.id, 'november')).status).toBe(404);
    expect(await close(made.admin, made.id, '2026-01')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await stored(made.id, month)).toMatchObject({ period: [], events: [] });

    const { id, admin, members, month: past } = await teamWithTips(2);
    const stranger = await staff('Zane');
    expect((await periodsOf(stranger, id)).status).toBe(404);
    expect((await close(stranger, id, past)).status).toBe(404);
    await close(admin, id, past);
    expect((await object(stranger, id, past)).status).toBe(404);
    expect((await lock(stranger, id, past)).status).toBe(404);
    // Dora joined after the month ended: no share, not a member then.
    const dora = await staff('Dora');
    await join(id, admin, dora);
    expect(await object(dora, id, past)).toMatchObject({ status: 403, body: { code: 'team_period_not_involved' } });
    expect(await confirm(dora, id, past)).toMatchObject({ status: 403, body: { code: 'team_period_not_involved' } });
    expect((await periodsOf(dora, id)).body.data.find((period: { month: string }) => period.month === past)).toMatchObject({
      can_object: false,
      can_confirm: false,
    });
    const objected = await object(members[1]!, id, past);
    expect(await answer(admin, id, past, '00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404 });
    expect(await answer(admin, id, '2026-12', objected.body.data.objections[0].id)).toMatchObject({ status: 404 });
    expect((await stored(id, past)).events.map((event) => event.kind)).toEqual(['closed', 'objected']);
  });

  it('warns of the legal deadline of a period with tips not locked by a week before the end of the next month', async () => {
    const { id, admin, members, month } = await teamWithTips(1);
    const deadline = periodSpan(month).deadline.getTime();
    const next = monthOfInstant(periodSpan(month).to);
    const ofMonth = async (wanted: string) =>
      (await periodsOf(admin, id)).body.data.find((period: { month: string }) => period.month === wanted);
    expect(await ofMonth(month)).toMatchObject({ deadline: new Date(deadline).toISOString(), deadline_soon: false });
    await until(new Date(deadline - 7 * DAY - HOUR).toISOString(), ...members);
    expect(await ofMonth(month)).toMatchObject({ deadline_soon: false, deadline_passed: false });
    await until(new Date(deadline - 6 * DAY).toISOString(), ...members);
    expect(await ofMonth(month)).toMatchObject({ deadline_soon: true, deadline_passed: false });
    await until(new Date(deadline + DAY).toISOString(), ...members);
    expect(await ofMonth(month)).toMatchObject({ deadline_soon: true, deadline_passed: true });
    // The next month had no tips: nothing to warn about.
    expect(await ofMonth(next)).toMatchObject({ deadline_soon: false, tip_count: 0 });
    await close(admin, id, month);
    await confirm(admin, id, month);
    await lock(admin, id, month);
    expect(await ofMonth(month)).toMatchObject({ state: 'locked', deadline_soon: false, deadline_passed: false });
  });

  it('locks a period once when two locks race, and never takes an objection into a locked period', async () => {
    const first = await teamWithTips(2);
    await close(first.admin, first.id, first.month);
    await confirm(first.admin, first.id, first.month);
    await confirm(first.members[1]!, first.id, first.month);
    const answers = await Promise.all([lock(first.admin, first.id, first.month), lock(first.admin, first.id, first.month)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect((await stored(first.id, first.month)).events.filter((event) => event.kind === 'locked')).toHaveLength(1);

    for (let round = 0; round < 4; round++) {
      const { id, admin, members, month } = await teamWithTips(2);
      const bob = members[1]!;
      await close(admin, id, month);
      await confirm(admin, id, month);
      await confirm(bob, id, month);
      const [objected, locked] = await Promise.all([object(bob, id, month), lock(admin, id, month)]);
      if (objected.status === 201) {
        // The objection came first: the lock is refused until it is answered.
        expect(locked.body.code).toBe('team_period_unanswered_objections');
      } else {
        expect(locked.status).toBe(200);
        expect(objected.body.code).toBe('team_period_locked');
      }
      const { period, objections } = await stored(id, month);
      expect(period[0]!.lockedAt !== null && objections.length > 0).toBe(false);
    }
  });
});
