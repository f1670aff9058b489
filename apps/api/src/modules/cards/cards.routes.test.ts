import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cards } from '../../db/schema/cards.ts';
import { createTestApp, signUp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const validCard = {
  title: 'Main card',
  public_name: 'Anna',
  welcome_phrase: 'Thank you!',
  public_text: 'I serve tables at Café Riga.',
  activity_type: 'WAITER',
  country: 'LV',
  instagram: 'https://www.instagram.com/anna',
  facebook: '',
  tiktok: null,
};

type User = Awaited<ReturnType<typeof signUp>>;
const listCards = (user: User, clientId = user.clientId) =>
  t.call({ method: 'GET', url: `/api/clients/${clientId}/cards`, token: user.jwt });
const createCard = (user: User, payload: unknown = validCard, clientId = user.clientId) =>
  t.call({ method: 'POST', url: `/api/clients/${clientId}/cards`, token: user.jwt, payload: payload as object });

/** Every error answer has the spec's shape. */
function expectErrorBody(body: any, code: string) {
  expect(body).toEqual({
    message: expect.any(String),
    code,
    errors: expect.arrayContaining([expect.any(String)]),
    validation_errors: expect.any(Object),
  });
}

describe('cards', () => {
  it('creates, lists and patches the private card, and GET /me shows it', async () => {
    const user = await signUp(t);
    const before = await t.call({ method: 'GET', url: '/api/me', token: user.jwt });
    expect(before.body.data).toMatchObject({ referral_available: false, public_name: null });
    expect((await listCards(user)).body).toEqual({ data: [] });

    const created = await createCard(user);
    expect(created.status).toBe(201);
    const card = created.body.data;
    expect(card).toEqual({
      id: expect.any(String),
      client_id: user.clientId,
      title: 'Main card',
      image_url: null,
      public_name: 'Anna',
      welcome_phrase: 'Thank you!',
      public_text: 'I serve tables at Café Riga.',
      activity_type: 'WAITER',
      country: 'LV',
      instagram: 'https://www.instagram.com/anna',
      facebook: null,
      tiktok: null,
      rating: null,
      preset_amounts_cents: null,
      is_private: true,
      payment_url: `${t.app.config.publicUrl}/payment/${card.id}`,
      thank_you_text: null,
      thank_you_image_url: null,
    });

    const listed = await listCards(user);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([card]);

    t.clock.advance(1_000);
    const patched = await t.call({
      method: 'PATCH',
      url: `/api/cards/${card.id}`,
      token: user.jwt,
      payload: { public_name: '  Anna B.  ', tiktok: 'https://tiktok.com/@anna', welcome_phrase: '' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({
      ...card,
      public_name: 'Anna B.',
      tiktok: 'https://tiktok.com/@anna',
      welcome_phrase: null,
    });

    const empty = await t.call({ method: 'PATCH', url: `/api/cards/${card.id}`, token: user.jwt, payload: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual(patched.body.data);

    const me = await t.call({ method: 'GET', url: '/api/me', token: user.jwt });
    expect(me.body.data).toMatchObject({
      referral_available: true,
      public_name: 'Anna B.',
      welcome_phrase: null,
      public_text: 'I serve tables at Café Riga.',
      photo: null,
      activity_type: 'WAITER',
      country: 'LV',
      instagram: 'https://www.instagram.com/anna',
      facebook: null,
      tiktok: 'https://tiktok.com/@anna',
    });
  });

  it("offers the guest the owner's amounts, else the activity's, and follows a change at once", async () => {
    const user = await signUp(t);
    const card = (await createCard(user, { ...validCard, activity_type: 'HOUSEMAID' })).body.data;
    const publicPresets = async () =>
      (await t.call({ method: 'GET', url: `/api/public/cards/${card.id}` })).body.data.preset_amounts_cents;
    expect(await publicPresets()).toEqual([200, 300, 500, 1_000]);

    const chosen = await t.call({
      method: 'PATCH',
      url: `/api/cards/${card.id}`,
      token: user.jwt,
      payload: { preset_amounts_cents: [150, 250, 400, 800] },
    });
    expect(chosen.body.data.preset_amounts_cents).toEqual([150, 250, 400, 800]);
    expect(await publicPresets()).toEqual([150, 250, 400, 800]);

    // Another patch leaves them; null goes back to the activity's.
    await t.call({ method: 'PATCH', url: `/api/cards/${card.id}`, token: user.jwt, payload: { title: 'Rooms 1–12' } });
    expect(await publicPresets()).toEqual([150, 250, 400, 800]);
    await t.call({ method: 'PATCH', url: `/api/cards/${card.id}`, token: user.jwt, payload: { preset_amounts_cents: null } });
    expect(await publicPresets()).toEqual([200, 300, 500, 1_000]);
  });

  it('moves updated_at on PATCH', async () => {
    const user = await signUp(t);
    const card = (await createCard(user)).body.data;
    const updatedAt = async () => (await t.app.db.select().from(cards).where(eq(cards.id, card.id)))[0]!.updatedAt.getTime();
    const first = await updatedAt();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.call({ method: 'PATCH', url: `/api/cards/${card.id}`, token: user.jwt, payload: { title: 'Renamed' } });
    expect(await updatedAt()).toBeGreaterThan(first);
  });

  it('answers 422 card_limit for a second card of a private client', async () => {
    const user = await signUp(t);
    expect((await createCard(user)).status).toBe(201);
    const second = await createCard(user, { ...validCard, title: 'Another' });
    expect(second.status).toBe(422);
    expectErrorBody(second.body, 'card_limit');
    expect((await listCards(user)).body.data).toHaveLength(1);
  });

  it('lets exactly one of two concurrent creates win, the other gets card_limit', async () => {
    for (let round = 0; round < 3; round++) {
      const user = await signUp(t);
      const answers = await Promise.all([createCard(user), createCard(user, { ...validCard, title: 'Twin' }), createCard(user)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422, 422]);
      for (const answer of answers.filter((item) => item.status === 422)) expectErrorBody(answer.body, 'card_limit');
      expect((await listCards(user)).body.data).toHaveLength(1);
    }
  });

  it('requires a bearer token', async () => {
    const user = await signUp(t);
    const card = (await createCard(user)).body.data;
    const calls = [
      { method: 'GET', url: `/api/clients/${user.clientId}/cards` },
      { method: 'POST', url: `/api/clients/${user.clientId}/cards`, payload: validCard },
      { method: 'PATCH', url: `/api/cards/${card.id}`, payload: {} },
      { method: 'POST', url: `/api/cards/${card.id}/photo`, payload: { content: 'AAAA', name: 'a.png', mime: 'image/png' } },
      { method: 'DELETE', url: `/api/cards/${card.id}/photo` },
      { method: 'GET', url: `/api/cards/${card.id}/qr_code?url=${encodeURIComponent(card.payment_url)}` },
    ] as const;
    for (const call of calls) {
      const answer = await t.call(call);
      expect(answer.status, `${call.method} ${call.url}`).toBe(401);
      expectErrorBody(answer.body, 'unauthorized');
    }
  });

  it("answers 404 to another user's client and card, and to unknown or malformed ids", async () => {
    const owner = await signUp(t);
    const intruder = await signUp(t);
    const card = (await createCard(owner)).body.data;
    const qrUrl = (cardId: string) =>
      `/api/cards/${cardId}/qr_code?url=${encodeURIComponent(`${t.app.config.publicUrl}/payment/${cardId}`)}`;
    const photo = { content: 'iVBORw0KGgo=', name: 'a.png', mime: 'image/png' };

    const calls = (clientId: string, cardId: string) =>
      [
        { method: 'GET', url: `/api/clients/${clientId}/cards` },
        { method: 'POST', url: `/api/clients/${clientId}/cards`, payload: validCard },
        { method: 'PATCH', url: `/api/cards/${cardId}`, payload: { title: 'Taken over' } },
        { method: 'POST', url: `/api/cards/${cardId}/photo`, payload: photo },
        { method: 'DELETE', url: `/api/cards/${cardId}/photo` },
        { method: 'GET', url: qrUrl(cardId) },
      ] as const;

    for (const [clientId, cardId] of [
      [owner.clientId, card.id],
      [randomUUID(), randomUUID()],
      ['not-a-uuid', 'not-a-uuid'],
      ['123', '123'],
    ]) {
      for (const call of calls(clientId!, cardId!)) {
        const answer = await t.call({ ...call, token: intruder.jwt });
        expect(answer.status, `${call.method} ${call.url}`).toBe(404);
        expectErrorBody(answer.body, 'not_found');
      }
    }
    // Nothing changed for the owner, and the intruder got no card.
    expect((await listCards(owner)).body.data).toEqual([card]);
    expect((await listCards(intruder)).body.data).toEqual([]);
  });

  describe('bad input is a 422 in the error format and stores nothing', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['blank title', { title: '   ' }, 'title', 'This value should not be blank.'],
      ['missing title', { title: undefined }, 'title', 'This value should not be blank.'],
      ['blank public name', { public_name: '' }, 'public_name', 'This value should not be blank.'],
      ['title not a string', { title: 42 }, 'title', 'Enter valid data'],
      ['title too long', { title: 'x'.repeat(61) }, 'title', 'This value is too long'],
      ['welcome phrase too long', { welcome_phrase: 'x'.repeat(161) }, 'welcome_phrase', 'This value is too long'],
      ['public text too long', { public_text: 'x'.repeat(501) }, 'public_text', 'This value is too long'],
      ['unknown activity type', { activity_type: 'PILOT' }, 'activity_type', 'Choose a value from the list'],
      ['lower-case activity type', { activity_type: 'waiter' }, 'activity_type', 'Choose a value from the list'],
      ['country not served', { country: 'US' }, 'country', 'Choose a country from the list'],
      ['country not a code', { country: 'Latvia' }, 'country', 'Choose a country from the list'],
      ['http social link', { instagram: 'http://instagram.com/anna' }, 'instagram', 'Enter a valid https link to your profile'],
      [
        'wrong host',
        { facebook: 'https://facebook.com.evil.example/anna' },
        'facebook',
        'Enter a valid https link to your profile',
      ],
      ['look-alike host', { tiktok: 'https://nottiktok.com/@anna' }, 'tiktok', 'Enter a valid https link to your profile'],
      ['javascript link', { instagram: 'javascript:alert(1)' }, 'instagram', 'Enter a valid https link to your profile'],
      ['link too long', { instagram: `https://instagram.com/${'a'.repeat(200)}` }, 'instagram', 'This value is too long'],
      [
        'preset amounts out of order',
        { preset_amounts_cents: [300, 300, 500, 1_000] },
        'preset_amounts_cents.1',
        'Each amount has to be larger than the one before it',
      ],
      [
        'preset amount over the limit',
        { preset_amounts_cents: [300, 500, 1_000, 50_001] },
        'preset_amounts_cents.3',
        'Enter an amount from €1.00 to €500.00',
      ],
      [
        'preset amount in euros',
        { preset_amounts_cents: [1.5, 5, 10, 20] },
        'preset_amounts_cents.0',
        'Enter an amount from €1.00 to €500.00',
      ],
      ['three preset amounts', { preset_amounts_cents: [300, 500, 1_000] }, 'preset_amounts_cents', 'Enter valid data'],
    ];

    let user: User;
    let card: any;
    beforeAll(async () => {
      user = await signUp(t);
    });

    it.each(cases)('create: %s', async (_name, change, field, message) => {
      const answer = await createCard(user, { ...validCard, ...change });
      expect(answer.status).toBe(422);
      expectErrorBody(answer.body, 'validation_failed');
      expect(answer.body.validation_errors[field]).toEqual([message]);
      expect(answer.body.errors[0]).toBe(message);
      expect((await listCards(user)).body.data).toEqual([]);
    });

    it('create: not JSON, an array, or no body at all', async () => {
      for (const payload of ['{"title":', '[]', undefined]) {
        const answer = await t.call({
          method: 'POST',
          url: `/api/clients/${user.clientId}/cards`,
          token: user.jwt,
          ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }),
        });
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(answer.body).toMatchObject({
          code: expect.any(String),
          errors: expect.any(Array),
          validation_errors: expect.any(Object),
        });
      }
      expect((await listCards(user)).body.data).toEqual([]);
    });

    it.each(cases.filter(([name]) => name !== 'missing title'))('patch: %s', async (_name, change, field, message) => {
      card ??= (await createCard(user)).body.data;
      const answer = await t.call({ method: 'PATCH', url: `/api/cards/${card.id}`, token: user.jwt, payload: change });
      expect(answer.status).toBe(422);
      expectErrorBody(answer.body, 'validation_failed');
      expect(answer.body.validation_errors[field]).toEqual([message]);
      expect((await listCards(user)).body.data).toEqual([card]);
    });

    it('patch: null for a required field', async () => {
      card ??= (await createCard(user)).body.data;
      const answer = await t.call({ method: 'PATCH', url: `/api/cards/${card.id}`, token: user.jwt, payload: { title: null } });
      expect(answer.status).toBe(422);
      expect(answer.body.validation_errors.title).toEqual(['This value should not be blank.']);
      expect((await listCards(user)).body.data).toEqual([card]);
    });
  });
});
