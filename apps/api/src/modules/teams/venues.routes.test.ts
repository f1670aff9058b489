import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { teamFixtures, type Staff } from './teams.fixtures.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { staff, createWorkplace, join, holdOf } = teamFixtures(() => t);

const workplaceOf = async (person: Staff) =>
  (await t.call({ method: 'GET', url: `/api/clients/${person.clientId}/workplace`, token: person.jwt })).body.data;

async function addTeam(admin: Staff, workplaceId: string, title: string) {
  const added = await t.call({
    method: 'POST',
    url: `/api/workplaces/${workplaceId}/teams`,
    token: admin.jwt,
    payload: { title },
  });
  expect(added.status).toBe(201);
  return added.body.data as { id: string; card_id: string; title: string };
}

const addAdmin = (admin: Staff, workplaceId: string, userId: string) =>
  t.call({ method: 'POST', url: `/api/workplaces/${workplaceId}/admins`, token: admin.jwt, payload: { user_id: userId } });

const removeAdmin = (admin: Staff, workplaceId: string, userId: string) =>
  t.call({ method: 'DELETE', url: `/api/workplaces/${workplaceId}/admins/${userId}`, token: admin.jwt });

const setRule = (person: Staff, teamId: string, rule: Record<string, unknown>) =>
  t.call({ method: 'POST', url: `/api/teams/${teamId}/rules`, token: person.jwt, payload: rule });

/** A venue with its first team (Anna, its creator, and Bob) and a kitchen Carol joined through the venue admin. */
async function venue() {
  const anna = await staff('Anna');
  const front = await createWorkplace(anna, 'Hotel Riga');
  const workplaceId = (await workplaceOf(anna)).id as string;
  const bob = await staff('Bob');
  await join(front.id, anna, bob);
  t.clock.advance(60_000);
  const kitchen = await addTeam(anna, workplaceId, 'Kitchen');
  const carol = await staff('Carol');
  await join(kitchen.id, anna, carol);
  return { workplaceId, front, kitchen, anna, bob, carol };
}

describe('venues', () => {
  it('holds several teams, each with its own team card, listed with the venue and its admins', async () => {
    const { workplaceId, front, kitchen, anna, carol } = await venue();
    expect(kitchen).toMatchObject({ title: 'Kitchen', is_admin: true, admin_user_id: anna.userId, members: [] });
    expect(kitchen.card_id).not.toBe(front.card_id);
    const seen = await workplaceOf(anna);
    expect(seen).toMatchObject({
      id: workplaceId,
      team: { id: front.id },
      is_admin: true,
      teams: [
        { id: front.id, title: 'Hotel Riga', card_id: front.card_id, member_count: 2 },
        { id: kitchen.id, title: 'Kitchen', card_id: kitchen.card_id, member_count: 1 },
      ],
      admins: [{ user_id: anna.userId, public_name: 'Anna', team_id: front.id }],
    });
    // The kitchen's card is made as the first team's: public, named after the venue, held by its admin's client.
    const card = await t.call({ method: 'GET', url: `/api/public/cards/${kitchen.card_id}` });
    expect(card.status).toBe(200);
    const cards = await t.call({ method: 'GET', url: `/api/clients/${anna.clientId}/cards`, token: anna.jwt });
    expect(cards.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: kitchen.card_id, is_private: false, public_name: 'Hotel Riga' })]),
    );
    // A member sees their own team and the venue's list, without admin rights over it.
    expect(await workplaceOf(carol)).toMatchObject({ team: { id: kitchen.id, is_admin: false }, is_admin: false });
  });

  it("splits a tip to a team's card among that team's members only, each team by its own rule", async () => {
    const { front, kitchen, anna, bob, carol } = await venue();
    t.clock.advance(60_000);
    const dan = await staff('Dan');
    await join(kitchen.id, anna, dan);
    expect((await setRule(anna, kitchen.id, { kind: 'points', points: { Chef: 3, Cook: 1 } })).status).toBe(201);
    for (const [member, role] of [
      [carol, 'Chef'],
      [dan, 'Cook'],
    ] as const)
      expect(
        (
          await t.call({
            method: 'PATCH',
            url: `/api/teams/${kitchen.id}/members/${member.userId}`,
            token: anna.jwt,
            payload: { role },
          })
        ).status,
      ).toBe(200);
    await receiveTip(t, kitchen.card_id, 1_000);
    await receiveTip(t, front.card_id, 1_000);
    // 9.50 net each: the kitchen 3:1 by points (the odd cent to the longest-standing), the front of house evenly.
    expect(await Promise.all([carol, dan].map(holdOf))).toEqual([713, 237]);
    expect(await Promise.all([anna, bob].map(holdOf))).toEqual([475, 475]);
    expect((await t.call({ method: 'GET', url: `/api/teams/${front.id}/rules`, token: bob.jwt })).body.data.current.kind).toBe(
      'even',
    );
    await checkLedgerInvariants(t.app.db);
  });

  it('lets a venue admin manage every team: requests, members, rules, periods and records', async () => {
    const { kitchen, anna, carol } = await venue();
    const team = await t.call({ method: 'GET', url: `/api/teams/${kitchen.id}`, token: anna.jwt });
    expect(team.body.data).toMatchObject({ is_admin: true, members: [{ user_id: carol.userId, is_admin: false }] });
    const dan = await staff('Dan');
    const asked = await t.call({ method: 'POST', url: `/api/teams/${kitchen.id}/requests`, token: dan.jwt });
    expect((await t.call({ method: 'GET', url: `/api/teams/${kitchen.id}`, token: anna.jwt })).body.data.requests).toMatchObject([
      { id: asked.body.data.id, user_id: dan.userId },
    ]);
    const declined = await t.call({
      method: 'POST',
      url: `/api/teams/${kitchen.id}/requests/${asked.body.data.id}/decline`,
      token: anna.jwt,
    });
    expect(declined.body.data.status).toBe('declined');
    expect((await setRule(anna, kitchen.id, { kind: 'hours' })).status).toBe(201);
    expect((await t.call({ method: 'GET', url: `/api/teams/${kitchen.id}/periods`, token: anna.jwt })).status).toBe(200);
    const records = await t.call({
      method: 'GET',
      url: `/api/teams/${kitchen.id}/tip-records?from=2026-01-01T00:00:00.000Z&to=2026-02-01T00:00:00.000Z&format=csv`,
      token: anna.jwt,
    });
    expect(records.status).toBe(200);
    expect(
      (await t.call({ method: 'DELETE', url: `/api/teams/${kitchen.id}/members/${carol.userId}`, token: anna.jwt })).status,
    ).toBe(200);
    expect(await workplaceOf(carol)).toBeNull();
  });

  it('gives a team admin and members of one team no rights over another team of the venue', async () => {
    const { workplaceId, front, kitchen, anna, bob, carol } = await venue();
    // Anna hands the kitchen (and its card) over to Carol: Carol runs the kitchen, not the venue.
    const handed = await t.call({
      method: 'POST',
      url: `/api/teams/${kitchen.id}/admin`,
      token: anna.jwt,
      payload: { user_id: carol.userId },
    });
    expect(handed.body.data).toMatchObject({ admin_user_id: carol.userId, is_admin: true });
    expect((await setRule(carol, kitchen.id, { kind: 'hours' })).status).toBe(201);
    for (const [method, url, payload] of [
      ['GET', `/api/teams/${front.id}`, undefined],
      ['GET', `/api/teams/${front.id}/rules`, undefined],
      ['POST', `/api/teams/${front.id}/rules`, { kind: 'hours' }],
      ['DELETE', `/api/teams/${front.id}/members/${bob.userId}`, undefined],
    ] as const) {
      const answer = await t.call({ method, url, token: carol.jwt, payload });
      expect([url, answer.status]).toEqual([url, 404]);
    }
    // A plain member of the front of house gets its admin's refusal, and nothing over the kitchen.
    expect((await setRule(bob, front.id, { kind: 'hours' })).body.code).toBe('team_admin_only');
    expect((await setRule(bob, kitchen.id, { kind: 'hours' })).status).toBe(404);
    // Only venue admins add teams and admins.
    const refused = await t.call({
      method: 'POST',
      url: `/api/workplaces/${workplaceId}/teams`,
      token: carol.jwt,
      payload: { title: 'Spa' },
    });
    expect(refused).toMatchObject({ status: 403, body: { code: 'venue_admin_only' } });
    expect((await addAdmin(bob, workplaceId, bob.userId)).body.code).toBe('venue_admin_only');
    // Anna, a venue admin, still runs the kitchen she handed over.
    expect((await setRule(anna, kitchen.id, { kind: 'even' })).status).toBe(201);
    expect((await workplaceOf(anna)).teams).toHaveLength(2);
  });

  it('adds and removes venue admins, never the last, and ends the role with the membership', async () => {
    const { workplaceId, front, kitchen, anna, bob, carol } = await venue();
    const outsider = await staff('Eve');
    expect(await addAdmin(anna, workplaceId, outsider.userId)).toMatchObject({
      status: 422,
      body: { code: 'not_venue_member' },
    });
    t.clock.advance(60_000);
    const added = await addAdmin(anna, workplaceId, carol.userId);
    expect(added.status).toBe(200);
    expect(added.body.data.map((admin: { user_id: string }) => admin.user_id)).toEqual([anna.userId, carol.userId]);
    expect((await addAdmin(anna, workplaceId, carol.userId)).body.data).toHaveLength(2);
    // Carol, a kitchen member, now runs the front of house too (without being its member).
    expect((await setRule(carol, front.id, { kind: 'hours' })).status).toBe(201);
    expect((await t.call({ method: 'GET', url: `/api/teams/${front.id}`, token: carol.jwt })).body.data.is_admin).toBe(true);
    expect((await workplaceOf(carol)).is_admin).toBe(true);
    // The venue's percentages between teams are hers to edit too (decision 0058's one admin rule).
    const percentages = await t.call({ method: 'GET', url: `/api/workplaces/${workplaceId}/percentages`, token: carol.jwt });
    expect(percentages.body.data.can_edit).toBe(true);

    // Carol removes Anna: the kitchen Anna held without being its member passes to Carol, its card with it.
    const removed = await removeAdmin(carol, workplaceId, anna.userId);
    expect(removed.body.data).toMatchObject([{ user_id: carol.userId, team_id: kitchen.id }]);
    expect((await t.call({ method: 'GET', url: `/api/teams/${kitchen.id}`, token: carol.jwt })).body.data.admin_user_id).toBe(
      carol.userId,
    );
    expect((await t.call({ method: 'GET', url: `/api/teams/${kitchen.id}`, token: anna.jwt })).status).toBe(404);
    const carolsCards = await t.call({ method: 'GET', url: `/api/clients/${carol.clientId}/cards`, token: carol.jwt });
    expect(carolsCards.body.data.map((card: { id: string }) => card.id)).toContain(kitchen.card_id);
    // Anna keeps her own team's admin role.
    expect((await setRule(anna, front.id, { kind: 'even' })).status).toBe(201);

    // The last venue admin cannot be removed, even by themselves, nor leave their team.
    expect(await removeAdmin(carol, workplaceId, carol.userId)).toMatchObject({
      status: 422,
      body: { code: 'venue_last_admin' },
    });
    const left = await t.call({ method: 'POST', url: `/api/teams/${kitchen.id}/leave`, token: carol.jwt });
    expect(left.body.code).toBe('team_admin_cannot_leave');
    expect((await removeAdmin(carol, workplaceId, bob.userId)).status).toBe(404);

    // A venue admin who is a plain member leaves their team: the role ends with the membership.
    expect((await addAdmin(carol, workplaceId, bob.userId)).status).toBe(200);
    expect((await t.call({ method: 'POST', url: `/api/teams/${front.id}/leave`, token: bob.jwt })).status).toBe(200);
    expect((await workplaceOf(carol)).admins).toMatchObject([{ user_id: carol.userId }]);
  });

  it('refuses a team admin removing a venue admin, hands the venue over with the own team, and keeps the last venue admin', async () => {
    const { workplaceId, kitchen, anna, bob, carol } = await venue();
    await t.call({ method: 'POST', url: `/api/teams/${kitchen.id}/admin`, token: anna.jwt, payload: { user_id: carol.userId } });
    const dan = await staff('Dan');
    await join(kitchen.id, carol, dan);
    expect((await addAdmin(anna, workplaceId, dan.userId)).status).toBe(200);
    const removal = await t.call({ method: 'DELETE', url: `/api/teams/${kitchen.id}/members/${dan.userId}`, token: carol.jwt });
    expect(removal).toMatchObject({ status: 403, body: { code: 'venue_admin_only' } });
    // Anna, a venue admin, may: Dan's venue role ends with his membership.
    expect(
      (await t.call({ method: 'DELETE', url: `/api/teams/${kitchen.id}/members/${dan.userId}`, token: anna.jwt })).status,
    ).toBe(200);
    expect((await workplaceOf(anna)).admins).toMatchObject([{ user_id: anna.userId }]);
    // Anna hands her own team to Bob: the venue goes with it, and she may leave as a regular member.
    const front = (await workplaceOf(anna)).team.id as string;
    await t.call({ method: 'POST', url: `/api/teams/${front}/admin`, token: anna.jwt, payload: { user_id: bob.userId } });
    expect((await workplaceOf(bob)).admins).toMatchObject([{ user_id: bob.userId }]);
    expect((await t.call({ method: 'POST', url: `/api/teams/${front}/leave`, token: anna.jwt })).status).toBe(200);
    // Bob, now the venue's only admin, makes Dan (back in the kitchen) one and steps down: Dan, a plain member of the
    // kitchen, may not leave it while the last.
    await join(kitchen.id, carol, dan);
    expect((await addAdmin(bob, workplaceId, dan.userId)).status).toBe(200);
    expect((await removeAdmin(bob, workplaceId, bob.userId)).status).toBe(200);
    const left = await t.call({ method: 'POST', url: `/api/teams/${kitchen.id}/leave`, token: dan.jwt });
    expect(left).toMatchObject({ status: 422, body: { code: 'venue_last_admin' } });
  });

  it('keeps one admin when two remove each other at the same moment', async () => {
    const { workplaceId, anna, carol } = await venue();
    expect((await addAdmin(anna, workplaceId, carol.userId)).status).toBe(200);
    const answers = await Promise.all([
      removeAdmin(anna, workplaceId, carol.userId),
      removeAdmin(carol, workplaceId, anna.userId),
    ]);
    // The venue row's lock orders them: the second finds its author removed already.
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    expect(answers.find((answer) => answer.status === 403)!.body.code).toBe('venue_admin_only');
    const admins = (await workplaceOf(anna)) ?? (await workplaceOf(carol));
    expect(admins.admins).toHaveLength(1);
  });

  it("makes the migration's venue admins of each venue's creator and team admin still in its team", async () => {
    const { workplaceId, front, anna, bob } = await venue();
    // Anna hands the first team to Bob: both are to be venue admins of the workplace as it stood before venues.
    await t.call({ method: 'POST', url: `/api/teams/${front.id}/admin`, token: anna.jwt, payload: { user_id: bob.userId } });
    await t.app.db.execute(sql`DELETE FROM workplace_admins WHERE workplace_id = ${workplaceId}`);
    const backfill = await readFile(new URL('../../db/migrations/0046_venue_admins_backfill.sql', import.meta.url), 'utf8');
    await t.app.db.execute(sql.raw(backfill));
    const ids = (await workplaceOf(anna)).admins.map((admin: { user_id: string }) => admin.user_id);
    expect(ids.sort()).toEqual([anna.userId, bob.userId].sort());
  });

  it("hands the venue, and the teams its last admin held, to who takes over the admin's team when the account is deleted", async () => {
    const { workplaceId, front, kitchen, anna, bob } = await venue();
    const deleted = await t.call({ method: 'POST', url: '/api/user/deletion_statements', token: anna.jwt, payload: {} });
    expect(deleted.status).toBe(200);
    expect(await workplaceOf(bob)).toMatchObject({
      id: workplaceId,
      is_admin: true,
      team: { id: front.id, admin_user_id: bob.userId },
      admins: [{ user_id: bob.userId }],
    });
    const held = await t.call({ method: 'GET', url: `/api/teams/${kitchen.id}`, token: bob.jwt });
    expect(held.body.data).toMatchObject({ admin_user_id: bob.userId, is_admin: true });
    const cards = await t.call({ method: 'GET', url: `/api/clients/${bob.clientId}/cards`, token: bob.jwt });
    expect(cards.body.data.map((card: { id: string }) => card.id)).toEqual(
      expect.arrayContaining([front.card_id, kitchen.card_id]),
    );
  });

  it('answers 404 for another venue and 4xx for bad input, changing nothing', async () => {
    const { workplaceId, kitchen, anna } = await venue();
    const stranger = await staff('Zed');
    const own = await createWorkplace(stranger, 'Other bar');
    for (const [method, url, payload] of [
      ['POST', `/api/workplaces/${workplaceId}/teams`, { title: 'Spa' }],
      ['POST', `/api/workplaces/${workplaceId}/admins`, { user_id: stranger.userId }],
      ['DELETE', `/api/workplaces/${workplaceId}/admins/${anna.userId}`, undefined],
      ['GET', `/api/teams/${kitchen.id}`, undefined],
      ['GET', `/api/teams/${kitchen.id}/periods`, undefined],
      ['POST', `/api/workplaces/00000000-0000-4000-8000-000000000000/teams`, { title: 'Spa' }],
    ] as const) {
      const answer = await t.call({ method, url, token: stranger.jwt, payload });
      expect([url, answer.status, answer.body.code]).toEqual([url, 404, 'not_found']);
    }
    // Anna cannot reach into the stranger's venue either, nor make its member an admin of hers.
    expect((await t.call({ method: 'GET', url: `/api/teams/${own.id}`, token: anna.jwt })).status).toBe(404);
    expect((await addAdmin(anna, workplaceId, stranger.userId)).body.code).toBe('not_venue_member');

    for (const payload of [{}, { title: ' ' }, { title: 'x'.repeat(61) }, { title: 5 }]) {
      const answer = await t.call({ method: 'POST', url: `/api/workplaces/${workplaceId}/teams`, token: anna.jwt, payload });
      expect([JSON.stringify(payload), answer.status, answer.body.code]).toEqual([
        JSON.stringify(payload),
        422,
        'validation_failed',
      ]);
    }
    for (const payload of [{}, { user_id: 'bob' }]) {
      const answer = await t.call({ method: 'POST', url: `/api/workplaces/${workplaceId}/admins`, token: anna.jwt, payload });
      expect(answer.status).toBe(422);
    }
    expect(
      (await t.call({ method: 'POST', url: `/api/workplaces/nope/teams`, token: anna.jwt, payload: { title: 'A' } })).status,
    ).toBeGreaterThanOrEqual(400);
    expect(
      (await t.call({ method: 'DELETE', url: `/api/workplaces/${workplaceId}/admins/nope`, token: anna.jwt })).status,
    ).toBeLessThan(500);
    expect((await workplaceOf(anna)).teams).toHaveLength(2);
    expect((await workplaceOf(anna)).admins).toHaveLength(1);
  });
});
