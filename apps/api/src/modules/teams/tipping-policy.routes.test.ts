import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tippingPolicies } from '../../db/schema/teams.ts';
import { users } from '../../db/schema/users.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { teamFixtures, type Staff } from './teams.fixtures.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { staff, team, later } = teamFixtures(() => t);

const policyOf = async (person: Staff, teamId: string, language = 'en') =>
  t.call({ method: 'GET', url: `/api/teams/${teamId}/policy`, token: person.jwt, headers: { 'accept-language': language } });
const publish = (person: Staff, teamId: string, text: unknown) =>
  t.call({ method: 'POST', url: `/api/teams/${teamId}/policy`, token: person.jwt, payload: { text } });
const confirm = (person: Staff, teamId: string, version: number | string) =>
  t.call({ method: 'POST', url: `/api/teams/${teamId}/policy/${version}/read`, token: person.jwt });
const textsTo = async (person: Staff) =>
  (
    (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(person.phone)}` })).body.data as {
      body: string;
    }[]
  ).map((message) => message.body);

describe('the venue’s tipping policy', () => {
  it('offers a template in the reader’s language, publishes versions, tells the members and keeps who read which when', async () => {
    const { id, admin, members } = await team(3);
    const [, bob, carol] = members as [Staff, Staff, Staff];
    await t.app.db.update(users).set({ language: 'fr' }).where(eq(users.id, bob.userId));

    const empty = await policyOf(bob, id, 'fr');
    expect(empty.status).toBe(200);
    expect(empty.body.data.current).toBeNull();
    expect(empty.body.data.readers).toEqual([]);
    expect(empty.body.data.template).toContain('Politique de pourboires de Bar Riga');
    expect(empty.body.data.template).toContain('À parts égales');
    expect((await policyOf(admin, id)).body.data.template).toContain('Evenly: Each tip to the team card is split evenly');

    const first = await publish(admin, id, '  Tips go to the team, split evenly.\n\nAsk Anna about anything.  ');
    expect(first.status).toBe(201);
    expect(first.body.data.current).toMatchObject({
      version: 1,
      text: 'Tips go to the team, split evenly.\n\nAsk Anna about anything.',
    });
    // Its author has read it; the others not yet.
    expect(first.body.data.current.read_at).not.toBeNull();
    expect(first.body.data.readers.map((reader: { read_at: string | null }) => reader.read_at !== null)).toEqual([
      true,
      false,
      false,
    ]);
    expect((await textsTo(bob))[0]).toBe(
      'Tipcard\u00A0: l’administrateur a publié une nouvelle version de la politique de pourboires. Équipe\u00A0: Bar Riga (Bar Riga). Lisez-la sur la page Lieu de travail et confirmez.',
    );
    expect((await textsTo(admin)).some((text) => text.includes('tipping policy'))).toBe(false);

    await later(60_000, ...members);
    const read = await confirm(bob, id, 1);
    expect(read.status).toBe(200);
    const bobReadAt = read.body.data.current.read_at as string;
    expect(bobReadAt).toBe(t.clock.now().toISOString());
    // A second confirmation keeps the first date.
    await later(60_000, ...members);
    expect((await confirm(bob, id, 1)).body.data.current.read_at).toBe(bobReadAt);

    // A new version: the old one stays on record, nobody but its author has read the new one, and Carol's
    // confirmation of the old version is refused as outdated.
    expect((await publish(admin, id, 'Version two.')).body.data.current.version).toBe(2);
    expect(await confirm(carol, id, 1)).toMatchObject({ status: 409, body: { code: 'tipping_policy_changed' } });
    const adminView = (await policyOf(admin, id)).body.data;
    expect(adminView.readers.filter((reader: { read_at: string | null }) => reader.read_at !== null)).toHaveLength(1);
    expect((await policyOf(bob, id)).body.data.current).toMatchObject({ version: 2, text: 'Version two.', read_at: null });
    const versions = await t.app.db.select().from(tippingPolicies).orderBy(tippingPolicies.version);
    expect(versions.filter((row) => row.publishedByUserId === admin.userId).map((row) => row.text)).toEqual([
      'Tips go to the team, split evenly.\n\nAsk Anna about anything.',
      'Version two.',
    ]);
  });

  it('lets only the admin publish, only members read, and refuses bad text or versions without changing anything', async () => {
    const { id, admin, members } = await team(2);
    const [, bob] = members as [Staff, Staff];
    const stranger = await staff('Zane');
    expect((await publish(bob, id, 'Mine now')).status).toBe(403);
    expect((await publish(stranger, id, 'Mine now')).status).toBe(404);
    expect((await policyOf(stranger, id)).status).toBe(404);
    expect((await publish(admin, id, '   ')).body.validation_errors).toHaveProperty('text');
    expect((await publish(admin, id, 'x'.repeat(10_001))).body.validation_errors).toHaveProperty('text');
    expect((await publish(admin, id, 'nul\u0000byte')).status).toBe(422);
    expect((await confirm(bob, id, 1)).status).toBe(404);
    expect((await confirm(bob, id, 'one')).status).toBe(404);
    expect((await policyOf(admin, id)).body.data.current).toBeNull();
  });

  it('numbers two versions published at once one after the other', async () => {
    const { id, admin } = await team(1);
    const answers = await Promise.all([publish(admin, id, 'A'), publish(admin, id, 'B')]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect((await policyOf(admin, id)).body.data.current.version).toBe(2);
  });
});
