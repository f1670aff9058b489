import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpsVenueDetail } from '@tipcard/shared/ops/schemas';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { signAccessToken } from '../auth/auth.service.ts';
import { signInOperator } from './ops.test-support.ts';

type Person = Awaited<ReturnType<typeof signUpWithCard>>;
const HOUR = 3_600_000;

describe('the back office’s venue: found by name or id, shown with its teams, rules and periods (issue 29)', () => {
  let t: TestApp;
  let anna: Person;
  let bob: Person;
  let venueId: string;
  let teamId: string;
  let month: string;
  let lockedAt: string;
  let kitchenId: string;
  let bobAdminSince: string;
  let venueCardId: string;
  let venueCardAt: string;
  const percentageIds: string[] = [];

  const call = (who: Person, method: 'POST' | 'PATCH', url: string, payload?: object) =>
    t.call({ method, url: `/api/teams/${teamId}${url}`, token: who.jwt, ...(payload && { payload }) });
  /** Moves the clock on; access tokens live 15 minutes, so the two sign in again. */
  async function later(ms: number) {
    t.clock.advance(ms);
    for (const person of [anna, bob])
      person.jwt = await signAccessToken(t.app.services.keys, { userId: person.userId, sessionVersion: 0 }, t.clock.now());
  }

  beforeAll(async () => {
    t = await createTestApp();
    anna = await signUpWithCard(t, { public_name: 'Anna' });
    bob = await signUpWithCard(t, { public_name: 'Bob' });
    const created = await t.call({
      method: 'POST',
      url: `/api/clients/${anna.clientId}/workplace`,
      token: anna.jwt,
      payload: { name: 'Café Rīga Old Town', country: 'LV' },
    });
    expect(created.status).toBe(201);
    venueId = created.body.data.id;
    teamId = created.body.data.team.id;
    month = t.clock.now().toISOString().slice(0, 7);

    await later(60_000);
    const requested = await t.call({ method: 'POST', url: `/api/teams/${teamId}/requests`, token: bob.jwt });
    expect((await call(anna, 'POST', `/requests/${requested.body.data.id}/approve`)).status).toBe(200);
    expect((await call(anna, 'PATCH', `/members/${bob.userId}`, { role: 'waiter' })).status).toBe(200);
    expect((await call(anna, 'POST', '/policy', { text: 'Tips are split by hours worked.' })).status).toBe(201);
    expect((await call(anna, 'POST', '/rules', { kind: 'hours' })).status).toBe(201);
    await later(60_000);
    expect((await call(anna, 'POST', '/rules', { kind: 'points', points: { waiter: 2 } })).status).toBe(201);

    // The month ends; Anna closes it, Bob objects, Anna answers, and locks it once the 24 hours are over.
    const next = new Date(`${month}-01T00:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    await later(next.getTime() - t.clock.now().getTime() + HOUR);
    expect((await call(anna, 'POST', `/periods/${month}/close`)).status).toBe(200);
    const objected = await call(bob, 'POST', `/periods/${month}/objections`, { text: 'My Friday is missing.' });
    expect(objected.status).toBe(201);
    const objectionId = objected.body.data.objections[0].id;
    expect((await call(anna, 'POST', `/periods/${month}/objections/${objectionId}/answer`, { answer: 'Added.' })).status).toBe(
      200,
    );
    await later(25 * HOUR);
    expect((await call(anna, 'POST', `/periods/${month}/lock`)).status).toBe(200);
    lockedAt = t.clock.now().toISOString();

    // A kitchen team, Bob a venue admin beside Anna, the venue card, and the percentages set twice.
    const kitchen = await t.call({
      method: 'POST',
      url: `/api/workplaces/${venueId}/teams`,
      token: anna.jwt,
      payload: { title: 'Kitchen' },
    });
    expect(kitchen.status).toBe(201);
    kitchenId = kitchen.body.data.id;
    await later(60_000);
    const added = await t.call({
      method: 'POST',
      url: `/api/workplaces/${venueId}/admins`,
      token: anna.jwt,
      payload: { user_id: bob.userId },
    });
    expect(added.status).toBe(200);
    bobAdminSince = t.clock.now().toISOString();
    const card = await t.call({ method: 'GET', url: `/api/workplaces/${venueId}/venue-card`, token: bob.jwt });
    expect(card.status).toBe(200);
    venueCardId = card.body.data.card_id;
    venueCardAt = t.clock.now().toISOString();
    for (const [hall, kitchenPoints] of [
      [7_000, 3_000],
      [6_000, 4_000],
    ] as const) {
      await later(60_000);
      const shares = [
        { team_id: teamId, basis_points: hall },
        { team_id: kitchenId, basis_points: kitchenPoints },
      ];
      const set = await t.call({
        method: 'PUT',
        url: `/api/workplaces/${venueId}/percentages`,
        token: hall === 7_000 ? anna.jwt : bob.jwt,
        payload: { shares },
      });
      expect(set.status).toBe(200);
      percentageIds.push(set.body.data.id);
    }
  });
  afterAll(() => t.close());

  it('finds the venue by a part of its name in any case, and by its id or the id’s first digits', async () => {
    const support = await signInOperator(t, 'support');
    const search = async (q: string) => {
      const answer = await t.call({ method: 'GET', url: `/api/ops/search?q=${encodeURIComponent(q)}`, token: support.opsToken });
      expect(answer.status, q).toBe(200);
      return (answer.body.data as { kind: string; id: string; title: string }[]).filter((hit) => hit.kind === 'venue');
    };
    for (const q of ['rīga old', 'CAFÉ RĪGA', venueId, venueId.slice(0, 8)])
      expect(await search(q), q).toEqual([expect.objectContaining({ id: venueId, title: 'Café Rīga Old Town' })]);
    expect(await search('Old Town Bistro')).toEqual([]);
    // A LIKE wildcard is a character like any other.
    expect(await search('%')).toEqual([]);
  });

  it('shows its teams with the admin, members, every rule version and the locked period, naming who did what', async () => {
    const finance = await signInOperator(t, 'finance');
    const answer = await t.call({ method: 'GET', url: `/api/ops/venues/${venueId}`, token: finance.opsToken });
    expect(answer.status).toBe(200);
    const venue = answer.body.data as OpsVenueDetail;
    const annaAs = { user_id: anna.userId, public_name: 'Anna', phone: anna.phone };
    const bobAs = { user_id: bob.userId, public_name: 'Bob', phone: bob.phone };
    expect(venue).toMatchObject({ id: venueId, name: 'Café Rīga Old Town', country: 'LV', created_by: annaAs });
    expect(venue.policies).toEqual([
      { version: 1, text: 'Tips are split by hours worked.', published_at: expect.any(String), published_by: annaAs },
    ]);
    expect(venue.teams.map((each) => each.title)).toEqual(['Café Rīga Old Town', 'Kitchen']);
    const [team] = venue.teams;
    expect(team).toMatchObject({ id: teamId, title: 'Café Rīga Old Town', admin: annaAs });
    expect(team!.members).toEqual([
      { ...annaAs, joined_at: expect.any(String), role: null },
      { ...bobAs, joined_at: expect.any(String), role: 'waiter' },
    ]);
    expect(team!.rules.map(({ kind, points, created_by }) => ({ kind, points, created_by }))).toEqual([
      { kind: 'points', points: { waiter: 2 }, created_by: annaAs },
      { kind: 'hours', points: {}, created_by: annaAs },
    ]);
    expect(team!.periods).toEqual([
      {
        month,
        state: 'locked',
        closed_at: expect.any(String),
        closed_by: annaAs,
        objections_until: expect.any(String),
        locked_at: lockedAt,
        locked_by: annaAs,
        objections: 1,
        open_objections: 0,
      },
    ]);
  });

  it('shows its admins with who added them, its venue card and the percentages in force with their past versions', async () => {
    const support = await signInOperator(t, 'support');
    const answer = await t.call({ method: 'GET', url: `/api/ops/venues/${venueId}`, token: support.opsToken });
    expect(answer.status).toBe(200);
    const venue = answer.body.data as OpsVenueDetail;
    const annaAs = { user_id: anna.userId, public_name: 'Anna', phone: anna.phone };
    const bobAs = { user_id: bob.userId, public_name: 'Bob', phone: bob.phone };
    expect(venue.admins).toEqual([
      { ...annaAs, since: venue.created_at, added_by: annaAs },
      { ...bobAs, since: bobAdminSince, added_by: annaAs },
    ]);
    expect(venue.venue_card).toEqual({
      card_id: venueCardId,
      payment_url: expect.stringMatching(new RegExp(`/payment/${venueCardId}$`)),
      created_at: venueCardAt,
    });
    const hall = { team_id: teamId, title: 'Café Rīga Old Town' };
    const kitchen = { team_id: kitchenId, title: 'Kitchen' };
    expect(venue.percentages.in_force).toEqual({
      id: percentageIds[1],
      teams: [
        { ...hall, basis_points: 6_000 },
        { ...kitchen, basis_points: 4_000 },
      ],
    });
    expect(venue.percentages.versions).toEqual([
      {
        id: percentageIds[1],
        created_at: expect.any(String),
        created_by: bobAs,
        shares: [
          { ...hall, basis_points: 6_000 },
          { ...kitchen, basis_points: 4_000 },
        ],
      },
      {
        id: percentageIds[0],
        created_at: expect.any(String),
        created_by: annaAs,
        shares: [
          { ...hall, basis_points: 7_000 },
          { ...kitchen, basis_points: 3_000 },
        ],
      },
    ]);
  });

  it('shows no venue card and the default even percentages for a venue that set neither', async () => {
    const carol = await signUpWithCard(t, { public_name: 'Carol' });
    const created = await t.call({
      method: 'POST',
      url: `/api/clients/${carol.clientId}/workplace`,
      token: carol.jwt,
      payload: { name: 'Salon Liepāja', country: 'LV' },
    });
    expect(created.status).toBe(201);
    const support = await signInOperator(t, 'support');
    const answer = await t.call({ method: 'GET', url: `/api/ops/venues/${created.body.data.id}`, token: support.opsToken });
    expect(answer.status).toBe(200);
    const venue = answer.body.data as OpsVenueDetail;
    expect(venue.admins).toMatchObject([{ user_id: carol.userId, added_by: { user_id: carol.userId } }]);
    expect(venue.venue_card).toBeNull();
    expect(venue.percentages).toEqual({
      in_force: { id: null, teams: [{ team_id: created.body.data.team.id, title: 'Salon Liepāja', basis_points: 10_000 }] },
      versions: [],
    });
  });

  it('leads from a member’s user page to the venue', async () => {
    const support = await signInOperator(t, 'support');
    const user = await t.call({ method: 'GET', url: `/api/ops/users/${bob.userId}`, token: support.opsToken });
    expect(user.body.data.team).toMatchObject({ id: teamId, workplace: 'Café Rīga Old Town', workplace_id: venueId });
  });

  it('answers 404 for an id that is no venue', async () => {
    const support = await signInOperator(t, 'support');
    const missing = await t.call({ method: 'GET', url: `/api/ops/venues/${crypto.randomUUID()}`, token: support.opsToken });
    expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });
});
