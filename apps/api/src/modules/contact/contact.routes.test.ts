import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { signInOperator } from '../ops/ops.test-support.ts';

const SUPPORT = 'help@tipcard.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SUPPORT_EMAIL: SUPPORT } });
});
afterAll(() => t.close());

const outboxFor = async (to: string) =>
  (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).body.data;

describe('POST /api/contact', () => {
  it("opens a ticket in the support inbox, tells support's mailbox with the ticket's link, and e-mails the answer to the visitor in their language", async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/contact',
      headers: { 'accept-language': 'lv-LV,lv;q=0.9', 'x-forwarded-for': '10.0.0.1' },
      payload: { name: 'Anna Bērziņa', email: 'anna@example.com', message: 'Kā pasūtīt vēl vienu karti?' },
    });
    expect(response).toMatchObject({ status: 202, body: { data: { sent: true } } });

    const operator = await signInOperator(t, 'support');
    const ops = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.call({ method, url: `/api/ops${url}`, token: operator.opsToken, ...(payload ? { payload } : {}) });
    const inbox = (await ops('GET', '/tickets?status=open')).body.data as { id: string; title: string; phone: string | null }[];
    const ticket = inbox.find((row) => row.title === 'Contact form: Anna Bērziņa')!;
    expect(ticket).toMatchObject({ phone: null, user_id: null, contact: { name: 'Anna Bērziņa', email: 'anna@example.com' } });
    const detail = (await ops('GET', `/tickets/${ticket.id}`)).body.data;
    expect(detail).toMatchObject({ user: null, contact: { email: 'anna@example.com' } });
    expect(detail.messages).toEqual([expect.objectContaining({ author: 'user', message: 'Kā pasūtīt vēl vienu karti?' })]);

    const [notice] = await outboxFor(SUPPORT);
    expect(notice).toMatchObject({ channel: 'email', to: SUPPORT });
    expect(notice.body).toContain('Subject: Contact form: Anna Bērziņa');
    expect(notice.body).toContain('Reply-To: anna@example.com');
    expect(notice.body).toContain('Language: lv');
    expect(notice.body).toContain(`/ops/#/tickets/${ticket.id}`);

    // A file cannot go to a visitor: the answer is an e-mail of text, and nothing is sent or stored.
    const withFile = await ops('POST', `/tickets/${ticket.id}/reply`, {
      message: 'Skatiet pielikumu.',
      attachments: [{ name: 'a.pdf', content: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') }],
    });
    expect(withFile.status).toBe(422);
    expect(withFile.body.validation_errors.attachments).toEqual([
      'A reply to a contact-form message is e-mailed as text: attach nothing.',
    ]);
    expect(await outboxFor('anna@example.com')).toEqual([]);

    const replied = await ops('POST', `/tickets/${ticket.id}/reply`, { message: 'Karšu veikalā sadaļā “Kartes”.' });
    expect(replied.status).toBe(200);
    const [answer] = await outboxFor('anna@example.com');
    expect(answer.body).toContain('Subject: Tipcard atbalsta dienests: atbilde uz jūsu ziņu');
    expect(answer.body).toContain('Labdien, Anna Bērziņa!');
    expect(answer.body).toContain('Karšu veikalā sadaļā “Kartes”.');
    expect(answer.body).toContain('Kā pasūtīt vēl vienu karti?');
    expect((await ops('GET', `/tickets/${ticket.id}`)).body.data.status).toBe('waiting_for_user');
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

describe('the contact form where no e-mail can leave', () => {
  it('is reported off to the web app and answers 503, since the visitor could not be answered', async () => {
    const offline = await createTestApp({ overrides: { mailer: null } });
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
