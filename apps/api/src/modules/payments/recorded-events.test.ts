import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { payments } from '../../db/schema/payments.ts';
import { SANDBOX_SIGNATURE_HEADER } from '../../integrations/sandbox-psp/sandbox-provider.ts';
import { recordSandboxEvent, sandboxEventOf, sandboxSigner } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { claimRecordedEvents } from './payments.repository.ts';

// Webhooks record, workers apply in batches (decision 0060). Batches of 4 here, so that a few payments span several.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { PAYMENT_BATCH_SIZE: '4', CHECKOUTS_PER_CARD_PER_10_MINUTES: '100000', CHECKOUTS_GLOBAL_PER_MINUTE: '100000' },
  });
});
afterAll(() => t.close());

let guests = 0;
/** A guest's payment to the card, not paid yet; each guest from an address of their own, as at a busy venue. */
async function openPayment(cardId: string, cents: number) {
  guests += 1;
  const created = await t.call({
    method: 'POST',
    url: `/api/public/cards/${cardId}/payments`,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { amount_cents: cents, cover_fee: false, terms_accepted: true },
    remoteAddress: `10.9.${guests >> 8}.${guests & 255}`,
  });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; total_cents: number; amount_cents: number; fee_cents: number; checkout_url: string };
}
type Payment = Awaited<ReturnType<typeof openPayment>>;
type Kind = 'payment.succeeded' | 'payment.failed' | 'payment.refunded' | 'payment.chargeback' | 'payment.reinstated';

const waiting = async () =>
  rowsOf<{ event_id: string; attempts: number }>(
    await t.app.db.execute(sql`select event_id, attempts from provider_events where outcome is null order by sequence`),
  );

/** A payment's state and what its recipient holds: what the books make of its events. */
async function booksOf(payment: Payment, staff: { userId: string }) {
  const [row] = await t.app.db
    .select({ status: payments.status, refunded: payments.refundedCents, disputed: payments.disputedCents })
    .from(payments)
    .where(eq(payments.id, payment.id));
  return { ...row, balances: await userBalances(t.app.db, staff.userId) };
}

/** How many transactions wrote these payments' shares: rows written by one transaction share its id (xmin). */
async function transactionsThatCredited(paymentIds: string[]): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await t.app.db.execute(
      sql`select count(distinct xmin::text)::int as n from payment_allocations where payment_id in ${paymentIds}`,
    ),
  );
  return row!.n;
}

describe('recorded provider events', () => {
  it('are applied many per transaction, each once, and not before the workers run', async () => {
    const staff = await signUpWithCard(t);
    const opened = [];
    for (let i = 0; i < 10; i += 1) opened.push(await openPayment(staff.cardId, 300 + i));
    for (const payment of opened)
      expect(await recordSandboxEvent(t, sandboxEventOf(t, payment, 'payment.succeeded'))).toBe('recorded');
    expect(await userBalances(t.app.db, staff.userId)).toMatchObject({ hold: 0 });
    expect(await waiting()).toHaveLength(10);

    expect(await t.runJob('payments.apply-events')).toBe(10);
    // Ten events in batches of at most four: three transactions credited them, not ten.
    expect(await transactionsThatCredited(opened.map((payment) => payment.id))).toBe(3);
    expect(await waiting()).toEqual([]);
    const nets = opened.reduce((sum, payment) => sum + payment.amount_cents - payment.fee_cents, 0);
    expect(await userBalances(t.app.db, staff.userId)).toMatchObject({ hold: nets });
    expect(await t.runJob('payments.apply-events')).toBe(0);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it("apply each payment's events in the order they were recorded, one per batch, other payments beside them", async () => {
    const staff = await signUpWithCard(t);
    const [first, second] = [await openPayment(staff.cardId, 1_000), await openPayment(staff.cardId, 2_000)];
    const events = [
      sandboxEventOf(t, first!, 'payment.succeeded'),
      sandboxEventOf(t, first!, 'payment.refunded', { amountCents: 400 }),
      sandboxEventOf(t, second!, 'payment.succeeded'),
      sandboxEventOf(t, first!, 'payment.refunded', { amountCents: 1_000 }),
    ];
    for (const event of events) expect(await recordSandboxEvent(t, event)).toBe('recorded');
    const claimed = await t.app.db.transaction((tx) => claimRecordedEvents(tx, t.clock.now(), 10));
    // The first payment's refund waits for its success; the other payment's success does not.
    expect(claimed.map((row) => (row.payload as { id: string }).id)).toEqual([events[0]!.id, events[2]!.id]);

    expect(await t.runJob('payments.apply-events')).toBe(4);
    expect(await booksOf(first!, staff)).toMatchObject({ status: 'refunded', balances: { hold: 2_000 - 100 } });
    expect(await booksOf(second!, staff)).toMatchObject({ status: 'succeeded' });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('apply the rest of a batch that fails, and put off only the event that cannot be applied, with its payment behind it', async () => {
    const staff = await signUpWithCard(t);
    const opened = [];
    for (let i = 0; i < 4; i += 1) opened.push(await openPayment(staff.cardId, 500 + i));
    const poisoned = opened[1]!;
    // A fault in the database itself, for this one payment's credit: as a bug in a purpose's handler would be.
    await t.app.db.execute(
      sql.raw(`create or replace function fail_one_credit() returns trigger language plpgsql as $$
        begin
          if new.payment_id = '${poisoned.id}' then raise exception 'injected fault'; end if;
          return new;
        end $$`),
    );
    await t.app.db.execute(
      sql`create trigger fail_one_credit before insert on payment_allocations for each row execute function fail_one_credit()`,
    );
    try {
      for (const payment of opened) await recordSandboxEvent(t, sandboxEventOf(t, payment, 'payment.succeeded'));
      const later = sandboxEventOf(t, poisoned, 'payment.refunded', { amountCents: 100 });
      await recordSandboxEvent(t, later);
      expect(await t.runJob('payments.apply-events')).toBe(4);
      const left = await waiting();
      expect(left).toHaveLength(2);
      expect(left[0]).toMatchObject({ attempts: 1 });
      expect(left[1]).toMatchObject({ event_id: later.id, attempts: 0 });
      for (const payment of opened.filter((p) => p !== poisoned))
        expect((await t.app.services.payments.getPublicPayment(payment.id)).status).toBe('succeeded');
      // Not due again before its wait (a minute) is over.
      expect(await t.runJob('payments.apply-events')).toBe(0);
    } finally {
      await t.app.db.execute(sql`drop trigger fail_one_credit on payment_allocations`);
      await t.app.db.execute(sql`drop function fail_one_credit()`);
    }
    t.clock.advance(60_000);
    expect(await t.runJob('payments.apply-events')).toBe(2);
    expect(await waiting()).toEqual([]);
    expect(await booksOf(poisoned, staff)).toMatchObject({ status: 'succeeded', refunded: 100 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('are applied by the direct path when it comes first (the provider asked about a refund), and then only once', async () => {
    const staff = await signUpWithCard(t);
    const payment = await openPayment(staff.cardId, 800);
    const success = sandboxEventOf(t, payment, 'payment.succeeded');
    expect(await recordSandboxEvent(t, success)).toBe('recorded');
    expect(await t.app.services.payments.applyEvent('sandbox', success)).toBe('applied');
    expect(await booksOf(payment, staff)).toMatchObject({ status: 'succeeded' });
    expect(await waiting()).toEqual([]);
    expect(await t.runJob('payments.apply-events')).toBe(0);
    expect(await t.app.services.payments.applyEvent('sandbox', success)).toBe('duplicate');
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('are applied once each when four appliers run at once over events of many payments', async () => {
    const staff = await signUpWithCard(t);
    const opened = [];
    for (let i = 0; i < 24; i += 1) opened.push(await openPayment(staff.cardId, 1_000 + i));
    for (const payment of opened) {
      await recordSandboxEvent(t, sandboxEventOf(t, payment, 'payment.succeeded'));
      await recordSandboxEvent(t, sandboxEventOf(t, payment, 'payment.refunded', { amountCents: 200 }));
    }
    const jobs = t.app.services.jobs.find((job) => job.name === 'payments.apply-events')!;
    const drain = async () => {
      let done = 0;
      for (let did = Number(await jobs.runOne(t.clock.now())); did > 0; did = Number(await jobs.runOne(t.clock.now())))
        done += did;
      return done;
    };
    const counts = await Promise.all([drain(), drain(), drain(), drain()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(48);
    expect(await waiting()).toEqual([]);
    for (const payment of opened) expect(await booksOf(payment, staff)).toMatchObject({ status: 'succeeded', refunded: 200 });
    // Each payment credited once and adjusted once, and the recipient's history agrees with the ledger.
    const entries = rowsOf<{ kind: string; n: number }>(
      await t.app.db.execute(sql`
        select kind, count(*)::int as n from ledger_entries
        where split_part(reference, ':', 2) in ${opened.map((payment) => payment.id)} group by kind order by kind`),
    );
    expect(entries).toEqual([
      { kind: 'tip_adjusted', n: 24 },
      { kind: 'tip_received', n: 24 },
    ]);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  }, 120_000);

  it("are split between partitioned appliers by the payment's card: each card's events in one part, every event in one", async () => {
    const cards = [];
    for (let i = 0; i < 12; i += 1) cards.push(await signUpWithCard(t));
    const byCard = new Map<string, string[]>();
    for (const card of cards) {
      for (const cents of [700, 900]) {
        const payment = await openPayment(card.cardId, cents);
        await recordSandboxEvent(t, sandboxEventOf(t, payment, 'payment.succeeded'));
        byCard.set(card.cardId, [...(byCard.get(card.cardId) ?? []), payment.id]);
      }
    }
    const job = t.app.services.jobs.find((each) => each.name === 'payments.apply-events')!;
    expect(job.partitions).toBe(4);
    const credited = async (paymentIds: string[]) =>
      rowsOf<{ id: string }>(
        await t.app.db.execute(sql`select id from payments where status = 'succeeded' and id in ${paymentIds}`),
      ).length;
    const appliedPerPart: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      let applied = 0;
      for (let did = Number(await job.runOne(t.clock.now(), { index, count: 4 })); did > 0;) {
        applied += did;
        did = Number(await job.runOne(t.clock.now(), { index, count: 4 }));
      }
      appliedPerPart.push(applied);
      // After each part, every card is wholly credited or not at all: a card's payments are all in one part.
      for (const paymentIds of byCard.values()) expect([0, 2]).toContain(await credited(paymentIds));
    }
    expect(appliedPerPart.reduce((a, b) => a + b, 0)).toBe(24);
    expect(appliedPerPart.filter((applied) => applied > 0).length).toBeGreaterThan(1);
    expect(await waiting()).toEqual([]);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('property: the books come out as when each event is applied at once, whatever the batches and duplicates', async () => {
    const step = fc.record({
      type: fc.constantFrom<Kind>(
        'payment.succeeded',
        'payment.refunded',
        'payment.chargeback',
        'payment.reinstated',
        'payment.failed',
      ),
      amount: fc.integer({ min: 0, max: 1_000 }),
      /** A redelivery of the step before it, under the same event id. */
      again: fc.boolean(),
    });
    // Two recipients with the same history so far: every run gives each the same events, one through the workers.
    const [queued, direct] = [await signUpWithCard(t), await signUpWithCard(t)];
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const [viaWorkers, atOnce] = [await openPayment(queued.cardId, 1_000), await openPayment(direct.cardId, 1_000)];
        let previous: string | undefined;
        for (const { type, amount, again } of steps) {
          const id = again && previous ? previous : `evt_${crypto.randomUUID()}`;
          previous = id;
          const amountCents = type === 'payment.succeeded' ? viaWorkers.total_cents : amount;
          await recordSandboxEvent(t, sandboxEventOf(t, viaWorkers, type, { amountCents, id }));
          await t.app.services.payments.applyEvent(
            'sandbox',
            sandboxEventOf(t, atOnce, type, { amountCents, id: `${id}:direct` }),
          );
        }
        await t.runJob('payments.apply-events');
        expect(await waiting()).toEqual([]);
        expect(await booksOf(viaWorkers, queued)).toEqual(await booksOf(atOnce, direct));
      }),
      { numRuns: 15 },
    );
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  }, 300_000);
});

describe('a worker that listens', () => {
  it('applies a recorded event as soon as it is announced, with no tick due for an hour', async () => {
    const inline = await createTestApp({ env: { WORKER: 'inline', WORKER_INTERVAL_MS: '3600000' } });
    try {
      const staff = await signUpWithCard(inline);
      const created = await inline.call({
        method: 'POST',
        url: `/api/public/cards/${staff.cardId}/payments`,
        headers: { 'idempotency-key': crypto.randomUUID() },
        payload: { amount_cents: 700, cover_fee: true, terms_accepted: true },
      });
      const payment = created.body.data as Payment;
      const body = JSON.stringify({
        ...sandboxEventOf(t, payment, 'payment.succeeded'),
        created_at: inline.clock.now().getTime(),
      });
      const recorded = await inline.call({
        method: 'POST',
        url: '/api/webhooks/sandbox',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandboxSigner(inline).signEvent(body) },
        payload: body,
      });
      expect(recorded.body.data.outcome).toBe('recorded');
      await vi.waitFor(async () => expect(await userBalances(inline.app.db, staff.userId)).toMatchObject({ hold: 700 }), {
        timeout: 2_000,
        interval: 20,
      });
    } finally {
      await inline.close();
    }
  });
});
