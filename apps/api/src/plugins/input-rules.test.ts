import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clean, jsonDepthExceeds, MAX_JSON_DEPTH } from './input-rules.ts';
import { signInOperator } from '../modules/ops/ops.test-support.ts';
import { CARD_INPUT, createTestApp, signUp, signUpWithCard, uniquePhone, type TestApp } from '../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'x\uD800y';

/** A refusal in the spec's error format, never a 5xx. */
function expectRefused(response: { status: number; body: any }, status = 422) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ code: expect.any(String), message: expect.any(String), errors: expect.any(Array) });
}

describe('the text rule on every string the API accepts', () => {
  it('refuses a NUL byte in every text field of the sign-up, card, tip, contact and analytics bodies', async () => {
    expectRefused(
      await t.call({
        method: 'POST',
        url: '/api/register',
        payload: { username: uniquePhone(), age_confirmed: true, terms_accepted: true, referral_code: NUL },
      }),
    );
    expectRefused(
      await t.call({
        method: 'POST',
        url: '/api/register',
        payload: { username: uniquePhone(), age_confirmed: true, terms_accepted: true, promo_source: NUL },
      }),
    );
    const owner = await signUpWithCard(t);
    for (const field of ['title', 'public_name', 'welcome_phrase', 'public_text'] as const) {
      const created = await t.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/cards`,
        token: owner.jwt,
        payload: { ...CARD_INPUT, [field]: NUL },
      });
      expectRefused(created);
      const patched = await t.call({
        method: 'PATCH',
        url: `/api/cards/${owner.cardId}`,
        token: owner.jwt,
        payload: { ...CARD_INPUT, [field]: NUL },
      });
      expectRefused(patched);
      expect(patched.body.validation_errors[field]).toEqual(['Enter valid data']);
    }
    expectRefused(
      await t.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/payout-methods`,
        token: owner.jwt,
        payload: {
          kind: 'sepa',
          iban: 'DE89370400440532013000',
          bic: 'COBADEFFXXX',
          holder_last_name: NUL,
          address: 'Hauptstraße 1',
        },
      }),
    );
    expectRefused(
      await t.call({
        method: 'POST',
        url: `/api/public/cards/${owner.cardId}/payments`,
        headers: { 'idempotency-key': 'nul-message-1' },
        payload: { amount_cents: 500, terms_accepted: true, message: NUL },
      }),
    );
    expectRefused(
      await t.call({ method: 'POST', url: '/api/contact', payload: { name: NUL, email: 'a@example.com', message: 'Hello' } }),
    );
    expectRefused(
      await t.call({ method: 'POST', url: '/api/contact', payload: { name: 'Anna', email: 'a@example.com', message: NUL } }),
    );
    expectRefused(
      await t.call({ method: 'POST', url: '/api/analytics/events', payload: { name: 'page_view', path: NUL, locale: 'en' } }),
    );
    expectRefused(
      await t.call({
        method: 'POST',
        url: '/api/analytics/events',
        payload: { name: 'ad_visit', path: '/', locale: 'en', promo_source: NUL },
      }),
    );
  });

  it('refuses a control character in a query string, a nested field or a key, and in the path as a 404', async () => {
    expectRefused(await t.call({ method: 'GET', url: '/api/dev/outbox?to=%00' }));
    expectRefused(await t.call({ method: 'GET', url: '/api/dev/outbox?to=%1B' }));
    const owner = await signUpWithCard(t);
    const nested = await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/verification`,
      token: owner.jwt,
      payload: { kind: 'person', first_name: 'A', document_front: { name: NUL } },
    });
    expectRefused(nested);
    expect(nested.body.validation_errors['document_front.name']).toEqual(['Enter valid data']);
    expectRefused(
      await t.call({
        method: 'POST',
        url: '/api/contact',
        payload: { ['k\u0000']: 1, name: 'Anna', email: 'a@example.com', message: 'Hi' },
      }),
    );
    expectRefused(await t.call({ method: 'GET', url: `/api/cards/%00/qr_code`, token: owner.jwt }), 404);
  });

  it('refuses a lone surrogate in the verification form', async () => {
    const user = await signUp(t);
    for (const field of ['first_name', 'last_name', 'personal_code', 'address']) {
      const response = await t.call({
        method: 'POST',
        url: `/api/clients/${user.clientId}/verification`,
        token: user.jwt,
        payload: {
          kind: 'person',
          first_name: 'Anna',
          last_name: 'B',
          birthday: '1990-01-01',
          personal_code: '1',
          address: 'R',
          [field]: LONE_SURROGATE,
        },
      });
      expectRefused(response);
      expect(response.body.validation_errors[field]).toEqual(['Enter valid data']);
    }
  });

  it('keeps line breaks and tabs, and stores text in NFC', async () => {
    const decomposed = 'Rene\u0301e'; // "Renée" with a combining acute accent
    const owner = await signUpWithCard(t, { public_name: decomposed, public_text: 'Line one\nline two\ttabbed' });
    const card = await t.call({ method: 'GET', url: `/api/public/cards/${owner.cardId}` });
    expect(card.body.data.public_name).toBe('Ren\u00e9e');
    expect(card.body.data.public_text).toBe('Line one\nline two\ttabbed');
  });
});

describe('the date rule and the page cursor', () => {
  it('refuses days outside 2000..2100 in the history and its CSV', async () => {
    const owner = await signUpWithCard(t);
    for (const path of ['transactions', 'transactions.csv']) {
      for (const query of ['from=0000-01-01', 'to=0000-01-01', 'from=1999-12-31', 'to=2101-01-01', 'from=+275760-09-13']) {
        expectRefused(
          await t.call({
            method: 'GET',
            url: `/api/clients/${owner.clientId}/transactions${path === 'transactions' ? '' : '.csv'}?${query}`,
            token: owner.jwt,
          }),
        );
      }
    }
    const fine = await t.call({
      method: 'GET',
      url: `/api/clients/${owner.clientId}/transactions?from=2000-01-01&to=2100-12-31`,
      token: owner.jwt,
    });
    expect(fine.status).toBe(200);
  });

  it('refuses instants outside 2000..2100 in team statistics and the audit log', async () => {
    const admin = await signUpWithCard(t);
    const workplace = await t.call({
      method: 'POST',
      url: `/api/clients/${admin.clientId}/workplace`,
      token: admin.jwt,
      payload: { name: 'Bar Riga', country: 'LV' },
    });
    expect(workplace.status).toBe(201);
    const statistics = (from: string, to: string) =>
      t.call({
        method: 'GET',
        url: `/api/teams/${workplace.body.data.team.id}/statistics?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
        token: admin.jwt,
      });
    const operator = await signInOperator(t, 'compliance');
    const audit = (query: string) => t.call({ method: 'GET', url: `/api/ops/audit?${query}`, token: operator.opsToken });
    const outside = [
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '1999-12-31T23:59:59Z',
      '2000-01-01T00:30:00+01:00',
      '2101-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
    ];
    for (const instant of outside) {
      expectRefused(await statistics(instant, '2026-01-01T00:00:00Z'));
      expectRefused(await statistics('2026-01-01T00:00:00Z', instant));
      for (const field of ['from', 'to']) {
        const answer = await audit(`${field}=${encodeURIComponent(instant)}`);
        expectRefused(answer);
        expect(Object.keys(answer.body.validation_errors)).toEqual([field]);
      }
    }
    expect((await statistics('2000-01-01T00:00:00Z', '2100-12-31T23:59:59.999Z')).status).toBe(200);
    expect((await audit('from=2000-01-01T00:00:00Z&to=2100-12-31T23:59:59Z')).status).toBe(200);
  });

  it('refuses a hand-made cursor before it reaches a query', async () => {
    const owner = await signUpWithCard(t);
    const cursors = [
      `2020-01-01T00:00:00.000Z|${'-'.repeat(36)}`,
      '0000-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000',
      '+275760-09-13T00:00:00.000Z|00000000-0000-4000-8000-000000000000',
      '2020-01-01|00000000-0000-4000-8000-000000000000',
      '2020-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000|x',
      '\u0000',
    ];
    for (const raw of cursors) {
      const response = await t.call({
        method: 'GET',
        url: `/api/clients/${owner.clientId}/transactions?cursor=${Buffer.from(raw).toString('base64url')}`,
        token: owner.jwt,
      });
      expectRefused(response);
      expect(response.body.validation_errors.cursor).toEqual(['Enter valid data']);
    }
    const valid = Buffer.from('2020-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000').toString('base64url');
    expect(
      (await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/transactions?cursor=${valid}`, token: owner.jwt }))
        .status,
    ).toBe(200);
  });
});

describe('how deeply a JSON body may nest', () => {
  const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  let addresses = 0;
  // Each from an address of its own, so that the per-address limits of these routes do not answer first.
  const post = (url: string, payload: string, token?: string) =>
    t.call({
      method: 'POST',
      url,
      payload,
      token,
      remoteAddress: `10.1.0.${++addresses}`,
      headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    });

  it('refuses 5,000 and 100,000 levels with 400 in the error format on public and signed-in body routes', async () => {
    const owner = await signUpWithCard(t);
    const routes: [string, string | undefined][] = [
      ['/api/register', undefined],
      ['/api/ops/sign-in', undefined],
      ['/api/contact', undefined],
      [`/api/public/cards/${owner.cardId}/payments`, undefined],
      [`/api/clients/${owner.clientId}/card-orders`, owner.jwt],
    ];
    for (const [url, token] of routes) {
      for (const depth of [5_000, 100_000]) {
        for (const body of [arrays(depth), objects(depth), `{"name":${arrays(depth)}}`]) {
          const answer = await post(url, body, token);
          expectRefused(answer, 400);
          expect(answer.body.code).toBe('bad_request');
        }
      }
    }
  });

  it(`parses ${MAX_JSON_DEPTH} levels, refuses one more, and counts no bracket inside a string`, async () => {
    const atLimit = await post('/api/contact', `{"name":${arrays(MAX_JSON_DEPTH - 1)}}`);
    expectRefused(atLimit, 422);
    expect(atLimit.body.validation_errors).toHaveProperty('name');
    expectRefused(await post('/api/contact', `{"name":${arrays(MAX_JSON_DEPTH)}}`), 400);
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(5_000)}\\"${'{'.repeat(100)}","b":[[]]}`, 3)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\\\","b":[[[]]]}`, 3)).toBe(true);
    const owner = await signUpWithCard(t);
    const paid = await post(
      `/api/public/cards/${owner.cardId}/payments`,
      JSON.stringify({ amount_cents: 500, terms_accepted: true, message: '[{'.repeat(50) }),
    );
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  });

  it('walks a value nested 100,000 levels deep without running out of stack', () => {
    let value: unknown = { text: NUL };
    for (let level = 0; level < 100_000; level++) value = level % 2 === 0 ? [value] : { inner: value };
    const bad: string[] = [];
    clean(value, bad);
    expect(bad).toHaveLength(1);
    expect(bad[0]!.endsWith('.0.text')).toBe(true);
  });
});

describe('integers are integers', () => {
  // What z.coerce turned into numbers: true → 1, "0x2" → 2, [2] → 2, "" → 0, " 2" → 2.
  const notIntegers = [true, '0x2', [2], '2', ' 2', '', '1e1', 2.5, null, { value: 2 }];

  it('refuses a card order quantity, and amounts in cents, that are not JSON integers, on the field', async () => {
    const owner = await signUpWithCard(t);
    const address = {
      country: 'LV',
      city: 'Riga',
      address: 'Brivibas iela 1',
      zip: 'LV-1010',
      first_name: 'Anna',
      last_name: 'Ozola',
    };
    const bodies: [url: string, field: string, body: Record<string, unknown>, token?: string][] = [
      [`/api/clients/${owner.clientId}/card-orders`, 'quantity', { product: 'card', ...address }, owner.jwt],
      [`/api/clients/${owner.clientId}/invoices`, 'amount_cents', { description: 'Dinner' }, owner.jwt],
      [`/api/clients/${owner.clientId}/payouts`, 'amount_cents', { method_id: crypto.randomUUID() }, owner.jwt],
      [`/api/public/cards/${owner.cardId}/payments`, 'amount_cents', { terms_accepted: true }],
    ];
    let addresses = 0;
    for (const [url, field, body, token] of bodies) {
      for (const value of notIntegers) {
        const answer = await t.call({
          method: 'POST',
          url,
          token,
          remoteAddress: `10.2.0.${++addresses % 250}`,
          headers: { 'idempotency-key': crypto.randomUUID() },
          payload: { ...body, [field]: value },
        });
        expectRefused(answer);
        expect([url, value, Object.keys(answer.body.validation_errors)]).toEqual([url, value, [field]]);
      }
    }
    const placed = await t.call({
      method: 'POST',
      url: bodies[0]![0],
      token: owner.jwt,
      payload: { ...bodies[0]![2], quantity: 2 },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data).toMatchObject({ status: 'placed', quantity: 2 });
  });

  it('takes decimal digits only for a whole number in a query string', async () => {
    const owner = await signUpWithCard(t);
    const page = (limit: string) =>
      t.call({
        method: 'GET',
        url: `/api/clients/${owner.clientId}/transactions?limit=${encodeURIComponent(limit)}`,
        token: owner.jwt,
      });
    for (const limit of ['0x2', ' 2', '2 ', '+2', '-2', '2e1', '2.0', '', 'true', '0', '101', '99999999999999999999']) {
      const answer = await page(limit);
      expectRefused(answer);
      expect([limit, Object.keys(answer.body.validation_errors)]).toEqual([limit, ['limit']]);
    }
    expect((await page('2')).status).toBe(200);
    expect((await page('100')).status).toBe(200);
  });
});
