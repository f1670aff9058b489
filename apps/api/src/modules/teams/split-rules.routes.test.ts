import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAllocations } from '../../db/schema/payments.ts';
import { teamTipSplits } from '../../db/schema/teams.ts';
import { users } from '../../db/schema/users.ts';
import { deliverSandboxEvent, openPayment, receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { teamFixtures, type Staff } from './teams.fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { staff, later, team, holdOf } = teamFixtures(() => t);

const at = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs).toISOString();

async function setRule(teamId: string, admin: Staff, rule: Record<string, unknown>) {
  const saved = await t.call({ method: 'POST', url: `/api/teams/${teamId}/rules`, token: admin.jwt, payload: rule });
  expect(saved.status).toBe(201);
  return saved.body.data;
}

async function addShift(teamId: string, admin: Staff, member: Staff, from: number, to: number) {
  const added = await t.call({
    method: 'POST',
    url: `/api/teams/${teamId}/shifts`,
    token: admin.jwt,
    payload: { user_id: member.userId, started_at: at(from), ended_at: at(to) },
  });
  expect(added.status).toBe(201);
  return added.body.data as { id: string };
}

const tipSharesOf = async (teamId: string, member: Staff) =>
  (await t.call({ method: 'GET', url: `/api/teams/${teamId}/tip-shares`, token: member.jwt })).body.data;

describe('split rules, shifts and the preview', () => {
  it('splits by hours among the members on shift, shows each their maths, keeps credited shares through a correction, and previews', async () => {
    const { id, card_id, admin, members } = await team(3);
    const [anna, bob, carol] = members as [Staff, Staff, Staff];
    const start = t.clock.now().toISOString();
    await setRule(id, admin, { kind: 'hours' });
    t.clock.advance(60_000);
    await addShift(id, admin, anna, -6 * HOUR, 2 * HOUR);
    const bobShift = await addShift(id, admin, bob, -3 * HOUR, HOUR);
    await receiveTip(t, card_id, 1_000, { message: 'Merci' });
    // 9.50 over 360 + 180 minutes worked by the two on shift: 633.33 and 316.67 → 633 and 317 (the larger fraction
    // gets the leftover cent); the 0.50 fee 33.33 and 16.67 → 33 and 17. Carol was not on shift: nothing.
    expect([await holdOf(anna), await holdOf(bob), await holdOf(carol)]).toEqual([633, 317, 0]);
    expect(
      (await t.call({ method: 'GET', url: `/api/clients/${carol.clientId}/transactions`, token: carol.jwt })).body.data.items,
    ).toEqual([]);
    const bobsMaths = await tipSharesOf(id, bob);
    expect(bobsMaths).toEqual([
      expect.objectContaining({
        rule: 'hours',
        basis: 'hours',
        total_cents: 1_000,
        fee_cents: 50,
        minutes: 180,
        weight: 180,
        total_weight: 540,
        sharing: 2,
        net_cents: 317,
        share_fee_cents: 17,
      }),
    ]);
    expect((await tipSharesOf(id, carol))[0]).toMatchObject({ minutes: 0, weight: 0, net_cents: 0 });

    const end = at(1);
    const preview = async (rule: Record<string, unknown>) => {
      const answer = await t.call({
        method: 'POST',
        url: `/api/teams/${id}/rules/preview`,
        token: admin.jwt,
        payload: { rule, from: start, to: end },
      });
      expect(answer.status).toBe(200);
      return Object.fromEntries(
        answer.body.data.members.map((m: { user_id: string; received_cents: number; candidate_cents: number }) => [
          m.user_id,
          [m.received_cents, m.candidate_cents],
        ]),
      );
    };
    // The rule in force, previewed on its own period, is what was credited.
    expect(await preview({ kind: 'hours' })).toEqual({
      [anna.userId]: [633, 633],
      [bob.userId]: [317, 317],
      [carol.userId]: [0, 0],
    });
    expect(await preview({ kind: 'even' })).toEqual({
      [anna.userId]: [633, 317],
      [bob.userId]: [317, 317],
      [carol.userId]: [0, 316],
    });

    // Bob's shift is corrected to one hour: the preview follows, the credited money and his maths do not.
    const corrected = await t.call({
      method: 'PATCH',
      url: `/api/teams/${id}/shifts/${bobShift.id}`,
      token: admin.jwt,
      payload: { started_at: at(-HOUR), ended_at: at(HOUR) },
    });
    expect(corrected.status).toBe(200);
    expect([await holdOf(anna), await holdOf(bob)]).toEqual([633, 317]);
    expect(await tipSharesOf(id, bob)).toEqual(bobsMaths);
    // 950 × 360/420 = 814.29 and 950 × 60/420 = 135.71 → 814 and 136.
    expect(await preview({ kind: 'hours' })).toEqual({
      [anna.userId]: [633, 814],
      [bob.userId]: [317, 136],
      [carol.userId]: [0, 0],
    });

    // Nobody on shift any more: even among the members, and the maths says why.
    await later(3 * HOUR, ...members);
    await receiveTip(t, card_id, 300);
    expect((await tipSharesOf(id, carol))[0]).toMatchObject({ basis: 'even_nobody_on_shift', net_cents: 95 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('splits by points per role, keeps every version of the rule, and refuses bad rules and roles without changing anything', async () => {
    const { id, card_id, admin, members } = await team(3);
    const [anna, bob, carol] = members as [Staff, Staff, Staff];
    expect((await t.call({ method: 'GET', url: `/api/teams/${id}/rules`, token: bob.jwt })).body.data).toEqual({
      current: { id: null, kind: 'even', points: {}, created_at: null },
      versions: [],
    });
    for (const [member, role] of [
      [anna, 'Bar'],
      [bob, 'Kitchen'],
    ] as const) {
      const set = await t.call({
        method: 'PATCH',
        url: `/api/teams/${id}/members/${member.userId}`,
        token: admin.jwt,
        payload: { role },
      });
      expect(set.status).toBe(200);
    }
    await setRule(id, admin, { kind: 'even' });
    t.clock.advance(1_000);
    const rules = await setRule(id, admin, { kind: 'points', points: { Bar: 3, Kitchen: 1 } });
    expect(rules.current).toMatchObject({ kind: 'points', points: { Bar: 3, Kitchen: 1 } });
    expect(rules.versions.map((v: { kind: string }) => v.kind)).toEqual(['points', 'even']);

    const bad = [
      { kind: 'points', points: { Bar: -1 } },
      { kind: 'points', points: {} },
      { kind: 'points', points: { Bar: 1.5 } },
      { kind: 'weighted' },
      {},
    ];
    for (const payload of bad) {
      const answer = await t.call({ method: 'POST', url: `/api/teams/${id}/rules`, token: admin.jwt, payload });
      expect([JSON.stringify(payload), answer.status, answer.body.code]).toEqual([
        JSON.stringify(payload),
        422,
        'validation_failed',
      ]);
    }
    const blankRole = await t.call({
      method: 'PATCH',
      url: `/api/teams/${id}/members/${carol.userId}`,
      token: admin.jwt,
      payload: { role: ' ' },
    });
    expect(blankRole.status).toBe(422);
    const byMember = await t.call({ method: 'POST', url: `/api/teams/${id}/rules`, token: bob.jwt, payload: { kind: 'even' } });
    expect(byMember).toMatchObject({ status: 403, body: { code: 'team_admin_only' } });
    const roleByMember = await t.call({
      method: 'PATCH',
      url: `/api/teams/${id}/members/${bob.userId}`,
      token: bob.jwt,
      payload: { role: 'Boss' },
    });
    expect(roleByMember).toMatchObject({ status: 403, body: { code: 'team_admin_only' } });
    const view = await t.call({ method: 'GET', url: `/api/teams/${id}`, token: admin.jwt });
    expect(view.body.data.members.map((m: { role: string | null }) => m.role)).toEqual(['Bar', 'Kitchen', null]);
    expect((await t.call({ method: 'GET', url: `/api/teams/${id}/rules`, token: admin.jwt })).body.data.versions).toHaveLength(2);

    await receiveTip(t, card_id, 1_000);
    // 9.50 by 3 : 1 points is 712.50 and 237.50: the tie of fractions goes to the longest-standing (Anna); the fee
    // 37.50 and 12.50 likewise. Carol has no role, so no points and nothing.
    expect([await holdOf(anna), await holdOf(bob), await holdOf(carol)]).toEqual([713, 237, 0]);
    expect((await tipSharesOf(id, anna))[0]).toMatchObject({ rule: 'points', role: 'Bar', points: 3, total_weight: 4 });
  });

  it('tells every other member of a new rule in their language, and the admin who saved it nothing', async () => {
    const { id, admin, members } = await team(3);
    const [, bob, carol] = members as [Staff, Staff, Staff];
    await t.app.db.update(users).set({ language: 'es' }).where(eq(users.id, bob.userId));
    const textsTo = async (person: Staff) =>
      (
        (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(person.phone)}` })).body.data as {
          body: string;
        }[]
      ).map((message) => message.body);
    const before = {
      bob: (await textsTo(bob)).length,
      carol: (await textsTo(carol)).length,
      admin: (await textsTo(admin)).length,
    };
    await setRule(id, admin, { kind: 'hours' });
    expect((await textsTo(bob)).length - before.bob).toBe(1);
    expect((await textsTo(bob))[0]).toBe(
      'Tipcard: el administrador ha cambiado el reparto de las propinas del equipo. Equipo: Bar Riga (Bar Riga). Regla de reparto: Según las horas trabajadas, para las propinas a partir de ahora. La página Lugar de trabajo muestra cómo se calcula tu parte.',
    );
    expect((await textsTo(carol))[0]).toContain('Split rule: By hours worked, for tips from now on.');
    expect((await textsTo(admin)).length).toBe(before.admin);
  });

  it('lets members clock in and out, the admin enter and correct shifts, and refuses overlaps, strangers and bad times', async () => {
    const { id, admin, members } = await team(2);
    const bob = members[1]!;
    const outsider = await staff();
    const clockIn = await t.call({ method: 'POST', url: `/api/teams/${id}/shifts/clock-in`, token: bob.jwt });
    expect(clockIn).toMatchObject({ status: 201, body: { data: { user_id: bob.userId, ended_at: null, source: 'clock' } } });
    expect((await t.call({ method: 'POST', url: `/api/teams/${id}/shifts/clock-in`, token: bob.jwt })).body.code).toBe(
      'shift_already_open',
    );
    const overlap = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/shifts`,
      token: admin.jwt,
      payload: { user_id: bob.userId, started_at: at(-HOUR), ended_at: at(HOUR) },
    });
    expect(overlap).toMatchObject({ status: 422, body: { code: 'shift_overlap' } });
    await later(2 * HOUR, ...members, outsider);
    const clockOut = await t.call({ method: 'POST', url: `/api/teams/${id}/shifts/clock-out`, token: bob.jwt });
    expect(clockOut.body.data.ended_at).toBe(t.clock.now().toISOString());
    expect((await t.call({ method: 'POST', url: `/api/teams/${id}/shifts/clock-out`, token: bob.jwt })).body.code).toBe(
      'shift_not_open',
    );
    const annaShift = await addShift(id, admin, admin, -5 * HOUR, -HOUR);
    const backwards = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/shifts`,
      token: admin.jwt,
      payload: { user_id: bob.userId, started_at: at(0), ended_at: at(-HOUR) },
    });
    expect(backwards).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
    expect(Object.keys(backwards.body.validation_errors)).toEqual(['ended_at']);
    const notMember = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/shifts`,
      token: admin.jwt,
      payload: { user_id: outsider.userId, started_at: at(-HOUR), ended_at: at(0) },
    });
    expect(notMember.body.code).toBe('not_team_member');
    const byMember = await t.call({
      method: 'PATCH',
      url: `/api/teams/${id}/shifts/${annaShift.id}`,
      token: bob.jwt,
      payload: { started_at: at(-HOUR), ended_at: at(0) },
    });
    expect(byMember).toMatchObject({ status: 403, body: { code: 'team_admin_only' } });
    const unknown = await t.call({
      method: 'PATCH',
      url: `/api/teams/${id}/shifts/${crypto.randomUUID()}`,
      token: admin.jwt,
      payload: { started_at: at(-HOUR), ended_at: at(0) },
    });
    expect(unknown.status).toBe(404);
    for (const call of [
      { method: 'POST', url: `/api/teams/${id}/shifts/clock-in` },
      { method: 'GET', url: `/api/teams/${id}/shifts?from=${at(-DAY)}&to=${at(DAY)}` },
      { method: 'GET', url: `/api/teams/${id}/tip-shares` },
      { method: 'GET', url: `/api/teams/${id}/rules` },
      { method: 'POST', url: `/api/teams/${id}/rules`, payload: { kind: 'even' } },
    ] as const) {
      const answer = await t.call({ ...call, token: outsider.jwt });
      expect([call.url, answer.status]).toEqual([call.url, 404]);
    }
    const period = `from=${encodeURIComponent(at(-DAY))}&to=${encodeURIComponent(at(DAY))}`;
    const own = await t.call({ method: 'GET', url: `/api/teams/${id}/shifts?${period}`, token: bob.jwt });
    expect(own.body.data.map((s: { user_id: string }) => s.user_id)).toEqual([bob.userId]);
    const all = await t.call({ method: 'GET', url: `/api/teams/${id}/shifts?${period}`, token: admin.jwt });
    expect(all.body.data.map((s: { source: string }) => s.source)).toEqual(['admin', 'clock']);
  });

  it('imports shifts from CSV all or nothing, naming every bad row by its line', async () => {
    const { id, admin, members } = await team(3);
    const [anna, bob, carol] = members as [Staff, Staff, Staff];
    const period = `from=${encodeURIComponent(at(-DAY))}&to=${encodeURIComponent(at(DAY))}`;
    const count = async () =>
      (await t.call({ method: 'GET', url: `/api/teams/${id}/shifts?${period}`, token: admin.jwt })).body.data.length;
    await addShift(id, admin, carol, -10 * HOUR, -8 * HOUR);
    const bad = [
      'member,start,end',
      `${bob.phone},${at(-4 * HOUR)},${at(-HOUR)}`,
      `+37100000000,${at(-4 * HOUR)},${at(-HOUR)}`,
      `${anna.userId},yesterday,${at(-HOUR)}`,
      `${anna.userId},${at(-HOUR)},${at(-2 * HOUR)}`,
      `${carol.userId},${at(-9 * HOUR)},${at(-7 * HOUR)}`,
      `${bob.phone},${at(-2 * HOUR)},${at(0)}`,
      `${anna.userId};${at(-HOUR)}`,
    ].join('\n');
    const refused = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/shifts/import`,
      token: admin.jwt,
      payload: { csv: bad },
    });
    expect(refused).toMatchObject({ status: 422, body: { code: 'shift_import_invalid' } });
    expect(refused.body.validation_errors).toEqual({
      'rows.3': ['member'],
      'rows.4': ['start'],
      'rows.5': ['order'],
      'rows.6': ['overlap'],
      'rows.7': ['overlap'],
      'rows.8': ['columns'],
    });
    expect(await count()).toBe(1);

    const good = [
      'Member,Start,End',
      `${bob.phone},${at(-4 * HOUR)},${at(-HOUR)}`,
      `"${anna.userId}",${at(-3 * HOUR)},${at(0)}`,
      '',
    ].join('\r\n');
    const imported = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/shifts/import`,
      token: admin.jwt,
      payload: { csv: good },
    });
    expect(imported).toMatchObject({ status: 200, body: { data: { imported: 2 } } });
    expect(await count()).toBe(3);
    const byMember = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/shifts/import`,
      token: bob.jwt,
      payload: { csv: good },
    });
    expect(byMember).toMatchObject({ status: 403, body: { code: 'team_admin_only' } });
    const headerOnly = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/shifts/import`,
      token: admin.jwt,
      payload: { csv: 'member,start,end' },
    });
    expect(headerOnly.body.validation_errors).toEqual({ 'rows.1': ['columns'] });
    expect(await count()).toBe(3);
  });

  it('splits each tip by one consistent snapshot while a shift is entered and a member removed, and records the maths it used', async () => {
    const { id, card_id, admin, members } = await team(3);
    const [anna, bob, carol] = members as [Staff, Staff, Staff];
    await setRule(id, admin, { kind: 'hours' });
    t.clock.advance(60_000);
    await addShift(id, admin, anna, -2 * HOUR, 10 * HOUR);
    await addShift(id, admin, carol, -3 * HOUR, 10 * HOUR);
    const opened = await Promise.all(Array.from({ length: 12 }, () => openPayment(t, card_id, 1_000)));
    const [outcomes] = await Promise.all([
      Promise.all(opened.map((payment) => deliverSandboxEvent(t, payment, 'payment.succeeded'))),
      addShift(id, admin, bob, -HOUR, 5 * HOUR),
      t.call({ method: 'DELETE', url: `/api/teams/${id}/members/${carol.userId}`, token: admin.jwt }),
    ]);
    expect(outcomes).toEqual(opened.map(() => 'applied'));
    // The four moments a tip may have seen: Bob's shift entered or not, Carol still a member or not.
    const minutes = { [anna.userId]: 120, [bob.userId]: 60, [carol.userId]: 180 };
    const moments = [[anna, carol], [anna, bob, carol], [anna], [anna, bob]].map((onShift) =>
      Object.fromEntries(onShift.map((m) => [m.userId, minutes[m.userId]!])),
    );
    const splits = await t.app.db.select().from(teamTipSplits).where(eq(teamTipSplits.teamId, id));
    expect(splits).toHaveLength(12);
    for (const split of splits) {
      const weights = Object.fromEntries(split.shares.filter((s) => s.weight > 0).map((s) => [s.userId, s.weight]));
      expect(moments).toContainEqual(weights);
      const rows = await t.app.db.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, split.paymentId));
      // The money credited is exactly the recorded maths.
      expect(rows.map((r) => [r.userId, r.netCents, r.feeCents])).toEqual(
        split.shares.filter((s) => s.netCents + s.feeCents > 0).map((s) => [s.userId, s.netCents, s.feeCents]),
      );
    }
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  }, 120_000);
});
