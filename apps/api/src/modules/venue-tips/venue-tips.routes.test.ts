import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAllocations, paymentReturns } from '../../db/schema/payments.ts';
import { teamMemberships, teams, teamTipSplits } from '../../db/schema/teams.ts';
import { users } from '../../db/schema/users.ts';
import { venuePercentages, venueTipSplits } from '../../db/schema/venue-tips.ts';
import { textOfPdf } from '../../test/pdf.ts';
import { deliverSandboxEvent, openPayment, receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createTeamCard } from '../cards/cards.service.ts';
import { teamFixtures, type Staff } from '../teams/teams.test-support.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { staff, team, holdOf } = teamFixtures(() => t);

/**
 * A second team in the first team's workplace, made through the tables (the API makes one team per workplace until
 * venues hold several): its admin and members join it at one-minute steps.
 */
async function secondTeam(workplaceId: string, title: string, size: number) {
  const admin = await staff(`${title} admin`);
  const db = t.app.db;
  const card = await createTeamCard(db, admin.clientId, { title, workplaceName: title, country: 'LV' });
  const [row] = await db
    .insert(teams)
    .values({ workplaceId, title, adminUserId: admin.userId, cardId: card.id, createdAt: t.clock.now() })
    .returning();
  const members = [admin];
  for (let i = 1; i < size; i++) members.push(await staff());
  for (const member of members) {
    t.clock.advance(60_000);
    await db.insert(teamMemberships).values({ teamId: row!.id, userId: member.userId, joinedAt: t.clock.now() });
  }
  return { id: row!.id, card_id: card.id, admin, members };
}

/** A venue of two teams: front of house (the workplace's own team) and a kitchen. */
async function venue(frontSize = 2, kitchenSize = 2) {
  const front = await team(frontSize);
  const workplace = (
    await t.call({ method: 'GET', url: `/api/clients/${front.admin.clientId}/workplace`, token: front.admin.jwt })
  ).body.data as { id: string };
  t.clock.advance(60_000);
  const kitchen = await secondTeam(workplace.id, 'Kitchen', kitchenSize);
  t.clock.advance(60_000);
  return { workplaceId: workplace.id, front, kitchen };
}

const venueCardOf = async (workplaceId: string, who: Staff) =>
  t.call({ method: 'GET', url: `/api/workplaces/${workplaceId}/venue-card`, token: who.jwt });

const setPercentages = (workplaceId: string, who: Staff, shares: { team_id: string; basis_points: number }[]) =>
  t.call({ method: 'PUT', url: `/api/workplaces/${workplaceId}/percentages`, token: who.jwt, payload: { shares } });

const leaveAll = async (teamId: string) =>
  t.app.db
    .update(teamMemberships)
    .set({ leftAt: t.clock.now() })
    .where(and(eq(teamMemberships.teamId, teamId), isNull(teamMemberships.leftAt)));

describe('the venue card', () => {
  it('is made once for the venue admin, 404 for a member and anyone else, and takes tips on its guest page', async () => {
    const { workplaceId, front, kitchen } = await venue();
    const first = await venueCardOf(workplaceId, front.admin);
    expect(first.status).toBe(200);
    const again = await venueCardOf(workplaceId, front.admin);
    expect(again.body.data).toEqual(first.body.data);
    expect(first.body.data.payment_url).toContain(`/payment/${first.body.data.card_id}`);
    // The kitchen's admin is a venue admin too (today: any team admin of the venue).
    expect((await venueCardOf(workplaceId, kitchen.admin)).body.data.card_id).toBe(first.body.data.card_id);
    for (const who of [front.members[1]!, await staff()])
      expect(await venueCardOf(workplaceId, who)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await venueCardOf('not-a-uuid', front.admin)).status).toBe(404);

    const page = await t.call({ method: 'GET', url: `/api/public/cards/${first.body.data.card_id}` });
    expect(page.status).toBe(200);
    expect(page.body.data.team).toBeUndefined();
    expect(page.body.data.venue).toMatchObject({ id: workplaceId, title: 'Bar Riga', member_count: 4 });
  });
});

describe('percentages between teams', () => {
  it('default to even, take a new version from the venue admin, and refuse bad sums, unknown or missing teams, changing nothing', async () => {
    const { workplaceId, front, kitchen } = await venue();
    const read = async (who: Staff) =>
      t.call({ method: 'GET', url: `/api/workplaces/${workplaceId}/percentages`, token: who.jwt });
    expect((await read(kitchen.members[1]!)).body.data).toMatchObject({
      id: null,
      can_edit: false,
      teams: [
        { team_id: front.id, basis_points: 5000, member_count: 2 },
        { team_id: kitchen.id, title: 'Kitchen', basis_points: 5000, member_count: 2 },
      ],
    });
    await t.app.db.update(users).set({ language: 'fr' }).where(eq(users.id, kitchen.members[1]!.userId));
    const textsTo = async (person: Staff) =>
      (
        (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(person.phone)}` })).body.data as {
          body: string;
        }[]
      ).map((message) => message.body);
    const saved = await setPercentages(workplaceId, front.admin, [
      { team_id: front.id, basis_points: 7000 },
      { team_id: kitchen.id, basis_points: 3000 },
    ]);
    expect(saved.status).toBe(200);
    // Every other member is told their team's percentage in their language; the admin who set them is not.
    expect(await textsTo(kitchen.members[1]!)).toEqual([
      expect.stringMatching(/^Tipcard\s:\sl’administrateur a changé .* Votre équipe Kitchen reçoit désormais 30\s%,/),
    ]);
    expect(await textsTo(front.members[1]!)).toContainEqual(expect.stringMatching(/Your team Bar Riga now gets 70%/));
    expect((await textsTo(front.admin)).some((text) => text.includes('venue card'))).toBe(false);
    expect(saved.body.data).toMatchObject({ can_edit: true, teams: [{ basis_points: 7000 }, { basis_points: 3000 }] });
    expect(saved.body.data.id).not.toBeNull();

    const bad = [
      [
        [
          { team_id: front.id, basis_points: 7000 },
          { team_id: kitchen.id, basis_points: 2999 },
        ],
        'venue_percentages_sum',
      ],
      [[{ team_id: front.id, basis_points: 10_000 }], 'venue_percentages_teams'],
      [
        [
          { team_id: front.id, basis_points: 5000 },
          { team_id: front.id, basis_points: 5000 },
        ],
        'venue_percentages_teams',
      ],
      [
        [
          { team_id: front.id, basis_points: 7000 },
          { team_id: crypto.randomUUID(), basis_points: 3000 },
        ],
        'venue_percentages_teams',
      ],
    ] as const;
    for (const [shares, code] of bad) {
      const refused = await setPercentages(workplaceId, front.admin, [...shares]);
      expect(refused).toMatchObject({ status: 422, body: { code } });
      expect(Object.keys(refused.body.validation_errors)).toContain('shares');
    }
    const negative = await setPercentages(workplaceId, front.admin, [
      { team_id: front.id, basis_points: 10_001 },
      { team_id: kitchen.id, basis_points: -1 },
    ]);
    expect(negative).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
    // A member and a stranger learn nothing.
    const byMember = await setPercentages(workplaceId, front.members[1]!, [
      { team_id: front.id, basis_points: 5000 },
      { team_id: kitchen.id, basis_points: 5000 },
    ]);
    expect(byMember).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await read(await staff())).status).toBe(404);
    const versions = await t.app.db.select().from(venuePercentages).where(eq(venuePercentages.workplaceId, workplaceId));
    expect(versions).toHaveLength(1);
  });
});

describe('venue tips', () => {
  it("split between the teams by percentage, then by each team's rule, recorded for the members' maths and records", async () => {
    const { workplaceId, front, kitchen } = await venue();
    const card = (await venueCardOf(workplaceId, front.admin)).body.data.card_id as string;
    await setPercentages(workplaceId, front.admin, [
      { team_id: front.id, basis_points: 7000 },
      { team_id: kitchen.id, basis_points: 3000 },
    ]);
    const rule = await t.call({
      method: 'POST',
      url: `/api/teams/${kitchen.id}/rules`,
      token: kitchen.admin.jwt,
      payload: { kind: 'points', points: { chef: 3, porter: 1 } },
    });
    expect(rule.status).toBe(201);
    for (const [member, role] of [
      [kitchen.admin, 'chef'],
      [kitchen.members[1]!, 'porter'],
    ] as const)
      expect(
        (
          await t.call({
            method: 'PATCH',
            url: `/api/teams/${kitchen.id}/members/${member.userId}`,
            token: kitchen.admin.jwt,
            payload: { role },
          })
        ).status,
      ).toBe(200);
    t.clock.advance(60_000);
    const payment = await receiveTip(t, card, 1_000, { message: 'Thanks all' });
    // 9.50 to members: 70 % → 6.65 for front of house, 2.85 for the kitchen; the 0.50 fee → 0.35 and 0.15. Front of
    // house even: 3.33 + 3.32 (the cent to the longest-standing), fee 18 + 17. Kitchen 3:1 points: 2.1375 → 2.14 and
    // 0.71, fee 0.1125 → 11 and 4.
    expect(await Promise.all([...front.members, ...kitchen.members].map(holdOf))).toEqual([333, 332, 214, 71]);
    const rows = await t.app.db.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, payment.id));
    expect(rows.reduce((sum, row) => sum + row.netCents + row.feeCents, 0)).toBe(1_000);
    expect(rows.map((row) => row.feeCents).sort()).toEqual([11, 17, 18, 4].sort());
    const [venueSplit] = await t.app.db.select().from(venueTipSplits).where(eq(venueTipSplits.paymentId, payment.id));
    expect(venueSplit).toMatchObject({
      basis: 'percentages',
      parts: [
        { teamId: front.id, basisPoints: 7000, members: 2, netCents: 665, feeCents: 35 },
        { teamId: kitchen.id, basisPoints: 3000, members: 2, netCents: 285, feeCents: 15 },
      ],
    });

    const porterMaths = (
      await t.call({ method: 'GET', url: `/api/teams/${kitchen.id}/tip-shares`, token: kitchen.members[1]!.jwt })
    ).body.data;
    expect(porterMaths).toEqual([
      expect.objectContaining({
        rule: 'points',
        total_cents: 300,
        fee_cents: 15,
        points: 1,
        total_weight: 4,
        net_cents: 71,
        share_fee_cents: 4,
        venue: { total_cents: 1_000, fee_cents: 50, basis_points: 3000, weight: 3000, total_weight: 10_000 },
      }),
    ]);
    const history = await t.call({
      method: 'GET',
      url: `/api/clients/${kitchen.admin.clientId}/transactions`,
      token: kitchen.admin.jwt,
    });
    expect(history.body.data.items[0]).toMatchObject({ detail: { kind: 'venue_tip', venue: 'Bar Riga', team: 'Kitchen' } });
    const records = (format: 'csv' | 'pdf', language: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/clients/${kitchen.admin.clientId}/tip-records?${new URLSearchParams({
          from: new Date(t.clock.now().getTime() - 3_600_000).toISOString(),
          to: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
          format,
        }).toString()}`,
        headers: { authorization: `Bearer ${kitchen.admin.jwt}`, 'accept-language': language },
      });
    const csv = await records('csv', 'en');
    expect(csv.statusCode).toBe(200);
    const [header, line] = csv.body.trim().split('\r\n');
    expect(header).toMatch(/,card,venue_tip_to_members,team_percentage$/);
    expect(line).toMatch(/,2\.14,0\.11,EUR,venue,9\.50,30\.00$/);
    const pdf = await textOfPdf((await records('pdf', 'fr')).rawPayload);
    expect(pdf).toContain('de l’équipe sur un pourboire de l’établissement de');
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('gives a team with no member nothing (the others share its part by their percentages), and gives the tip back when nobody is left', async () => {
    const { workplaceId, front, kitchen } = await venue();
    const card = (await venueCardOf(workplaceId, front.admin)).body.data.card_id as string;
    await setPercentages(workplaceId, front.admin, [
      { team_id: front.id, basis_points: 2500 },
      { team_id: kitchen.id, basis_points: 7500 },
    ]);
    await leaveAll(kitchen.id);
    t.clock.advance(1_000);
    await receiveTip(t, card, 2_000);
    expect(await Promise.all(front.members.map(holdOf))).toEqual([950, 950]);
    await leaveAll(front.id);
    t.clock.advance(1_000);
    const nobody = await receiveTip(t, card, 2_000);
    const [given] = await t.app.db.select().from(paymentReturns).where(eq(paymentReturns.paymentId, nobody.id));
    expect(given).toBeDefined();
    expect(await t.app.db.select().from(teamTipSplits).where(eq(teamTipSplits.paymentId, nobody.id))).toEqual([]);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('splits each tip by one moment while members leave and join and the percentages change, the money equal to the recorded maths', async () => {
    const { workplaceId, front, kitchen } = await venue(3, 2);
    const card = (await venueCardOf(workplaceId, front.admin)).body.data.card_id as string;
    const newcomer = await staff('Newcomer');
    const asked = await t.call({ method: 'POST', url: `/api/teams/${kitchen.id}/requests`, token: newcomer.jwt });
    expect(asked.status).toBe(201);
    t.clock.advance(60_000);
    const opened = await Promise.all(Array.from({ length: 12 }, () => openPayment(t, card, 1_000)));
    const [outcomes, removed, approved, changed] = await Promise.all([
      Promise.all(opened.map((payment) => deliverSandboxEvent(t, payment, 'payment.succeeded'))),
      t.call({ method: 'DELETE', url: `/api/teams/${front.id}/members/${front.members[2]!.userId}`, token: front.admin.jwt }),
      t.call({
        method: 'POST',
        url: `/api/teams/${kitchen.id}/requests/${asked.body.data.id}/approve`,
        token: kitchen.admin.jwt,
      }),
      setPercentages(workplaceId, front.admin, [
        { team_id: front.id, basis_points: 4000 },
        { team_id: kitchen.id, basis_points: 6000 },
      ]),
    ]);
    expect(outcomes).toEqual(opened.map(() => 'applied'));
    expect([removed.status, approved.status, changed.status]).toEqual([200, 200, 200]);
    const frontBefore = front.members.map((m) => m.userId).sort();
    const frontAfter = frontBefore.filter((id) => id !== front.members[2]!.userId);
    const kitchenBefore = kitchen.members.map((m) => m.userId).sort();
    const kitchenAfter = [...kitchenBefore, newcomer.userId].sort();
    const splits = await t.app.db.select().from(venueTipSplits).where(eq(venueTipSplits.workplaceId, workplaceId));
    expect(splits).toHaveLength(12);
    for (const split of splits) {
      // One moment: the percentages before or after the change, each team's members before or after its change.
      expect([
        [5000, 5000],
        [4000, 6000],
      ]).toContainEqual(split.parts.map((part) => part.basisPoints));
      const teamRows = await t.app.db.select().from(teamTipSplits).where(eq(teamTipSplits.paymentId, split.paymentId));
      const membersOf = (teamId: string) =>
        teamRows
          .find((row) => row.teamId === teamId)!
          .shares.map((share) => share.userId)
          .sort();
      expect([frontBefore, frontAfter]).toContainEqual(membersOf(front.id));
      expect([kitchenBefore, kitchenAfter]).toContainEqual(membersOf(kitchen.id));
      for (const part of split.parts) {
        const row = teamRows.find((each) => each.teamId === part.teamId)!;
        expect([row.totalCents, row.feeCents, row.shares.length]).toEqual([
          part.netCents + part.feeCents,
          part.feeCents,
          part.members,
        ]);
      }
      const credited = await t.app.db.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, split.paymentId));
      const recorded = teamRows.flatMap((row) => row.shares).filter((share) => share.netCents + share.feeCents > 0);
      expect(credited.map((r) => [r.userId, r.netCents, r.feeCents]).sort()).toEqual(
        recorded.map((s) => [s.userId, s.netCents, s.feeCents]).sort(),
      );
    }
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  }, 120_000);
});
