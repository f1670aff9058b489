import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { DEFAULT_QR_COLOR, pickQrFormat } from '../../lib/qr-code.ts';

let t: TestApp;
let user: Awaited<ReturnType<typeof signUp>>;
let card: { id: string; payment_url: string };
let otherCard: { id: string; payment_url: string };

const cardBody = { title: 'Main', public_name: 'Anna', activity_type: 'WAITER', country: 'LV' };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://tipcard.example' } });
  user = await signUp(t);
  card = (await t.call({ method: 'POST', url: `/api/clients/${user.clientId}/cards`, token: user.jwt, payload: cardBody })).body
    .data;
  const other = await signUp(t);
  otherCard = (await t.call({ method: 'POST', url: `/api/clients/${other.clientId}/cards`, token: other.jwt, payload: cardBody }))
    .body.data;
});
afterAll(() => t.close());

const qr = (query: Record<string, string>, headers: Record<string, string> = {}, cardId = card.id) =>
  t.app
    .inject({
      method: 'GET',
      url: `/api/cards/${cardId}/qr_code`,
      query,
      headers: { authorization: `Bearer ${user.jwt}`, ...headers },
    })
    .then((response) => ({
      status: response.statusCode,
      headers: response.headers,
      bytes: response.rawPayload,
      json: (): any => response.json(),
    }));

describe('card QR code', () => {
  it("encodes the card's payment page as a PNG by default", async () => {
    expect(card.payment_url).toBe(`https://tipcard.example/payment/${card.id}`);
    const answer = await qr({ url: card.payment_url, hexColor: '#1a2b4c' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['cache-control']).toBe('private, max-age=3600');
    expect(answer.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // Width 512 (IHDR is right after the signature).
    expect(answer.bytes.readUInt32BE(16)).toBe(512);

    const plain = await qr({ url: card.payment_url }, { accept: '*/*' });
    expect(plain.headers['content-type']).toBe('image/png');
  });

  it('answers SVG in the asked colour when Accept prefers it', async () => {
    const answer = await qr({ url: card.payment_url, hexColor: '1A2B4C' }, { accept: 'image/svg+xml' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(answer.headers.vary).toMatch(/Accept/i);
    const svg = answer.bytes.toString('utf8');
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('#1a2b4c');
    expect(svg).toContain('#ffffff');

    const byDefault = await qr({ url: card.payment_url }, { accept: 'image/svg+xml' });
    expect(byDefault.bytes.toString('utf8')).toContain(DEFAULT_QR_COLOR);
  });

  it('refuses any other URL with a 422 on url', async () => {
    const wrong = [
      otherCard.payment_url,
      `https://evil.example/payment/${card.id}`,
      `http://tipcard.example/payment/${card.id}`,
      `https://tipcard.example/#/payment/${card.id}`,
      `https://tipcard.example/payment/${card.id}?x=1`,
      `https://tipcard.example/payment/${card.id}/`,
      `https://tipcard.example.evil.example/payment/${card.id}`,
      'garbage',
      'javascript:alert(1)',
    ];
    for (const url of wrong) {
      const answer = await qr({ url });
      expect(answer.status, url).toBe(422);
      expect(answer.json()).toMatchObject({ code: 'validation_failed', validation_errors: { url: [expect.any(String)] } });
    }
    const missing = await qr({});
    expect(missing.status).toBe(422);
    expect(missing.json().validation_errors.url).toEqual(['This value should not be blank.']);
    const tooLong = await qr({ url: `https://tipcard.example/${'x'.repeat(600)}` });
    expect(tooLong.status).toBe(422);
  });

  it('refuses a bad colour with a 422 on hexColor', async () => {
    for (const hexColor of ['red', '#12345', '#1234567', '#gggggg', '##123456', 'rgb(0,0,0)']) {
      const answer = await qr({ url: card.payment_url, hexColor });
      expect(answer.status, hexColor).toBe(422);
      expect(answer.json()).toMatchObject({
        code: 'validation_failed',
        validation_errors: { hexColor: ['Enter a colour such as #1a2b4c'] },
      });
    }
  });

  it("answers 404 for another user's card, even with that card's own URL", async () => {
    const answer = await qr({ url: otherCard.payment_url }, {}, otherCard.id);
    expect(answer.status).toBe(404);
    expect(answer.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('pickQrFormat', () => {
  it.each([
    [undefined, 'png'],
    ['', 'png'],
    ['*/*', 'png'],
    ['image/png', 'png'],
    ['image/*', 'png'],
    ['image/svg+xml', 'svg'],
    ['image/svg+xml, image/png', 'svg'],
    ['image/png, image/svg+xml', 'png'],
    ['image/png;q=0.5, image/svg+xml', 'svg'],
    ['image/svg+xml;q=0.4, image/png;q=0.8', 'png'],
    ['image/svg+xml, */*;q=0.8', 'svg'],
    ['text/html, */*', 'png'],
  ] as const)('%s → %s', (accept, format) => {
    expect(pickQrFormat(accept)).toBe(format);
  });
});
