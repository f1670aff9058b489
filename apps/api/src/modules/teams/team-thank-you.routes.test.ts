import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { teamFixtures } from './teams.fixtures.ts';

/**
 * A team card's thank-you and answers (decision 0047): the thank-you is the team admin's, who holds the card; every
 * member with a share of a tip sees its message, and the first of them to answer is the only answer the guest gets.
 * The rest of the feature is tested in modules/tips/thank-you.routes.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const teams = teamFixtures(() => t);
const outboxTo = async (to: string) =>
  (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).body.data as { body: string }[];

describe('a team card', () => {
  it("has the admin's thank-you; any member who got a share may answer the guest, once for the whole team", async () => {
    const { card_id: cardId, admin, members } = await teams.team(2);
    const member = members[1]!;
    const byMember = await t.call({
      method: 'PATCH',
      url: `/api/cards/${cardId}`,
      token: member.jwt,
      payload: { thank_you_text: 'Not mine to say' },
    });
    expect(byMember.status).toBe(404);
    const byAdmin = await t.call({
      method: 'PATCH',
      url: `/api/cards/${cardId}`,
      token: admin.jwt,
      payload: { thank_you_text: 'The whole team thanks you' },
    });
    expect(byAdmin.status).toBe(200);

    const payment = await receiveTip(t, cardId, 1_000, { message: 'Great team' });
    await t.app.services.receipts.sendTo(payment.id, 'guest-team@example.com', 'en');
    expect((await t.app.services.tips.successOf(cardId, payment.id, 'en'))!.thank_you!.text).toBe('The whole team thanks you');

    const lineOf = async (who: typeof admin) =>
      (await t.call({ method: 'GET', url: `/api/clients/${who.clientId}/transactions`, token: who.jwt })).body.data.items[0]
        .id as string;
    const memberUrl = `/api/clients/${member.clientId}/transactions/${await lineOf(member)}/answer`;
    const adminUrl = `/api/clients/${admin.clientId}/transactions/${await lineOf(admin)}/answer`;
    expect(
      (await t.call({ method: 'POST', url: memberUrl, token: member.jwt, payload: { text: 'From all of us!' } })).status,
    ).toBe(201);
    // The admin's own share of the same tip: already answered.
    expect((await t.call({ method: 'GET', url: adminUrl, token: admin.jwt })).body.data).toMatchObject({
      can_answer: false,
      answer: { text: 'From all of us!' },
    });
    const second = await t.call({ method: 'POST', url: adminUrl, token: admin.jwt, payload: { text: 'Me too' } });
    expect(second.status).toBe(409);
    const mails = (await outboxTo('guest-team@example.com')).filter((mail) => mail.body.includes('answered'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).not.toContain(member.phone);
  });
});
