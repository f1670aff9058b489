import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTick } from '../jobs/runner.ts';
import { startFakeSentry, parseEnvelope, type FakeSentry, type SentryItem } from '../test/fake-sentry.ts';
import { createTestApp, signUp, signUpWithCard, type TestApp } from '../test/test-app.ts';

let sentry: FakeSentry;
let t: TestApp;
/** The texts the SMS vendor was asked to send: it refuses every one, quoting the number back as Twilio does. */
const refusedSms: string[] = [];
beforeAll(async () => {
  sentry = await startFakeSentry();
  t = await createTestApp({
    env: { SENTRY_DSN: sentry.dsn, SENTRY_ENVIRONMENT: 'test-h10' },
    overrides: {
      sms: {
        async send(to) {
          refusedSms.push(to);
          throw new Error(`The 'To' number ${to} is not a valid mobile number`);
        },
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await t.close();
  await sentry.close();
});

const breakWrites = (table: string) =>
  t.app.db.execute(sql.raw(`ALTER TABLE ${table} ADD CONSTRAINT h10_broken CHECK (false) NOT VALID`));
const repair = (table: string) => t.app.db.execute(sql.raw(`ALTER TABLE ${table} DROP CONSTRAINT h10_broken`));

type SentryEvent = {
  tags?: Record<string, string>;
  environment?: string;
  message?: string;
  exception?: { values: { type: string; value: string }[] };
  extra?: Record<string, unknown>;
};
const eventOf = (item: SentryItem) => item.payload as SentryEvent;
const bySource = (source: string) => sentry.events().filter((item) => eventOf(item).tags?.source === source);
/** Lets reports on their way arrive, so a second one would be seen. */
const settle = async () => {
  await t.app.services.errors.flush(5_000);
  await new Promise((resolve) => setTimeout(resolve, 200));
};

describe('error reporting to Sentry (SENTRY_DSN)', () => {
  it('reports a 500 once, with the route pattern and none of the values the request sent', async () => {
    const user = await signUp(t);
    await breakWrites('payout_methods');
    const method = {
      kind: 'sepa',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      holder_last_name: 'Kalniņš-Sūna',
      address: 'Zīlēnu iela 77, Jūrmala',
    };
    const answer = await t.call({
      method: 'POST',
      url: `/api/clients/${user.clientId}/payout-methods?code=123456`,
      token: user.jwt,
      payload: method,
    });
    await repair('payout_methods');
    expect(answer.status).toBe(500);

    await sentry.waitForEvents(1);
    await settle();
    const reports = bySource('request');
    expect(reports).toHaveLength(1);
    const event = eventOf(reports[0]!);
    expect(event.environment).toBe('test-h10');
    expect(event.tags).toMatchObject({ code: 'internal', method: 'POST', route: '/api/clients/:clientId/payout-methods' });
    expect(event.exception?.values[0]).toMatchObject({ type: 'DatabaseError', value: expect.stringContaining('23514') });
    const raw = reports[0]!.raw;
    for (const value of [
      method.iban,
      'DE89 3704',
      method.bic,
      method.holder_last_name,
      method.address,
      user.phone,
      user.phone.slice(1),
      user.jwt,
      user.clientId,
      '123456',
    ]) {
      expect(raw, `the report carries ${value}`).not.toContain(value);
    }
  });

  it('reports a failed job once, without the row it was about', async () => {
    const before = bySource('job').length;
    // A pending SMS (the sign-in code) is due; claiming it now fails inside the database.
    const { phone } = await signUp(t);
    await breakWrites('outbox_messages');
    await runTick({
      jobs: t.app.services.jobs.filter((job) => job.name === 'messages.deliver'),
      clock: t.clock,
      log: t.app.log,
      errors: t.app.services.errors,
    });
    await repair('outbox_messages');

    await settle();
    const reports = bySource('job').slice(before);
    expect(reports).toHaveLength(1);
    expect(eventOf(reports[0]!).tags).toMatchObject({ job: 'messages.deliver' });
    expect(eventOf(reports[0]!).exception?.values[0]?.type).toBe('DatabaseError');
    for (const value of [phone, phone.slice(1), phone.slice(4)]) expect(reports[0]!.raw).not.toContain(value);
  });

  it('reports each dead message once, without its recipient or text', async () => {
    // Every try fails: after the last one each pending message dies.
    for (let round = 0; round < 8; round += 1) {
      await t.runJob('messages.deliver');
      t.clock.advance(3 * 60 * 60_000);
    }
    await settle();
    const dead = (await t.app.db.execute(sql`select id from outbox_messages where status = 'dead'`)) as unknown as {
      rows: { id: string }[];
    };
    expect(dead.rows.length).toBeGreaterThan(0);
    const reports = bySource('messages.deliver');
    expect(reports.map((item) => eventOf(item).extra?.messageId).sort()).toEqual(dead.rows.map((row) => row.id).sort());
    expect(refusedSms.length).toBeGreaterThan(0);
    for (const report of reports) {
      expect(eventOf(report).message).toContain('marked dead');
      for (const phone of new Set(refusedSms)) {
        for (const value of [phone, phone.slice(1), phone.slice(4)]) expect(report.raw).not.toContain(value);
      }
      expect(report.raw).not.toMatch(/\b\d{6}\b/);
    }
    expect(sentry.refused).toEqual([]);
  }, 60_000);
});

describe('error reporting of a payment provider that does not answer', () => {
  it('reports the 502 once; a 503 by design (readiness) is not reported', async () => {
    // A port with nothing listening: Stripe's API is down.
    const closed = createServer();
    const port = await new Promise<number>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve((closed.address() as { port: number }).port)),
    );
    await new Promise((resolve) => closed.close(resolve));
    const down = await createTestApp({
      env: {
        SENTRY_DSN: sentry.dsn,
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_h10',
        STRIPE_WEBHOOK_SECRET: 'whsec_h10',
        STRIPE_API_BASE: `http://127.0.0.1:${port}`,
      },
      // And no way to send e-mail: the contact form, whose visitors are answered by e-mail, answers 503 by design.
      overrides: { mailer: null },
    });
    try {
      const owner = await signUpWithCard(down);
      const before = bySource('request').length;
      const answer = await down.call({
        method: 'POST',
        url: `/api/public/cards/${owner.cardId}/payments`,
        headers: { 'idempotency-key': 'provider-down-1' },
        payload: { amount_cents: 500, cover_fee: false, terms_accepted: true },
      });
      expect(answer.status).toBe(502);
      const off = await down.call({
        method: 'POST',
        url: '/api/contact',
        payload: { name: 'A', email: 'a@example.com', message: 'Hi' },
      });
      expect(off.status).toBe(503);
      await down.app.services.errors.flush(5_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const reports = bySource('request').slice(before);
      expect(reports.map((item) => eventOf(item).tags)).toEqual([
        expect.objectContaining({ code: 'provider_unavailable', route: '/api/public/cards/:cardId/payments' }),
      ]);
    } finally {
      await down.close();
    }
  }, 120_000);
});

describe('the fake ingestion endpoint', () => {
  it('refuses malformed envelopes as Sentry does', () => {
    const good = '{"event_id":"a"}\n{"type":"event","length":2}\n{}\n';
    expect(parseEnvelope(Buffer.from(good)).items).toHaveLength(1);
    for (const bad of [
      '',
      'not json\n{"type":"event"}\n{}',
      '{}\n{"length":2}\n{}',
      '{}\n{"type":"event","length":50}\n{}',
      '{}\n{"type":"event"}\n{oops',
    ]) {
      expect(() => parseEnvelope(Buffer.from(bad)), bad).toThrow();
    }
  });
});
