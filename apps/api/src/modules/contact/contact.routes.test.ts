import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const SUPPORT = 'help@tipcard.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SUPPORT_EMAIL: SUPPORT } });
});
afterAll(() => t.close());

const outboxFor = async (to: string) =>
  (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).body.data;

describe('POST /api/contact', () => {
  it('sends the message to support as an e-mail that can be answered to the visitor', async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/contact',
      headers: { 'accept-language': 'lv-LV,lv;q=0.9', 'x-forwarded-for': '10.0.0.1' },
      payload: { name: 'Anna Bērziņa', email: 'anna@example.com', message: 'Kā pasūtīt vēl vienu karti?' },
    });
    expect(response).toMatchObject({ status: 202, body: { data: { sent: true } } });
    const [mail] = await outboxFor(SUPPORT);
    expect(mail).toMatchObject({ channel: 'email', to: SUPPORT });
    expect(mail.body).toContain('Subject: Contact form: Anna Bērziņa');
    expect(mail.body).toContain('Reply-To: anna@example.com');
    expect(mail.body).toContain('Language: lv');
    expect(mail.body).toContain('Kā pasūtīt vēl vienu karti?');
  });

  it('answers bad input with 422 in the error format and sends nothing', async () => {
    const before = (await outboxFor(SUPPORT)).length;
    const response = await t.call({
      method: 'POST',
      url: '/api/contact',
      payload: { name: ' ', email: 'not-an-address', message: '' },
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'validation_failed', errors: expect.any(Array) });
    expect(Object.keys(response.body.validation_errors).sort()).toEqual(['email', 'message', 'name']);
    expect(response.body.validation_errors.email).toEqual(['Invalid email address.']);
    expect(await outboxFor(SUPPORT)).toHaveLength(before);
  });

  it('limits messages per IP address', async () => {
    const send = () =>
      t.call({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '10.9.9.9',
        payload: { name: 'Bot', email: 'bot@example.com', message: 'Hello' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await send()).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const limited = await send();
    expect(limited.body).toMatchObject({ code: 'too_many_requests', errors: ['Too many requests'] });
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('the contact form without a way to reach support', () => {
  it('is reported off to the web app and answers 503', async () => {
    const offline = await createTestApp({ config: { contactRecipient: undefined } });
    try {
      expect((await offline.call({ method: 'GET', url: '/api/site' })).body.data.contact_form).toBe(false);
      const response = await offline.call({
        method: 'POST',
        url: '/api/contact',
        payload: { name: 'A', email: 'a@example.com', message: 'Hi' },
      });
      expect(response).toMatchObject({ status: 503, body: { code: 'unavailable' } });
    } finally {
      await offline.close();
    }
  });
});
