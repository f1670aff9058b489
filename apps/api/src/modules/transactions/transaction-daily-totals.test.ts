import fc from 'fast-check';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { transactions } from '../../db/schema/transactions.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { checkLedgerInvariants } from './transactions.service.ts';
import { createUserWithPrivateClient } from '../users/users.service.ts';
import {
  deleteTransactionsOfUser,
  insertTransaction,
  overviewFigures,
  receivedTotalCents,
  type TransactionStatus,
  type TransactionType,
} from './transactions.repository.ts';

let handle: DatabaseHandle;
let userIds: string[];
beforeAll(async () => {
  handle = await createTestDatabase();
  userIds = [];
  for (const phone of ['+37120000001', '+37120000002']) {
    const { user } = await createUserWithPrivateClient(handle.db, { phone, promoSource: null, referralCode: null });
    userIds.push(user.id);
  }
});
afterAll(() => handle.close());

/** Node-postgres and PGlite both answer `execute` with `{ rows }`. */
const rowsOf = async (query: SQL) => ((await handle.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

/** The daily totals as the raw history rows give them: what the trigger must keep. */
const fromRawRows = () =>
  rowsOf(sql`
    SELECT user_id, (created_at AT TIME ZONE 'Europe/Riga')::date::text AS day, sum(amount_cents - refunded_cents)::bigint AS received_cents,
           count(*)::int AS payin_count, coalesce(sum(rating), 0)::bigint AS rating_sum, count(rating)::int AS rating_count
    FROM transactions WHERE type = 'PAYIN' AND status <> 'REFUNDED' GROUP BY 1, 2 ORDER BY 1, 2`);
const kept = () =>
  rowsOf(sql`
    SELECT user_id, day::text AS day, received_cents, payin_count, rating_sum, rating_count
    FROM transaction_daily_totals ORDER BY 1, 2`);

/** The overview's figures and the received total summed over the raw rows, as they were before the daily totals. */
async function overviewFromRawRows(userId: string, now: Date) {
  const since = (unit: string) =>
    sql`(date_trunc(${unit}, ${now.toISOString()}::timestamptz AT TIME ZONE 'Europe/Riga') AT TIME ZONE 'Europe/Riga')`;
  const received = (unit: string) =>
    sql`coalesce(sum(amount_cents - refunded_cents) FILTER (WHERE created_at >= ${since(unit)}), 0)::text`;
  const [row] = (await rowsOf(sql`
    SELECT ${received('day')} AS today, ${received('week')} AS week, ${received('month')} AS month, count(*)::int AS count,
           avg(rating)::text AS rating, coalesce(sum(amount_cents - refunded_cents), 0)::text AS total
    FROM transactions WHERE user_id = ${userId} AND type = 'PAYIN' AND status <> 'REFUNDED'`)) as {
    today: string;
    week: string;
    month: string;
    count: number;
    rating: string | null;
    total: string;
  }[];
  if (!row) throw new Error('an aggregate answers one row');
  return {
    figures: {
      todayCents: Number(row.today),
      weekCents: Number(row.week),
      monthCents: Number(row.month),
      count: row.count,
      averageRating: row.rating == null ? null : Math.round(Number(row.rating) * 10) / 10,
    },
    total: Number(row.total),
  };
}

const TYPES: TransactionType[] = ['PAYIN', 'PAYIN', 'PAYIN', 'PAYOUT', 'REFERRAL_PAYIN'];
const STATUSES: TransactionStatus[] = ['HOLD', 'PAID', 'REFUNDED'];
/** Around Riga midnights, a week's and a month's turn and the DST switch of 2026-10-25. */
const START = Date.parse('2026-10-23T20:00:00Z');
const instant = fc.integer({ min: 0, max: 10 * 24 * 60 }).map((minutes) => new Date(START + minutes * 60_000));
const amount = fc.integer({ min: 1, max: 50_000 });
const rating = fc.option(fc.integer({ min: 1, max: 5 }), { nil: null });
/** The percentage of a row's amount taken back (fc.double would mostly give values too small to take a cent). */
const share = fc.integer({ min: 0, max: 100 });

/** Mostly inserts and edits, so a run builds days with several rows before a deletion or a purge empties some. */
const operation = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('insert' as const),
      user: fc.nat(1),
      type: fc.constantFrom(...TYPES),
      status: fc.constantFrom(...STATUSES),
      amount,
      taken: share,
      rating,
      at: instant,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('update' as const),
      row: fc.nat(),
      status: fc.constantFrom(...STATUSES),
      taken: share,
      rating,
      at: fc.option(instant, { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), row: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('purge' as const), user: fc.nat(1) }) },
);

type Step = typeof operation extends fc.Arbitrary<infer T> ? T : never;

async function apply(step: Step) {
  const db = handle.db;
  const ids = await db
    .select({ id: transactions.id, amount: transactions.amountCents })
    .from(transactions)
    .orderBy(transactions.id);
  switch (step.op) {
    case 'insert':
      await insertTransaction(db, {
        userId: userIds[step.user]!,
        type: step.type,
        status: step.status,
        amountCents: step.amount,
        refundedCents: step.status === 'REFUNDED' ? step.amount : Math.floor((step.amount * step.taken) / 100),
        description: 'Tip',
        rating: step.rating,
        createdAt: step.at,
      });
      return;
    case 'update': {
      const target = ids[step.row % Math.max(ids.length, 1)];
      if (!target) return;
      await db
        .update(transactions)
        .set({
          status: step.status,
          refundedCents: step.status === 'REFUNDED' ? target.amount : Math.floor((target.amount * step.taken) / 100),
          rating: step.rating,
          ...(step.at ? { createdAt: step.at } : {}),
        })
        .where(eq(transactions.id, target.id));
      return;
    }
    case 'delete': {
      const target = ids[step.row % Math.max(ids.length, 1)];
      if (target) await db.delete(transactions).where(eq(transactions.id, target.id));
      return;
    }
    case 'purge':
      await deleteTransactionsOfUser(db, userIds[step.user]!);
  }
}

describe('transaction daily totals', () => {
  it('equal the raw history rows after any inserts, refunds, edits, deletions and purges, and so do the overview and the received total', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), instant, async (steps, now) => {
        await handle.db.delete(transactions);
        expect(await kept()).toEqual([]);
        for (const step of steps) await apply(step);
        expect(await kept()).toEqual(await fromRawRows());
        for (const userId of userIds) {
          const raw = await overviewFromRawRows(userId, now);
          expect(await overviewFigures(handle.db, userId, now)).toEqual(raw.figures);
          expect(await receivedTotalCents(handle.db, userId)).toBe(raw.total);
        }
      }),
      { numRuns: 100 },
    );
    await handle.db.delete(transactions);
    expect(await checkLedgerInvariants(handle.db)).toEqual([]);
  });

  it('count every one of many concurrent payins to the same user and day', async () => {
    const [userId] = userIds as [string];
    const at = new Date('2026-11-20T10:00:00Z');
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        handle.db.transaction((tx) =>
          insertTransaction(tx, {
            userId,
            type: 'PAYIN',
            status: 'HOLD',
            amountCents: 100 + i,
            description: 'Tip',
            rating: (i % 5) + 1,
            createdAt: at,
          }),
        ),
      ),
    );
    await handle.db
      .update(transactions)
      .set({ status: 'PAID' })
      .where(and(eq(transactions.userId, userId), eq(transactions.status, 'HOLD')));
    expect(await kept()).toEqual(await fromRawRows());
    expect(await overviewFigures(handle.db, userId, at)).toMatchObject({
      todayCents: 30 * 100 + 435,
      count: 30,
      averageRating: 3,
    });
    await handle.db.delete(transactions);
  });
});
