import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOfPdf } from '../../test/pdf.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { teamFixtures, type Staff } from '../teams/teams.test-support.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ADDRESS = {
  country: 'LV',
  city: 'Rīga',
  address: 'Brīvības iela 1',
  zip: 'LV-1010',
  first_name: 'Carol',
  last_name: 'Ozola',
};

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://tipcard.example' } });
});
afterAll(() => t.close());

const { staff, createWorkplace, join, holdOf } = teamFixtures(() => t);

const workplaceOf = async (person: Staff) =>
  (await t.call({ method: 'GET', url: `/api/clients/${person.clientId}/workplace`, token: person.jwt })).body.data;
const addAdmin = (admin: Staff, workplaceId: string, userId: string) =>
  t.call({ method: 'POST', url: `/api/workplaces/${workplaceId}/admins`, token: admin.jwt, payload: { user_id: userId } });
const venueCardOf = async (workplaceId: string, who: Staff) => {
  const answer = await t.call({ method: 'GET', url: `/api/workplaces/${workplaceId}/venue-card`, token: who.jwt });
  expect(answer.status).toBe(200);
  return answer.body.data as { card_id: string; payment_url: string };
};
const cardsOf = async (who: Staff) =>
  (
    (await t.call({ method: 'GET', url: `/api/clients/${who.clientId}/cards`, token: who.jwt })).body.data as { id: string }[]
  ).map((card) => card.id);

/**
 * A venue: Anna made it with the front of house (Bob a plain member), added the kitchen (Carol, made a venue admin,
 * and Dan, a plain member). Carol opened the venue card first, so her client holds it.
 */
async function venue() {
  const anna = await staff('Anna');
  const front = await createWorkplace(anna, 'Hotel Riga');
  const workplaceId = (await workplaceOf(anna)).id as string;
  const bob = await staff('Bob');
  await join(front.id, anna, bob);
  t.clock.advance(60_000);
  const added = await t.call({
    method: 'POST',
    url: `/api/workplaces/${workplaceId}/teams`,
    token: anna.jwt,
    payload: { title: 'Kitchen' },
  });
  expect(added.status).toBe(201);
  const kitchen = added.body.data as { id: string; card_id: string };
  const carol = await staff('Carol');
  const dan = await staff('Dan');
  await join(kitchen.id, anna, carol);
  t.clock.advance(60_000);
  await join(kitchen.id, anna, dan);
  expect((await addAdmin(anna, workplaceId, carol.userId)).status).toBe(200);
  const card = await venueCardOf(workplaceId, carol);
  expect(await cardsOf(carol)).toContain(card.card_id);
  return { workplaceId, front, kitchen, anna, bob, carol, dan, card };
}

/** The three uses of a card: its QR code as a PNG, its print sheet, and an order in the card shop. */
async function uses(who: Staff, card: { card_id: string; payment_url: string }) {
  const qr = await t.app.inject({
    method: 'GET',
    url: `/api/cards/${card.card_id}/qr_code`,
    query: { url: card.payment_url, hexColor: '#132552' },
    headers: { authorization: `Bearer ${who.jwt}` },
  });
  const sheet = await t.app.inject({
    method: 'GET',
    url: `/api/cards/${card.card_id}/print.pdf?locale=en`,
    headers: { authorization: `Bearer ${who.jwt}` },
  });
  const order = await t.call({
    method: 'POST',
    url: `/api/clients/${who.clientId}/card-orders`,
    token: who.jwt,
    payload: { product: 'sticker', quantity: 1, ...ADDRESS, card_id: card.card_id },
  });
  return { qr, sheet, order };
}

/** Asserts that the person may use the venue card in all three ways, each printing the venue's name. */
async function expectUsable(who: Staff, card: { card_id: string; payment_url: string }) {
  const { qr, sheet, order } = await uses(who, card);
  expect(qr.statusCode).toBe(200);
  expect(qr.headers['content-type']).toBe('image/png');
  expect(qr.rawPayload.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  expect(sheet.statusCode).toBe(200);
  expect(sheet.headers['content-type']).toBe('application/pdf');
  expect(await textOfPdf(sheet.rawPayload)).toContain('Hotel Riga');
  expect(order.status).toBe(201);
  expect(order.body.data).toMatchObject({ card_id: card.card_id, product: 'sticker', status: 'placed' });
  const printed = await t.app.inject({
    method: 'GET',
    url: `/api/clients/${who.clientId}/card-orders/${order.body.data.id}/preview`,
    headers: { authorization: `Bearer ${who.jwt}` },
  });
  expect(await textOfPdf(printed.rawPayload)).toContain('Hotel Riga');
}

/** Asserts the rule for anyone else (today's for another's card): 404, and no order made. */
async function expectRefused(who: Staff, card: { card_id: string; payment_url: string }) {
  const { qr, sheet, order } = await uses(who, card);
  expect([qr.statusCode, sheet.statusCode, order.status]).toEqual([404, 404, 404]);
  expect(order.body.code).toBe('not_found');
  const orders = await t.call({ method: 'GET', url: `/api/clients/${who.clientId}/card-orders`, token: who.jwt });
  expect(orders.body.data.orders.map((row: { card_id: string }) => row.card_id)).not.toContain(card.card_id);
}

describe('the venue card of a venue with several admins (decision 0061)', () => {
  it('is shown, printed and ordered by every venue admin, not only its holder; members and strangers get 404', async () => {
    const { workplaceId, anna, bob, dan, card } = await venue();
    // Anna did not open it and does not hold it: she is a venue admin all the same.
    expect(await cardsOf(anna)).not.toContain(card.card_id);
    expect((await venueCardOf(workplaceId, anna)).card_id).toBe(card.card_id);
    await expectUsable(anna, card);
    for (const who of [bob, dan, await staff('Eve')]) await expectRefused(who, card);
    // Using it is not editing it: the card's texts stay with its holder.
    const edit = await t.call({
      method: 'PATCH',
      url: `/api/cards/${card.card_id}`,
      token: anna.jwt,
      payload: { title: 'Mine' },
    });
    expect(edit.status).toBe(404);
    // A QR code of another page is refused as for one's own card.
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/cards/${card.card_id}/qr_code`,
      query: { url: 'https://evil.example/' },
      headers: { authorization: `Bearer ${anna.jwt}` },
    });
    expect(other.statusCode).toBe(422);
  });

  it('passes to the remover when its holder is removed as a venue admin, who may no longer use it', async () => {
    const { workplaceId, anna, carol, card } = await venue();
    const removed = await t.call({
      method: 'DELETE',
      url: `/api/workplaces/${workplaceId}/admins/${carol.userId}`,
      token: anna.jwt,
    });
    expect(removed.status).toBe(200);
    expect(await cardsOf(anna)).toContain(card.card_id);
    expect(await cardsOf(carol)).not.toContain(card.card_id);
    await expectUsable(anna, card);
    await expectRefused(carol, card);
  });

  it('passes to the earliest admin left when its holder leaves the venue', async () => {
    const { kitchen, anna, carol, card } = await venue();
    expect((await t.call({ method: 'POST', url: `/api/teams/${kitchen.id}/leave`, token: carol.jwt })).status).toBe(200);
    expect(await cardsOf(anna)).toContain(card.card_id);
    await expectUsable(anna, card);
    await expectRefused(carol, card);
  });

  it('passes with the own team when its holder hands it over, and stays where it is when another admin leaves', async () => {
    const { workplaceId, front, anna, bob, carol, card } = await venue();
    // Carol, the holder, removes Anna: the card is Carol's still, the only one it could pass from.
    expect(
      (await t.call({ method: 'DELETE', url: `/api/workplaces/${workplaceId}/admins/${anna.userId}`, token: carol.jwt })).status,
    ).toBe(200);
    expect(await cardsOf(carol)).toContain(card.card_id);
    // Anna is back as a venue admin, opens the card (made already: Carol keeps it) and hands her own team to Bob.
    expect((await addAdmin(carol, workplaceId, anna.userId)).status).toBe(200);
    expect((await venueCardOf(workplaceId, anna)).card_id).toBe(card.card_id);
    expect(
      (await t.call({ method: 'DELETE', url: `/api/workplaces/${workplaceId}/admins/${carol.userId}`, token: carol.jwt })).status,
    ).toBe(200);
    expect(await cardsOf(anna)).toContain(card.card_id);
    const handed = await t.call({
      method: 'POST',
      url: `/api/teams/${front.id}/admin`,
      token: anna.jwt,
      payload: { user_id: bob.userId },
    });
    expect(handed.status).toBe(200);
    expect(await cardsOf(bob)).toContain(card.card_id);
    expect(await cardsOf(anna)).not.toContain(card.card_id);
    await expectUsable(bob, card);
    await expectRefused(anna, card);
  });

  it('passes to the successor when its holder deletes the account, and its guest page keeps taking tips', async () => {
    const { workplaceId, anna, carol, card } = await venue();
    const deleted = await t.call({ method: 'POST', url: '/api/user/deletion_statements', token: carol.jwt, payload: {} });
    expect(deleted.status).toBe(200);
    expect(await cardsOf(anna)).toContain(card.card_id);
    await expectUsable(anna, card);
    expect((await venueCardOf(workplaceId, anna)).card_id).toBe(card.card_id);
    expect((await t.call({ method: 'GET', url: `/api/public/cards/${card.card_id}` })).status).toBe(200);
  });
});

describe('team statistics with venue tips (decision 0061)', () => {
  it("count each team's part of a venue tip beside its team card's tips, exactly as credited", async () => {
    const { workplaceId, front, kitchen, anna, bob, carol, dan, card } = await venue();
    const set = await t.call({
      method: 'PUT',
      url: `/api/workplaces/${workplaceId}/percentages`,
      token: anna.jwt,
      payload: {
        shares: [
          { team_id: front.id, basis_points: 7000 },
          { team_id: kitchen.id, basis_points: 3000 },
        ],
      },
    });
    expect(set.status).toBe(200);
    t.clock.advance(60_000);
    const from = t.clock.now().toISOString();
    await receiveTip(t, card.card_id, 1_000);
    await receiveTip(t, front.card_id, 1_001);
    const to = new Date(t.clock.now().getTime() + 1).toISOString();
    const statsOf = async (teamId: string, who: Staff, window = { from, to }) => {
      const answer = await t.call({
        method: 'GET',
        url: `/api/teams/${teamId}/statistics?from=${window.from}&to=${window.to}`,
        token: who.jwt,
      });
      expect(answer.status).toBe(200);
      return answer.body.data as {
        total_count: number;
        total_cents: number;
        members: { user_id: string; count: number; sum_cents: number }[];
      };
    };
    // 9.50 to the members: 6.65 to the front of house, 2.85 to the kitchen, each evenly (3.33 + 3.32, 1.43 + 1.42); the
    // front's own card's 10.01 gives 9.51 (4.76 + 4.75). Who gets an odd cent is the split's business, checked below.
    const frontStats = await statsOf(front.id, bob);
    const cents = (stats: typeof frontStats) => stats.members.map((row) => row.sum_cents).sort((a, b) => a - b);
    const counts = (stats: typeof frontStats) => new Map(stats.members.map((row) => [row.user_id, row.count]));
    expect(counts(frontStats)).toEqual(
      new Map([
        [anna.userId, 2],
        [bob.userId, 2],
      ]),
    );
    expect(cents(frontStats)).toEqual([332 + 475, 333 + 476]);
    expect(frontStats).toMatchObject({ total_count: 4, total_cents: 665 + 951 });
    const kitchenStats = await statsOf(kitchen.id, dan);
    expect(counts(kitchenStats)).toEqual(
      new Map([
        [carol.userId, 1],
        [dan.userId, 1],
      ]),
    );
    expect(cents(kitchenStats)).toEqual([142, 143]);
    expect(kitchenStats).toMatchObject({ total_count: 2, total_cents: 285 });
    // What the statistics say is what each member was credited.
    for (const [member, stats] of [
      [anna, frontStats],
      [bob, frontStats],
      [carol, kitchenStats],
      [dan, kitchenStats],
    ] as const)
      expect(stats.members.find((row) => row.user_id === member.userId)!.sum_cents).toBe(await holdOf(member));
    // A venue admin reads another team's too; a window before the tips counts none.
    expect((await statsOf(kitchen.id, anna)).total_cents).toBe(285);
    expect((await statsOf(kitchen.id, carol, { from: '2020-01-01T00:00:00Z', to: from })).total_count).toBe(0);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});
