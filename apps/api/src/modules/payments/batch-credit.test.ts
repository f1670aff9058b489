import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { recordSandboxEvent, sandboxEventOf } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { teamFixtures } from '../teams/teams.test-support.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';

// A batch's successes are applied in sets (decision 0060): the same books, history and notices as one event per
// transaction, in a number of statements that does not grow with the batch, and without deadlocks between batches.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { PAYMENT_BATCH_SIZE: '100', CHECKOUTS_PER_CARD_PER_10_MINUTES: '100000', CHECKOUTS_GLOBAL_PER_MINUTE: '100000' },
  });
});
afterAll(() => t.close());
const { team } = teamFixtures(() => t);

type Payment = { id: string; total_cents: number; amount_cents: number; fee_cents: number; checkout_url: string };
type Kind = 'payment.succeeded' | 'payment.refunded';

let guests = 0;
async function openPayment(app: TestApp, cardId: string, cents: number, note: { rating?: number; message?: string } = {}) {
  guests += 1;
  const created = await app.call({
    method: 'POST',
    url: `/api/public/cards/${cardId}/payments`,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { amount_cents: cents, cover_fee: false, terms_accepted: true, ...note },
    remoteAddress: `10.8.${guests >> 8}.${guests & 255}`,
  });
  expect(created.status).toBe(201);
  return created.body.data as Payment;
}

/** One side of the comparison: two tip cards, a tip card whose owner is deleted during the run, and a team card. */
async function world() {
  const [first, second, gone] = [await signUpWithCard(t), await signUpWithCard(t), await signUpWithCard(t)];
  const crew = await team(2);
  const users = [first.userId, second.userId, gone.userId, ...crew.members.map((member) => member.userId)];
  return { cards: [first.cardId, second.cardId, gone.cardId, crew.card_id], users, gone: gone.userId };
}
type World = Awaited<ReturnType<typeof world>>;

const q = async <Row>(query: ReturnType<typeof sql>) => rowsOf<Row>(await t.app.db.execute(query));

/** Everything the books, the history and the notices say of these payments, with users named by their place. */
async function storyOf(side: World, paymentIds: string[], eventIds: string[]) {
  const who = (id: unknown) => (typeof id === 'string' && side.users.includes(id) ? `user${side.users.indexOf(id)}` : id);
  const place = (id: unknown) => `payment${paymentIds.indexOf(id as string)}`;
  const anonymous = (text: string) =>
    paymentIds.reduce(
      (out, id, index) => out.replaceAll(id, `payment${index}`),
      side.users.reduce((out, id, index) => out.replaceAll(id, `user${index}`), text),
    );
  const sorted = (rows: unknown[]) => rows.map((row) => anonymous(JSON.stringify(row))).sort();
  const payments = await q<Record<string, unknown>>(sql`
    select id, status, refunded_cents, disputed_cents, adjustments from payments where id in ${paymentIds}`);
  const allocations = await q<Record<string, unknown>>(sql`
    select payment_id, position, user_id, platform_account, net_cents, fee_cents, reversed_net_cents, reversed_fee_cents,
           released_at is not null as released
    from payment_allocations where payment_id in ${paymentIds}`);
  const postings = await q<Record<string, unknown>>(sql`
    select e.kind, e.reference, a.owner_user_id, a.kind as account, sum(p.amount_cents)::text as cents
    from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
    where split_part(e.reference, ':', 2) in ${paymentIds}
    group by e.kind, e.reference, a.owner_user_id, a.kind`);
  const history = await q<Record<string, unknown>>(sql`
    select user_id, card_id is not null as on_card, payment_id, type, status, amount_cents, fee_cents, description, message,
           rating, refunded_cents
    from transactions where payment_id in ${paymentIds}`);
  const live = await q<Record<string, unknown>>(sql`
    select user_id, body from live_events where user_id in ${side.users} and body->>'payment_id' in ${paymentIds}`);
  const outcomes = await q<{ outcome: string }>(sql`
    select outcome from provider_events where event_id in ${eventIds} order by sequence`);
  const returns = await q<Record<string, unknown>>(sql`select payment_id from payment_returns where payment_id in ${paymentIds}`);
  const ratings = await q<Record<string, unknown>>(sql`
    select rating_sum, rating_count from cards where id in ${side.cards} order by array_position(${`{${side.cards.join(',')}}`}::uuid[], id)`);
  const balances = [];
  for (const user of side.users) balances.push(await userBalances(t.app.db, user));
  return {
    payments: sorted(payments.map((row) => ({ ...row, id: place(row.id) }))),
    allocations: sorted(allocations.map((row) => ({ ...row, user_id: who(row.user_id) }))),
    postings: sorted(postings.map((row) => ({ ...row, owner_user_id: who(row.owner_user_id) }))),
    history: sorted(history),
    live: sorted(live),
    outcomes: outcomes.map((row) => row.outcome),
    returns: sorted(returns),
    ratings,
    balances,
  };
}

describe('a batch of successes applied in sets', () => {
  it('property: gives the books, history and notices of applying the same events one per transaction', async () => {
    const payment = fc.record({
      card: fc.integer({ min: 0, max: 3 }),
      cents: fc.integer({ min: 100, max: 3_000 }),
      rating: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      /** A success for another amount first: a mismatch. */
      mismatch: fc.boolean(),
      /** A refund (of this part of the total, in tenths) recorded before the success it overtook. */
      refundFirst: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
      /** The success delivered twice under one id, and a second success under another id. */
      duplicate: fc.boolean(),
      again: fc.boolean(),
    });
    const [queued, direct] = [await world(), await world()];
    await fc.assert(
      fc.asyncProperty(fc.array(payment, { minLength: 1, maxLength: 10 }), fc.boolean(), async (plans, deleteOne) => {
        const opened: [Payment, Payment][] = [];
        for (const plan of plans) {
          const note = plan.rating === undefined ? {} : { rating: plan.rating, message: `thanks ${plan.cents}` };
          opened.push([
            await openPayment(t, queued.cards[plan.card]!, plan.cents, note),
            await openPayment(t, direct.cards[plan.card]!, plan.cents, note),
          ]);
        }
        const setDeleted = (deleted: boolean) =>
          t.app.db.execute(
            sql`update users set deleted_at = ${deleted ? t.clock.now() : null} where id in ${[queued.gone, direct.gone]}`,
          );
        if (deleteOne) await setDeleted(true);
        // Each payment's events in its order; the payments' events interleaved, so that batches mix them.
        const perPayment = plans.map((plan, index) => {
          const total = opened[index]![0].total_cents;
          const events: { type: Kind; cents: number; id: string }[] = [];
          if (plan.refundFirst)
            events.push({
              type: 'payment.refunded',
              cents: Math.max(1, Math.floor((total * plan.refundFirst) / 10)),
              id: crypto.randomUUID(),
            });
          if (plan.mismatch) events.push({ type: 'payment.succeeded', cents: total + 1, id: crypto.randomUUID() });
          const success = crypto.randomUUID();
          events.push({ type: 'payment.succeeded', cents: total, id: success });
          if (plan.duplicate) events.push({ type: 'payment.succeeded', cents: total, id: success });
          if (plan.again) events.push({ type: 'payment.succeeded', cents: total, id: crypto.randomUUID() });
          return events;
        });
        const queuedIds: string[] = [];
        const directIds: string[] = [];
        for (let step = 0; perPayment.some((events) => events.length > step); step += 1) {
          for (const [index, events] of perPayment.entries()) {
            const event = events[step];
            if (!event) continue;
            const [viaWorkers, atOnce] = opened[index]!;
            await recordSandboxEvent(
              t,
              sandboxEventOf(t, viaWorkers, event.type, { amountCents: event.cents, id: `evt_${event.id}` }),
            );
            await t.app.services.payments.applyEvent(
              'sandbox',
              sandboxEventOf(t, atOnce, event.type, { amountCents: event.cents, id: `evt_${event.id}:direct` }),
            );
            if (!queuedIds.includes(`evt_${event.id}`)) {
              queuedIds.push(`evt_${event.id}`);
              directIds.push(`evt_${event.id}:direct`);
            }
          }
        }
        await t.runJob('payments.apply-events');
        if (deleteOne) await setDeleted(false);
        expect(
          await storyOf(
            queued,
            opened.map(([one]) => one.id),
            queuedIds,
          ),
        ).toEqual(
          await storyOf(
            direct,
            opened.map(([, other]) => other.id),
            directIds,
          ),
        );
      }),
      { numRuns: 12 },
    );
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  }, 600_000);

  it('takes about as many statements for twenty successes as for two', async () => {
    const cards = [await signUpWithCard(t), await signUpWithCard(t), await signUpWithCard(t)];
    const statementsFor = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        const payment = await openPayment(t, cards[i % 3]!.cardId, 500 + i, i % 2 ? { rating: 4, message: 'ok' } : {});
        await recordSandboxEvent(t, sandboxEventOf(t, payment, 'payment.succeeded'));
      }
      const query = vi.spyOn(pg.Client.prototype, 'query');
      try {
        expect(await t.runJob('payments.apply-events')).toBe(count);
        return query.mock.calls.length;
      } finally {
        query.mockRestore();
      }
    };
    const [two, twenty] = [await statementsFor(2), await statementsFor(20)];
    // One event at a time took about 14 statements per event; a batch takes the same few however many it holds.
    expect(two).toBeLessThan(30);
    expect(twenty).toBeLessThanOrEqual(two + 2);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});

describe('two batches at once', () => {
  it('credit overlapping recipients in opposite orders without a deadlock, each payment once', async () => {
    const small = await createTestApp({
      env: { PAYMENT_BATCH_SIZE: '2', CHECKOUTS_PER_CARD_PER_10_MINUTES: '100000', CHECKOUTS_GLOBAL_PER_MINUTE: '100000' },
    });
    try {
      const [a, b, c] = [await signUpWithCard(small), await signUpWithCard(small), await signUpWithCard(small)];
      // Batches of two, in the order recorded: [a, b], [b, a], [c, a], [a, c], …: each pair of batches meets on the
      // same recipients in the opposite order.
      const order = [a, b, b, a, c, a, a, c, b, c, c, b];
      const ids: string[] = [];
      for (let round = 0; round < 4; round += 1) {
        for (const card of order) {
          const payment = await openPayment(small, card.cardId, 300 + ids.length);
          await recordSandboxEvent(small, sandboxEventOf(small, payment, 'payment.succeeded'));
          ids.push(payment.id);
        }
      }
      const applier = async () => {
        let done = 0;
        for (let did = await small.app.services.payments.applyRecordedEvents(small.clock.now()); did > 0;) {
          done += did;
          did = await small.app.services.payments.applyRecordedEvents(small.clock.now());
        }
        return done;
      };
      const done = await Promise.all([applier(), applier(), applier()]);
      expect(done.reduce((x, y) => x + y, 0)).toBe(ids.length);
      // No batch failed (a deadlock would have had its events applied again one per transaction): two per transaction.
      const [row] = rowsOf<{ n: number }>(
        await small.app.db.execute(
          sql`select count(distinct xmin::text)::int as n from payment_allocations where payment_id in ${ids}`,
        ),
      );
      expect(row!.n).toBe(ids.length / 2);
      const entries = rowsOf<{ n: number }>(
        await small.app.db.execute(
          sql`select count(*)::int as n from ledger_entries where split_part(reference, ':', 2) in ${ids}`,
        ),
      );
      expect(entries[0]!.n).toBe(ids.length);
      let held = 0;
      for (const card of [a, b, c]) held += (await userBalances(small.app.db, card.userId)).hold;
      const rows = rowsOf<{ net: number }>(
        await small.app.db.execute(sql`select sum(net_cents)::int as net from payment_allocations where payment_id in ${ids}`),
      );
      expect(held).toBe(rows[0]!.net);
      expect(await checkLedgerInvariants(small.app.db)).toEqual([]);
    } finally {
      await small.close();
    }
  }, 120_000);
});
