import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '@tipcard/shared/live/schemas';
import type { DatabaseHandle } from '../../db/client.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, signUp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { createSandboxRail } from '../payouts/payouts.service.ts';
import { PAYOUT_TEST_ENV, runPayoutWork, staffWithMain, withdraw } from '../payouts/payouts.test-support.ts';
import { checkLedgerInvariants, recordReferralPayin } from '../transactions/transactions.service.ts';
import { openStream } from './messaging.test-support.ts';

const eventRows = async (t: TestApp, userId: string) =>
  (
    (await t.app.db.execute(sql`SELECT seq, body FROM live_events WHERE user_id = ${userId} ORDER BY seq`)) as unknown as {
      rows: { seq: number; body: LiveEvent }[];
    }
  ).rows;

describe('live events', () => {
  let database: DatabaseHandle;
  let t: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({ overrides: { database } });
    other = await createTestApp({ overrides: { database } });
  });
  afterAll(async () => {
    await t.close();
    await other.close();
    await database.close();
  });

  it('announces a tip with its credit to the open stream, uncompressed, with the security headers', async () => {
    const staff = await signUpWithCard(t);
    const stream = await openStream(t, staff);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('content-encoding')).toBeNull();
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');

    const payment = await receiveTip(t, staff.cardId, 475);
    await vi.waitFor(() => expect(stream.events).toHaveLength(1));
    expect(stream.events[0]).toMatchObject({
      seq: 1,
      type: 'credit',
      kind: 'tip',
      amount_cents: 475 - payment.fee_cents,
      currency: 'EUR',
      label: 'Bar Riga',
      payment_id: payment.id,
    });
    expect(stream.ids).toEqual(['1']);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    stream.close();
  });

  it('announces nothing of a credit whose transaction rolls back', async () => {
    const user = await signUp(t);
    const stream = await openStream(t, user);
    await expect(
      t.app.db.transaction(async (tx) => {
        await recordReferralPayin(tx, { userId: user.userId, amountCents: 500, friend: '+371 2•••••12' }, t.clock.now());
        throw new Error('the movement fails after its history row');
      }),
    ).rejects.toThrow('the movement fails');
    expect(await eventRows(t, user.userId)).toEqual([]);

    await t.app.db.transaction((tx) =>
      recordReferralPayin(tx, { userId: user.userId, amountCents: 700, friend: '+371 2•••••12' }, t.clock.now()),
    );
    await vi.waitFor(() =>
      expect(stream.events.map((event) => ('amount_cents' in event ? event.amount_cents : null))).toEqual([700]),
    );
    expect(stream.events[0]).toMatchObject({ type: 'credit', kind: 'referral', label: null });
    stream.close();
  });

  it('resumes from Last-Event-ID with every event after it, once, in order', async () => {
    const staff = await signUpWithCard(t);
    const first = await openStream(t, staff);
    await receiveTip(t, staff.cardId, 300);
    await vi.waitFor(() => expect(first.events).toHaveLength(1));
    first.close();
    // Missed while the app was away.
    for (const cents of [400, 500, 600]) await receiveTip(t, staff.cardId, cents);

    const resumed = await openStream(t, staff, Number(first.ids.at(-1)));
    await vi.waitFor(() => expect(resumed.events).toHaveLength(3));
    expect(resumed.events.map((event) => event.seq)).toEqual([2, 3, 4]);
    await receiveTip(t, staff.cardId, 700);
    await vi.waitFor(() => expect(resumed.events.map((event) => event.seq)).toEqual([2, 3, 4, 5]));

    // Without Last-Event-ID a stream starts after the newest event: the page it opens with was just read.
    const fresh = await openStream(t, staff);
    await receiveTip(t, staff.cardId, 800);
    await vi.waitFor(() => expect(fresh.events.map((event) => event.seq)).toEqual([6]));
    resumed.close();
    fresh.close();
  });

  it('refuses a stream of another user’s client, and one without a session', async () => {
    const owner = await signUp(t);
    const intruder = await signUp(t);
    expect((await openStream(t, { clientId: owner.clientId, jwt: intruder.jwt })).status).toBe(404);
    expect((await openStream(t, { clientId: owner.clientId, jwt: 'not-a-token' })).status).toBe(401);
    const bad = await t.call({
      method: 'GET',
      url: `/api/clients/${owner.clientId}/events`,
      token: owner.jwt,
      headers: { 'last-event-id': 'drop table' },
    });
    expect(bad.status).toBe(422);
  });

  it('caps the streams one user holds open on an instance, and frees a place when one closes', async () => {
    const user = await signUp(t);
    const streams = await Promise.all(Array.from({ length: 8 }, () => openStream(t, user)));
    expect(streams.map((stream) => stream.status)).toEqual(Array(8).fill(200));
    expect((await openStream(t, user)).status).toBe(429);
    streams[0]!.close();
    await vi.waitFor(async () => {
      const again = await openStream(t, user);
      again.close();
      expect(again.status).toBe(200);
    });
    for (const stream of streams) stream.close();
  });

  it('delivers a tip credited through one instance to a stream open on another (NOTIFY)', async () => {
    const staff = await signUpWithCard(t);
    const stream = await openStream(other, staff);
    const payment = await receiveTip(t, staff.cardId, 1_000);
    await vi.waitFor(() => expect(stream.events).toHaveLength(1));
    expect(stream.events[0]).toMatchObject({ type: 'credit', payment_id: payment.id });
    stream.close();
  });

  it('catches up after its LISTEN session is cut, missing nothing', async () => {
    const staff = await signUpWithCard(t);
    const stream = await openStream(other, staff);
    await receiveTip(t, staff.cardId, 350);
    await vi.waitFor(() => expect(stream.events).toHaveLength(1));
    // Every LISTEN session of this database (both instances'), as a failover or a proxy restart would.
    await t.app.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
    );
    await receiveTip(t, staff.cardId, 450);
    await receiveTip(t, staff.cardId, 550);
    await vi.waitFor(() => expect(stream.events.map((event) => event.seq)).toEqual([1, 2, 3]), { timeout: 10_000 });
    stream.close();
  });

  it('delivers concurrent credits to one user once each, in the order of their numbers', async () => {
    const staff = await signUpWithCard(t);
    const streams = [await openStream(t, staff), await openStream(other, staff)];
    const amounts = Array.from({ length: 12 }, (_, i) => 300 + i * 25);
    const payments = await Promise.all(amounts.map((cents, i) => receiveTip(i % 2 ? t : other, staff.cardId, cents)));
    for (const stream of streams) {
      await vi.waitFor(() => expect(stream.events).toHaveLength(amounts.length), { timeout: 10_000 });
      expect(stream.events.map((event) => event.seq)).toEqual(amounts.map((_, i) => i + 1));
      expect(new Set(stream.events.map((event) => (event.type === 'credit' ? event.payment_id : null)))).toEqual(
        new Set(payments.map((payment) => payment.id)),
      );
      stream.close();
    }
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('announces the release from hold', async () => {
    const staff = await signUpWithCard(t);
    const stream = await openStream(t, staff);
    const payment = await receiveTip(t, staff.cardId, 2_000);
    t.clock.advance(25 * 3_600_000);
    other.clock.advance(25 * 3_600_000);
    await t.runJob('payments.release');
    await vi.waitFor(() => expect(stream.events.map((event) => event.type)).toEqual(['credit', 'released']));
    expect(stream.events[1]).toMatchObject({ amount_cents: 2_000 - payment.fee_cents, payment_id: payment.id });
    stream.close();
  });

  it('prunes events older than a day, keeping the numbering', async () => {
    const user = await signUp(t);
    await t.app.db.transaction((tx) =>
      recordReferralPayin(tx, { userId: user.userId, amountCents: 100, friend: '+371 2•••••12' }, t.clock.now()),
    );
    t.clock.advance(24 * 3_600_000 + 1);
    other.clock.advance(24 * 3_600_000 + 1);
    expect(await t.runJob('live.prune')).toBeGreaterThan(0);
    expect(await eventRows(t, user.userId)).toEqual([]);
    await t.app.db.transaction((tx) =>
      recordReferralPayin(tx, { userId: user.userId, amountCents: 200, friend: '+371 2•••••12' }, t.clock.now()),
    );
    expect((await eventRows(t, user.userId)).map((row) => Number(row.seq))).toEqual([2]);
  });
});

describe('live events of payouts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PAYOUT_TEST_ENV });
  });
  afterAll(() => t.close());

  it('announces a withdrawal asked for, in flight and paid', async () => {
    const owner = await staffWithMain(t, 2_000);
    const stream = await openStream(t, owner);
    const { created } = await withdraw(t, owner, 1_000, owner.methodId);
    const deps = { db: t.app.db, log: t.app.log, rail: createSandboxRail(t.app.db, 0), debtor: t.app.config.payouts.debtor };
    expect((await runPayoutWork(deps, t.clock.now())).paid).toBe(1);
    await vi.waitFor(() =>
      expect(stream.events.map((event) => (event.type === 'payout' ? event.status : event.type))).toEqual([
        'requested',
        'in_flight',
        'paid',
      ]),
    );
    expect(stream.events[0]).toMatchObject({ payout_id: created.body.data.id, amount_cents: 1_000 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    stream.close();
  });
});
