import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAllocations } from '../../db/schema/payments.ts';
import { users } from '../../db/schema/users.ts';
import { deliverSandboxEvent, openPayment, receiveTip, sandboxRefOf } from '../../test/sandbox-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { teamFixtures, type Staff } from './teams.fixtures.ts';
import { isTeamAdmin } from './teams.service.ts';

const HOUR = 3_600_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { staff, later, createWorkplace, join, team, holdOf, mainOf } = teamFixtures(() => t);

describe('workplace and team', () => {
  it('creates the workplace, its team with the creator as admin, and a team card the admin holds', async () => {
    const admin = await staff('Anna');
    expect(
      (await t.call({ method: 'GET', url: `/api/clients/${admin.clientId}/workplace`, token: admin.jwt })).body.data,
    ).toBeNull();
    const created = await t.call({
      method: 'POST',
      url: `/api/clients/${admin.clientId}/workplace`,
      token: admin.jwt,
      payload: { name: 'Bar Riga', country: 'LV' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Bar Riga',
      country: 'LV',
      team: {
        title: 'Bar Riga',
        admin_user_id: admin.userId,
        is_admin: true,
        members: [{ user_id: admin.userId, public_name: 'Anna', is_admin: true }],
        requests: [],
        invite_url: expect.stringMatching(/\/teams\/[0-9a-f-]{36}\/join$/),
      },
    });
    const cards = await t.call({ method: 'GET', url: `/api/clients/${admin.clientId}/cards`, token: admin.jwt });
    expect(cards.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: created.body.data.team.card_id, is_private: false })]),
    );
    expect(await isTeamAdmin(t.app.db, admin.userId)).toBe(true);

    const again = await t.call({
      method: 'POST',
      url: `/api/clients/${admin.clientId}/workplace`,
      token: admin.jwt,
      payload: { name: 'Other', country: 'LV' },
    });
    expect(again).toMatchObject({
      status: 422,
      body: { code: 'already_in_team', errors: ['You are already a member of a team'] },
    });
  });

  it("refuses bad input with a 422 and another user's client with a 404, changing nothing", async () => {
    const user = await staff();
    const other = await staff();
    const blank = await t.call({
      method: 'POST',
      url: `/api/clients/${user.clientId}/workplace`,
      token: user.jwt,
      payload: { name: ' ', country: 'US' },
    });
    expect(blank.status).toBe(422);
    expect(Object.keys(blank.body.validation_errors).sort()).toEqual(['country', 'name']);
    const foreign = await t.call({
      method: 'POST',
      url: `/api/clients/${other.clientId}/workplace`,
      token: user.jwt,
      payload: { name: 'X', country: 'LV' },
    });
    expect(foreign.status).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/workplace`, token: user.jwt })).body.data,
    ).toBeNull();
    expect(
      (await t.call({ method: 'POST', url: `/api/clients/${user.clientId}/workplace`, payload: { name: 'X', country: 'LV' } }))
        .status,
    ).toBe(401);
  });

  it('shows the join page to anyone, and "Team not found" for an unknown team', async () => {
    const { id } = await team(2);
    const page = await t.call({ method: 'GET', url: `/api/public/teams/${id}` });
    expect(page.body.data).toMatchObject({ id, title: 'Bar Riga', workplace_name: 'Bar Riga', member_count: 2 });
    const unknown = await t.call({ method: 'GET', url: `/api/public/teams/${crypto.randomUUID()}` });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'team_not_found', message: 'Team not found' } });
    expect((await t.call({ method: 'GET', url: '/api/public/teams/not-a-uuid' })).status).toBe(404);
  });

  it('lets a user request once, the admin approve, and tells a member of another team so', async () => {
    const admin = await staff();
    const { id } = await createWorkplace(admin);
    const colleague = await staff('Bob');
    const first = await t.call({ method: 'POST', url: `/api/teams/${id}/requests`, token: colleague.jwt });
    const second = await t.call({ method: 'POST', url: `/api/teams/${id}/requests`, token: colleague.jwt });
    expect(second.body.data.id).toBe(first.body.data.id);
    const view = await t.call({ method: 'GET', url: `/api/teams/${id}`, token: admin.jwt });
    expect(view.body.data.requests).toEqual([
      expect.objectContaining({ id: first.body.data.id, user_id: colleague.userId, public_name: 'Bob', status: 'pending' }),
    ]);
    const approved = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/requests/${first.body.data.id}/approve`,
      token: admin.jwt,
    });
    expect(approved.body.data.status).toBe('approved');
    const twice = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/requests/${first.body.data.id}/decline`,
      token: admin.jwt,
    });
    expect(twice).toMatchObject({ status: 422, body: { code: 'join_request_closed' } });

    const otherAdmin = await staff();
    const other = await createWorkplace(otherAdmin, 'Cafe');
    const refused = await t.call({ method: 'POST', url: `/api/teams/${other.id}/requests`, token: colleague.jwt });
    expect(refused).toMatchObject({ status: 422, body: { code: 'already_in_team' } });
    expect(
      (await t.call({ method: 'POST', url: `/api/teams/${crypto.randomUUID()}/requests`, token: colleague.jwt })).body.code,
    ).toBe('team_not_found');
  });

  it('shows the one who asked their waiting request, lets them withdraw it, and texts each decision in their language', async () => {
    const admin = await staff();
    const { id } = await createWorkplace(admin, 'Kafejnīca Rīga');
    const asker = await staff('Chloé');
    await t.app.db.update(users).set({ language: 'fr' }).where(eq(users.id, asker.userId));
    const texts = async () =>
      (
        (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(asker.phone)}` })).body.data as {
          body: string;
        }[]
      )
        .map((message) => message.body)
        .reverse();
    const own = () => t.call({ method: 'GET', url: `/api/clients/${asker.clientId}/team-requests`, token: asker.jwt });

    const asked = (await t.call({ method: 'POST', url: `/api/teams/${id}/requests`, token: asker.jwt })).body.data;
    expect((await own()).body.data).toEqual([
      { id: asked.id, team_id: id, team_title: 'Kafejnīca Rīga', workplace_name: 'Kafejnīca Rīga', created_at: asked.created_at },
    ]);
    // Nobody else's to see or to take back.
    const stranger = await staff();
    expect(
      (await t.call({ method: 'GET', url: `/api/clients/${asker.clientId}/team-requests`, token: stranger.jwt })).status,
    ).toBe(404);
    const withdrawAs = (person: Staff, requestId = asked.id) =>
      t.call({ method: 'DELETE', url: `/api/teams/${id}/requests/${requestId}`, token: person.jwt });
    expect((await withdrawAs(admin)).status).toBe(404);
    expect((await withdrawAs(stranger)).status).toBe(404);
    expect((await withdrawAs(asker, crypto.randomUUID())).status).toBe(404);

    const withdrawn = await withdrawAs(asker);
    expect(withdrawn).toMatchObject({ status: 200, body: { data: { id: asked.id, status: 'withdrawn' } } });
    expect((await own()).body.data).toEqual([]);
    expect((await t.call({ method: 'GET', url: `/api/teams/${id}`, token: admin.jwt })).body.data.requests).toEqual([]);
    expect(await withdrawAs(asker)).toMatchObject({ status: 422, body: { code: 'join_request_closed' } });
    expect(
      (await t.call({ method: 'POST', url: `/api/teams/${id}/requests/${asked.id}/approve`, token: admin.jwt })).body.code,
    ).toBe('join_request_closed');
    expect(await texts()).toEqual([]);

    // Asked again: declined, asked once more: approved, then removed; each told once, in French.
    const again = (await t.call({ method: 'POST', url: `/api/teams/${id}/requests`, token: asker.jwt })).body.data;
    expect(again.id).not.toBe(asked.id);
    await t.call({ method: 'POST', url: `/api/teams/${id}/requests/${again.id}/decline`, token: admin.jwt });
    await join(id, admin, asker);
    expect((await own()).body.data).toEqual([]);
    expect((await t.call({ method: 'DELETE', url: `/api/teams/${id}/members/${asker.userId}`, token: admin.jwt })).status).toBe(
      200,
    );
    const team = 'Équipe\u00A0: Kafejnīca Rīga (Kafejnīca Rīga).';
    expect(await texts()).toEqual([
      `Tipcard\u00A0: votre demande pour rejoindre une équipe a été refusée. ${team}`,
      `Tipcard\u00A0: votre demande pour rejoindre une équipe a été acceptée. ${team} Vous recevez désormais votre part de ses pourboires.`,
      `Tipcard\u00A0: l’administrateur vous a retiré d’une équipe. ${team} Les pourboires déjà partagés avec vous restent à vous.`,
    ]);
  });

  it('settles a withdrawal racing the approval of the same request: one wins, and membership follows it', async () => {
    const admin = await staff();
    const { id } = await createWorkplace(admin);
    for (let round = 0; round < 10; round++) {
      const asker = await staff();
      const asked = (await t.call({ method: 'POST', url: `/api/teams/${id}/requests`, token: asker.jwt })).body.data;
      const [withdrawn, approved] = await Promise.all([
        t.call({ method: 'DELETE', url: `/api/teams/${id}/requests/${asked.id}`, token: asker.jwt }),
        t.call({ method: 'POST', url: `/api/teams/${id}/requests/${asked.id}/approve`, token: admin.jwt }),
      ]);
      expect([withdrawn.status, approved.status].sort()).toEqual([200, 422]);
      const members = (await t.call({ method: 'GET', url: `/api/teams/${id}`, token: admin.jwt })).body.data.members as {
        user_id: string;
      }[];
      expect(members.some((member) => member.user_id === asker.userId)).toBe(approved.status === 200);
    }
  });

  it('lets a user who asked two teams join only one of them', async () => {
    const [a, b] = [await staff(), await staff()];
    const [teamA, teamB] = [await createWorkplace(a, 'A'), await createWorkplace(b, 'B')];
    const user = await staff();
    const toA = await t.call({ method: 'POST', url: `/api/teams/${teamA.id}/requests`, token: user.jwt });
    const toB = await t.call({ method: 'POST', url: `/api/teams/${teamB.id}/requests`, token: user.jwt });
    const answers = await Promise.all([
      t.call({ method: 'POST', url: `/api/teams/${teamA.id}/requests/${toA.body.data.id}/approve`, token: a.jwt }),
      t.call({ method: 'POST', url: `/api/teams/${teamB.id}/requests/${toB.body.data.id}/approve`, token: b.jwt }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    const workplace = await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/workplace`, token: user.jwt });
    expect([teamA.id, teamB.id]).toContain(workplace.body.data.team.id);
    expect(answers.find((answer) => answer.status === 422)!.body.code).toBe('already_in_team');
  });

  it('keeps every admin call from other members (403) and every team call from non-members (404)', async () => {
    const { id, admin, members } = await team(2);
    const member = members[1]!;
    const outsider = await staff();
    const request = await t.call({ method: 'POST', url: `/api/teams/${id}/requests`, token: outsider.jwt });
    const asMember = [
      { method: 'PATCH', url: `/api/teams/${id}`, payload: { title: 'Mine' } },
      { method: 'POST', url: `/api/teams/${id}/requests/${request.body.data.id}/approve` },
      { method: 'POST', url: `/api/teams/${id}/requests/${request.body.data.id}/decline` },
      { method: 'DELETE', url: `/api/teams/${id}/members/${admin.userId}` },
      { method: 'POST', url: `/api/teams/${id}/admin`, payload: { user_id: member.userId } },
      { method: 'PATCH', url: `/api/clients/${member.clientId}/workplace`, payload: { name: 'Mine' } },
    ] as const;
    for (const call of asMember) {
      const answer = await t.call({ ...call, token: member.jwt });
      expect([call.url, answer.status, answer.body.code]).toEqual([call.url, 403, 'team_admin_only']);
    }
    const asOutsider = [
      { method: 'GET', url: `/api/teams/${id}` },
      { method: 'PATCH', url: `/api/teams/${id}`, payload: { title: 'Mine' } },
      { method: 'GET', url: `/api/teams/${id}/history` },
      { method: 'GET', url: `/api/teams/${id}/statistics?from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z` },
      { method: 'POST', url: `/api/teams/${id}/leave` },
      { method: 'POST', url: `/api/teams/${id}/requests/${request.body.data.id}/approve` },
      { method: 'DELETE', url: `/api/teams/${id}/members/${member.userId}` },
      { method: 'POST', url: `/api/teams/${id}/admin`, payload: { user_id: outsider.userId } },
    ] as const;
    for (const call of asOutsider) {
      const answer = await t.call({ ...call, token: outsider.jwt });
      expect([call.url, answer.status]).toEqual([call.url, 404]);
    }
    const view = await t.call({ method: 'GET', url: `/api/teams/${id}`, token: member.jwt });
    expect(view.body.data).toMatchObject({ title: 'Bar Riga', is_admin: false, requests: [] });
    expect(view.body.data.members).toHaveLength(2);
  });

  it('lets the admin rename the team and its workplace, the team card following', async () => {
    const { id, admin, card_id } = await team(1);
    const renamed = await t.call({
      method: 'PATCH',
      url: `/api/teams/${id}`,
      token: admin.jwt,
      payload: { title: 'Night shift' },
    });
    expect(renamed.body.data.title).toBe('Night shift');
    const moved = await t.call({
      method: 'PATCH',
      url: `/api/clients/${admin.clientId}/workplace`,
      token: admin.jwt,
      payload: { name: 'Bar Tallinn', country: 'EE' },
    });
    expect(moved.body.data).toMatchObject({ name: 'Bar Tallinn', country: 'EE', team: { title: 'Night shift' } });
    const card = await t.call({ method: 'GET', url: `/api/public/cards/${card_id}` });
    expect(card.body.data).toMatchObject({
      title: 'Night shift',
      public_name: 'Bar Tallinn',
      team: { id, title: 'Night shift', workplace_name: 'Bar Tallinn', member_count: 1 },
    });
    expect((await t.call({ method: 'PATCH', url: `/api/teams/${id}`, token: admin.jwt, payload: { title: '' } })).status).toBe(
      422,
    );
  });

  it('keeps one admin: the admin cannot leave or be removed until admin is handed over, which moves the team card', async () => {
    const { id, admin, members, card_id } = await team(3);
    const [, bob, carol] = members as [Staff, Staff, Staff];
    expect((await t.call({ method: 'POST', url: `/api/teams/${id}/leave`, token: admin.jwt })).body.code).toBe(
      'team_admin_cannot_leave',
    );
    expect(
      (await t.call({ method: 'DELETE', url: `/api/teams/${id}/members/${admin.userId}`, token: admin.jwt })).body.code,
    ).toBe('team_admin_cannot_leave');
    const outsider = await staff();
    expect(
      (await t.call({ method: 'POST', url: `/api/teams/${id}/admin`, token: admin.jwt, payload: { user_id: outsider.userId } }))
        .body.code,
    ).toBe('not_team_member');
    const deleteAccount = (who: Staff) =>
      t.call({ method: 'POST', url: '/api/user/deletion_statements', token: who.jwt, payload: {} });

    const granted = await t.call({
      method: 'POST',
      url: `/api/teams/${id}/admin`,
      token: admin.jwt,
      payload: { user_id: bob.userId },
    });
    expect(granted.body.data).toMatchObject({ admin_user_id: bob.userId, is_admin: false });
    // Handing her own team over hands the venue over with it (decision 0057).
    const bobsVenue = await t.call({ method: 'GET', url: `/api/clients/${bob.clientId}/workplace`, token: bob.jwt });
    expect(bobsVenue.body.data).toMatchObject({ is_admin: true, admins: [{ user_id: bob.userId }] });
    expect(await isTeamAdmin(t.app.db, admin.userId)).toBe(false);
    expect(await isTeamAdmin(t.app.db, bob.userId)).toBe(true);
    const bobsCards = await t.call({ method: 'GET', url: `/api/clients/${bob.clientId}/cards`, token: bob.jwt });
    expect(bobsCards.body.data.map((c: { id: string }) => c.id)).toContain(card_id);
    const annasCards = await t.call({ method: 'GET', url: `/api/clients/${admin.clientId}/cards`, token: admin.jwt });
    expect(annasCards.body.data.map((c: { id: string }) => c.id)).not.toContain(card_id);
    expect(
      (await t.call({ method: 'DELETE', url: `/api/teams/${id}/members/${carol.userId}`, token: admin.jwt })).body.code,
    ).toBe('team_admin_only');

    expect((await t.call({ method: 'POST', url: `/api/teams/${id}/leave`, token: admin.jwt })).status).toBe(200);
    expect((await t.call({ method: 'DELETE', url: `/api/teams/${id}/members/${carol.userId}`, token: bob.jwt })).status).toBe(
      200,
    );
    expect((await t.call({ method: 'DELETE', url: `/api/teams/${id}/members/${carol.userId}`, token: bob.jwt })).body.code).toBe(
      'not_team_member',
    );
    const view = await t.call({ method: 'GET', url: `/api/teams/${id}`, token: bob.jwt });
    expect(view.body.data.members.map((m: { user_id: string }) => m.user_id)).toEqual([bob.userId]);
    expect((await t.call({ method: 'GET', url: `/api/teams/${id}`, token: admin.jwt })).status).toBe(404);
    // Handed over and gone: the former admin's account has no team to end.
    expect((await deleteAccount(admin)).status).toBe(200);
  });

  it('records leave and rejoin as two periods of work history', async () => {
    const { id, admin, members } = await team(2);
    const bob = members[1]!;
    await later(HOUR, admin, bob);
    await t.call({ method: 'POST', url: `/api/teams/${id}/leave`, token: bob.jwt });
    await later(HOUR, admin, bob);
    await join(id, admin, bob);
    const history = await t.call({ method: 'GET', url: `/api/teams/${id}/history`, token: bob.jwt });
    const bobs = history.body.data.filter((p: { user_id: string }) => p.user_id === bob.userId);
    expect(bobs).toHaveLength(2);
    expect(bobs[0]).toMatchObject({ left_at: null });
    expect(bobs[1].left_at).toEqual(expect.any(String));
    expect(Date.parse(bobs[1].left_at)).toBeLessThan(Date.parse(bobs[0].joined_at));
    expect(history.body.data.find((p: { user_id: string }) => p.user_id === admin.userId)).toMatchObject({
      public_name: 'Anna',
      left_at: null,
    });
  });

  it('takes 50 concurrent join requests and their 50 concurrent approvals, each once', async () => {
    const { id, admin } = await team(1);
    const users = await Promise.all(Array.from({ length: 50 }, () => staff()));
    const requests = await Promise.all(
      users.map((user) => t.call({ method: 'POST', url: `/api/teams/${id}/requests`, token: user.jwt })),
    );
    expect(requests.map((r) => r.status)).toEqual(users.map(() => 201));
    const approvals = await Promise.all(
      requests
        .flatMap((r) => [r, r])
        .map((r) => t.call({ method: 'POST', url: `/api/teams/${id}/requests/${r.body.data.id}/approve`, token: admin.jwt })),
    );
    expect(approvals.filter((a) => a.status === 200)).toHaveLength(50);
    expect(approvals.filter((a) => a.status === 422 && a.body.code === 'join_request_closed')).toHaveLength(50);
    const view = await t.call({ method: 'GET', url: `/api/teams/${id}`, token: admin.jwt });
    expect(view.body.data.members).toHaveLength(51);
    expect(view.body.data.requests).toEqual([]);
  }, 120_000);
});

describe('tips to the team card', () => {
  it('splits a 10 EUR tip among three members to the cent, on hold then paid, named after the team', async () => {
    const { id, card_id, members } = await team(3);
    const card = await t.call({ method: 'GET', url: `/api/public/cards/${card_id}` });
    expect(card.body.data.team).toMatchObject({
      id,
      title: 'Bar Riga',
      member_count: 3,
      members: [{ public_name: 'Anna' }, expect.any(Object), expect.any(Object)],
    });

    await receiveTip(t, card_id, 1_000, { message: 'Thanks all', rating: 5 });
    // The guest's rating counts on the team's card.
    expect((await t.call({ method: 'GET', url: `/api/public/cards/${card_id}` })).body.data).toMatchObject({
      rating: 5,
      rating_count: 1,
    });
    // 9.50 received over three: 3.17, 3.17, 3.16 (the extra cents to the longest-standing); the 0.50 fee likewise.
    expect(await Promise.all(members.map(holdOf))).toEqual([317, 317, 316]);
    for (const [index, member] of members.entries()) {
      const history = await t.call({ method: 'GET', url: `/api/clients/${member.clientId}/transactions`, token: member.jwt });
      expect(history.body.data.items).toEqual([
        expect.objectContaining({
          type: 'PAYIN',
          status: 'HOLD',
          amount_cents: [317, 317, 316][index],
          fee_cents: [17, 17, 16][index],
          description: 'Team tip via Bar Riga',
          message: 'Thanks all',
        }),
      ]);
    }
    await later(24 * HOUR + 1, ...members);
    await t.runJob('payments.release');
    expect(await Promise.all(members.map(mainOf))).toEqual([317, 317, 316]);
    const paid = await t.call({
      method: 'GET',
      url: `/api/clients/${members[2]!.clientId}/transactions`,
      token: members[2]!.jwt,
    });
    expect(paid.body.data.items[0]).toMatchObject({ status: 'PAID' });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('gives every member their full share when the guest covers the cost', async () => {
    const { card_id, members } = await team(3);
    const payment = await receiveTip(t, card_id, 1_000, { cover_fee: true });
    expect(payment.total_cents).toBe(1_050);
    expect(await Promise.all(members.map(holdOf))).toEqual([334, 333, 333]);
  });

  it('splits among the members at the moment of payment: a member who leaves keeps what was split, a newcomer gets only later tips', async () => {
    const { id, card_id, admin, members } = await team(2);
    const bob = members[1]!;
    await receiveTip(t, card_id, 1_000);
    await t.call({ method: 'POST', url: `/api/teams/${id}/leave`, token: bob.jwt });
    const carol = await staff();
    await join(id, admin, carol);
    // Opened while Bob was a member, paid after he left: split between Anna and Carol.
    await receiveTip(t, card_id, 500);
    expect(await holdOf(admin)).toBe(475 + 238);
    expect(await holdOf(bob)).toBe(475);
    expect(await holdOf(carol)).toBe(237);
  });

  it('takes refunds and chargebacks back per share, and statistics count what is left', async () => {
    const { id, card_id, members } = await team(3);
    const from = t.clock.now().toISOString();
    const refunded = await receiveTip(t, card_id, 1_000);
    expect(await deliverSandboxEvent(t, refunded, 'payment.refunded')).toBe('applied');
    expect(await Promise.all(members.map(holdOf))).toEqual([0, 0, 0]);
    const history = await t.call({
      method: 'GET',
      url: `/api/clients/${members[0]!.clientId}/transactions`,
      token: members[0]!.jwt,
    });
    expect(history.body.data.items[0]).toMatchObject({ status: 'REFUNDED' });

    const disputed = await receiveTip(t, card_id, 2_000);
    await later(24 * HOUR + 1, ...members);
    await t.runJob('payments.release');
    // A partial chargeback of 6.00 after release: each share gives up its proportional part from main.
    const outcome = await t.app.services.payments.applyEvent('sandbox', {
      id: `evt_${crypto.randomUUID()}`,
      type: 'payment.chargeback',
      provider_ref: sandboxRefOf(disputed),
      payment_id: disputed.id,
      amount_cents: 600,
      currency: 'EUR',
      created_at: t.clock.now().getTime(),
    });
    expect(outcome).toBe('applied');
    const rows = await t.app.db.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, disputed.id));
    expect(rows.reduce((sum, r) => sum + r.reversedNetCents + r.reversedFeeCents, 0)).toBe(600);
    const mains = await Promise.all(members.map(mainOf));
    expect(mains.reduce((a, b) => a + b, 0)).toBe(1_900 - rows.reduce((sum, r) => sum + r.reversedNetCents, 0));
    expect(Math.max(...mains) - Math.min(...mains)).toBeLessThanOrEqual(1);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);

    const to = new Date(t.clock.now().getTime() + 1).toISOString();
    const stats = await t.call({
      method: 'GET',
      url: `/api/teams/${id}/statistics?from=${from}&to=${to}`,
      token: members[1]!.jwt,
    });
    expect(stats.status).toBe(200);
    expect(stats.body.data.members).toEqual(
      members.map((m, i) => expect.objectContaining({ user_id: m.userId, count: 2, sum_cents: mains[i] })),
    );
    expect(stats.body.data.total_cents).toBe(mains.reduce((a, b) => a + b, 0));
    const before = await t.call({
      method: 'GET',
      url: `/api/teams/${id}/statistics?from=2020-01-01T00:00:00Z&to=${from}`,
      token: members[1]!.jwt,
    });
    expect(before.body.data.total_count).toBe(0);
    const bad = await t.call({ method: 'GET', url: `/api/teams/${id}/statistics?from=${to}&to=${from}`, token: members[1]!.jwt });
    expect(bad.status).toBe(422);
  });

  it('splits each tip among the members of one moment while a member is being removed', async () => {
    const { id, card_id, admin, members } = await team(4);
    const leaving = members[3]!;
    const opened = await Promise.all(Array.from({ length: 12 }, () => openPayment(t, card_id, 1_000)));
    const [outcomes] = await Promise.all([
      Promise.all(opened.map((payment) => deliverSandboxEvent(t, payment, 'payment.succeeded'))),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const removed = await t.call({ method: 'DELETE', url: `/api/teams/${id}/members/${leaving.userId}`, token: admin.jwt });
        expect(removed.status).toBe(200);
      })(),
    ]);
    expect(outcomes).toEqual(opened.map(() => 'applied'));
    let withLeaver = 0;
    for (const payment of opened) {
      const rows = await t.app.db.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, payment.id));
      const nets = rows.map((r) => r.netCents);
      expect(nets.reduce((a, b) => a + b, 0) + rows.reduce((s, r) => s + r.feeCents, 0)).toBe(1_000);
      expect(Math.max(...nets) - Math.min(...nets)).toBeLessThanOrEqual(1);
      expect([3, 4]).toContain(rows.length);
      if (rows.some((r) => r.userId === leaving.userId)) {
        expect(rows).toHaveLength(4);
        withLeaver += 1;
      }
    }
    expect(await holdOf(leaving)).toBe(withLeaver * 237);
    const after = await receiveTip(t, card_id, 900);
    const rows = await t.app.db.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, after.id));
    expect(rows.map((r) => r.userId).sort()).toEqual(
      members
        .slice(0, 3)
        .map((m) => m.userId)
        .sort(),
    );
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  }, 120_000);
});
