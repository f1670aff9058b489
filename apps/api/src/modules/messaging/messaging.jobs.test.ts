import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outboxMessages } from '../../db/schema/messaging.ts';
import { createTestApp, uniquePhone, type TestApp } from '../../test/test-app.ts';
import type { Mail } from './mailer.ts';
import { DELIVERY_LEASE_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './messaging.jobs.ts';
import { createMessagingService } from './messaging.service.ts';
import { claimDueMessage, finishClaim } from './outbox.repository.ts';

const DELIVER = 'messages.deliver';

/** The SMS provider as the delivery job sees it; each test says how it behaves. */
let provider: (to: string, body: string) => Promise<void>;
const delivered: { to: string; body: string }[] = [];
const mails: Mail[] = [];
const lines: string[] = [];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: 'info', SUPPORT_EMAIL: 'help@tipcard.test' },
    overrides: {
      sms: {
        async send(to, body) {
          await provider(to, body);
          delivered.push({ to, body });
        },
      },
      mailer: { send: async (mail) => void mails.push(mail) },
      logStream: { write: (line) => void lines.push(line) },
    },
  });
});
afterAll(() => t.close());
beforeEach(() => {
  provider = async () => undefined;
  delivered.length = 0;
});

/** A sign-up's code SMS, written to the outbox by the request. */
async function textedCode(phone = uniquePhone()) {
  const response = await t.call({
    method: 'POST',
    url: '/api/register',
    payload: { username: phone, age_confirmed: true, terms_accepted: true },
  });
  expect(response.status).toBe(200);
  return { phone, code: await t.lastCode(phone) };
}

const rowsTo = (phone: string) => t.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, phone));

describe('messages.deliver', () => {
  it('retries a failing provider with growing waits and delivers the message exactly once', async () => {
    const { phone, code } = await textedCode();
    let calls = 0;
    provider = async () => {
      calls += 1;
      if (calls <= 2) throw new Error('503 Service Unavailable');
    };

    expect(await t.runJob(DELIVER)).toBe(1); // the first try fails
    expect(await t.runJob(DELIVER)).toBe(0); // nothing is due before the first wait is over
    t.clock.advance(RETRY_DELAYS_MS[0]!);
    expect(await t.runJob(DELIVER)).toBe(1); // the second try fails
    t.clock.advance(RETRY_DELAYS_MS[1]! - 1);
    expect(await t.runJob(DELIVER)).toBe(0);
    t.clock.advance(1);
    const thirdTry = t.clock.now();
    expect(await t.runJob(DELIVER)).toBe(1); // the third gets through
    t.clock.advance(RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms));
    expect(await t.runJob(DELIVER)).toBe(0);

    expect(calls).toBe(3);
    expect(delivered).toEqual([{ to: phone, body: expect.stringContaining(code) }]);
    const [row] = await rowsTo(phone);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, sentAt: thirdTry });
    expect(row!.lastError).toBe('Error: 503 Service Unavailable');
  });

  it('marks a message dead after the last try, and logs it without the code, the text or the number', async () => {
    const { phone, code } = await textedCode();
    const { body } = (await rowsTo(phone))[0]!;
    // Providers echo what they were given: the stored error and the log must still not carry it.
    provider = async (to, text) => {
      throw new Error(`invalid message "${text}" to ${to} (code 21211)`);
    };

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      expect(await t.runJob(DELIVER)).toBe(1);
      t.clock.advance(RETRY_DELAYS_MS[attempt - 1] ?? 0);
    }
    t.clock.advance(24 * 3_600_000);
    expect(await t.runJob(DELIVER)).toBe(0);

    const [row] = await rowsTo(phone);
    expect(row).toMatchObject({ status: 'dead', attempts: MAX_ATTEMPTS, sentAt: null });
    expect(row!.lastError).toContain('21211');
    for (const secret of [code, phone, phone.slice(1)]) expect(row!.lastError).not.toContain(secret);
    expect(delivered).toEqual([]);

    const jobLines = lines.filter((line) => line.includes(row!.id));
    const dead = jobLines.filter((line) => JSON.parse(line).level === 50);
    expect(dead).toHaveLength(1);
    expect(JSON.parse(dead[0]!)).toMatchObject({
      messageId: row!.id,
      channel: 'sms',
      attempts: MAX_ATTEMPTS,
      to: expect.stringContaining('•••'),
    });
    expect(jobLines.length).toBe(MAX_ATTEMPTS); // a warning per retried try, then the error
    for (const secret of [code, body, phone, phone.slice(1)]) expect(jobLines.join('')).not.toContain(secret);
  });

  it('lists dead messages without their text, and retries the ones asked for with a fresh round of tries', async () => {
    provider = async () => {
      throw new Error('21608 unverified number');
    };
    const [first, second] = [await textedCode(), await textedCode()];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      await t.runJob(DELIVER);
      t.clock.advance(RETRY_DELAYS_MS[attempt - 1] ?? 0);
    }
    const [firstRow] = await rowsTo(first.phone);
    const [secondRow] = await rowsTo(second.phone);
    const messages = t.app.services.messages;

    const dead = await messages.listDead(1000);
    const listed = dead.find((message) => message.id === firstRow!.id);
    expect(listed).toMatchObject({ channel: 'sms', attempts: MAX_ATTEMPTS, lastError: expect.stringContaining('21608') });
    expect(listed!.recipient).toContain('•••');
    expect(JSON.stringify(dead)).not.toContain(first.code);
    expect(JSON.stringify(dead)).not.toContain(first.phone);

    // A message that is not dead (or does not exist) is left alone.
    expect(await messages.retryDead([firstRow!.id, crypto.randomUUID()])).toEqual([firstRow!.id]);
    expect(await messages.retryDead([firstRow!.id])).toEqual([]);
    expect((await rowsTo(second.phone))[0]).toMatchObject({ status: 'dead' });

    provider = async () => undefined;
    expect(await t.runJob(DELIVER)).toBe(1);
    expect((await rowsTo(first.phone))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    expect(delivered.map((message) => message.to)).toEqual([first.phone]);

    expect(await messages.retryDead('all')).toContain(secondRow!.id);
    expect(await t.runJob(DELIVER)).toBeGreaterThanOrEqual(1);
    expect((await rowsTo(second.phone))[0]).toMatchObject({ status: 'sent' });
  });

  it('never keeps a request waiting on the provider, even while a delivery hangs on it', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    provider = () => answered;
    const first = await textedCode();

    const delivering = t.runJob(DELIVER); // stuck in the provider call
    const second = await Promise.race([
      textedCode(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the request waited on the SMS provider')), 5_000)),
    ]);
    expect(second.code).toMatch(/^\d{6}$/);

    release();
    expect(await delivering).toBe(2);
    expect(delivered.map((sms) => sms.to).sort()).toEqual([first.phone, second.phone].sort());
  });

  it('delivers each message once when two workers run the job at the same time', async () => {
    const messages = createMessagingService({ db: t.app.db, clock: t.clock });
    const phones = Array.from({ length: 20 }, () => uniquePhone());
    for (const [index, phone] of phones.entries()) await messages.enqueueSms(t.app.db, { to: phone, body: `message ${index}` });
    // A provider that takes a moment, so that the two workers' claims interleave.
    provider = () => new Promise((resolve) => setTimeout(resolve, 5));

    const [one, two] = await Promise.all([t.runJob(DELIVER), t.runJob(DELIVER)]);

    expect(one + two).toBe(phones.length);
    expect(delivered.map((sms) => sms.to).sort()).toEqual([...phones].sort());
  });

  it('sends again a message whose worker died holding it, once its lease has run out', async () => {
    const messages = createMessagingService({ db: t.app.db, clock: t.clock });
    const phone = uniquePhone();
    await messages.enqueueSms(t.app.db, { to: phone, body: 'your code is 123456' });
    // A worker claims the message and is killed before it records anything.
    const lost = (await claimDueMessage(t.app.db, t.clock.now(), new Date(t.clock.now().getTime() + DELIVERY_LEASE_MS)))!;

    expect(await t.runJob(DELIVER)).toBe(0);
    t.clock.advance(DELIVERY_LEASE_MS - 1);
    expect(await t.runJob(DELIVER)).toBe(0);
    t.clock.advance(1);
    expect(await t.runJob(DELIVER)).toBe(1);

    expect(delivered).toEqual([{ to: phone, body: 'your code is 123456' }]);
    expect((await rowsTo(phone))[0]).toMatchObject({ status: 'sent', attempts: 2 });
    // The dead worker's claim, should it ever come back, no longer counts.
    expect(await finishClaim(t.app.db, lost, { status: 'dead', lastError: 'late' })).toBe(false);
    expect((await rowsTo(phone))[0]).toMatchObject({ status: 'sent' });
  });

  it('hands a contact-form e-mail to the mailer with its subject and reply-to', async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Anna', email: 'anna@example.com', message: 'Hello' },
    });
    expect(response.status).toBe(202);
    expect(mails).toEqual([]);
    await t.runJob(DELIVER);
    expect(mails).toEqual([
      {
        to: 'help@tipcard.test',
        subject: 'Contact form: Anna',
        replyTo: 'anna@example.com',
        text: expect.stringContaining('Hello'),
      },
    ]);
  });
});

describe('the dev outbox as the sender', () => {
  it('prints each SMS with its code to the server log and marks it sent, and still lists it', async () => {
    const log: string[] = [];
    const dev = await createTestApp({
      env: { LOG_LEVEL: 'info' },
      overrides: { logStream: { write: (line) => void log.push(line) } },
    });
    try {
      const phone = uniquePhone();
      await dev.call({
        method: 'POST',
        url: '/api/register',
        payload: { username: phone, age_confirmed: true, terms_accepted: true },
      });
      const code = await dev.lastCode(phone);
      const { body } = (await dev.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(phone)}` })).body.data[0];
      expect(await dev.runJob(DELIVER)).toBe(1);

      expect(body).toContain(code);
      expect(log.map((line) => JSON.parse(line).msg)).toContain(`[dev outbox] SMS to ${phone}: ${body}`);
      const [row] = await dev.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, phone));
      expect(row).toMatchObject({ status: 'sent', attempts: 1 });
      expect(await dev.lastCode(phone)).toBe(code);
    } finally {
      await dev.close();
    }
  });
});
