import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { rowsOf as rawRowsOf, type Executor } from '../../db/client.ts';
import { preparedStatement } from '../../db/prepared.ts';
import { ledgerAccounts } from '../../db/schema/ledger.ts';
import { PgTransaction } from 'drizzle-orm/pg-core';

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => rawRowsOf<Row>(result);

export interface UserAccountKey {
  ownerUserId: string;
  kind: string;
}

export interface AccountRow {
  id: number;
  ownerUserId: string;
  kind: string;
  balanceCents: number;
}

// Users' accounts first, locked in ascending id order so that concurrent entries cannot deadlock (they may wait);
// then, for each platform kind in the order given, one shard no other transaction holds (never waited for). The
// Append of UNION ALL reads its first branch to the end before the second.
const takeAccountsStatement = preparedStatement<{
  id: number;
  owner_user_id: string | null;
  kind: string;
  balance_cents: number;
}>(
  'ledger_take_accounts',
  `WITH users AS MATERIALIZED (
     SELECT a.id, a.owner_user_id, a.kind, a.balance_cents
     FROM ledger_accounts a
     JOIN unnest($1::uuid[], $2::text[]) AS wanted(owner_user_id, kind) ON a.owner_user_id = wanted.owner_user_id AND a.kind = wanted.kind
     WHERE a.shard = 0
     ORDER BY a.id
     FOR UPDATE OF a
   ), platform AS MATERIALIZED (
     SELECT shard.id, NULL::uuid AS owner_user_id, wanted.kind, shard.balance_cents
     FROM unnest($3::text[]) WITH ORDINALITY AS wanted(kind, position)
     CROSS JOIN LATERAL (
       SELECT a.id, a.balance_cents FROM ledger_accounts a WHERE a.owner_user_id IS NULL AND a.kind = wanted.kind
       ORDER BY random() LIMIT 1 FOR UPDATE SKIP LOCKED
     ) AS shard
     ORDER BY wanted.position
   )
   SELECT * FROM users UNION ALL SELECT * FROM platform`,
);

const insertUserAccounts = preparedStatement(
  'ledger_insert_user_accounts',
  `INSERT INTO ledger_accounts (owner_user_id, kind) SELECT * FROM unnest($1::uuid[], $2::text[]) ON CONFLICT DO NOTHING`,
);
const insertShards = preparedStatement(
  'ledger_insert_shards',
  `INSERT INTO ledger_accounts (owner_user_id, kind, shard)
   SELECT NULL, wanted.kind, shard FROM unnest($1::text[]) AS wanted(kind), generate_series(0, $2::int - 1) AS shard
   ON CONFLICT DO NOTHING`,
);
// The fallback when every shard of a kind is taken: a random one, waited for.
const waitForShards = preparedStatement<{ kind: string; id: number }>(
  'ledger_wait_for_shards',
  `SELECT wanted.kind, shard.id
   FROM unnest($1::text[]) WITH ORDINALITY AS wanted(kind, position)
   CROSS JOIN LATERAL (
     SELECT a.id FROM ledger_accounts a WHERE a.owner_user_id IS NULL AND a.kind = wanted.kind ORDER BY random() LIMIT 1 FOR UPDATE
   ) AS shard
   ORDER BY wanted.position`,
);

export interface TakenAccounts {
  /** The users' accounts asked for, locked. */
  users: AccountRow[];
  /** Platform kind → the id of the shard this transaction holds. */
  shards: Map<string, number>;
}

/**
 * The shard of each platform kind a transaction already holds. A transaction of many entries (a batch of payments,
 * decision 0060) takes the same shard again instead of another: taking a new one per entry, it would end up holding
 * every shard of a kind, and every other transaction would wait for it to end. Keyed by the transaction object, which
 * lives as long as its locks; a savepoint is an object of its own, so a shard it took is never reused past it.
 */
const shardsHeldBy = new WeakMap<Executor, Map<string, number>>();

/**
 * Takes the accounts an entry moves (DESIGN "Scale-out": no hot rows): the users' accounts locked, and one shard of
 * each platform kind (given sorted) that no other transaction holds, or the one this transaction took already, so
 * concurrent entries never wait on a platform account unless every shard of a kind is busy; only then is one waited
 * for. Accounts are never deleted, so the usual case is one statement; missing user accounts and shards are made on
 * first use.
 */
export async function takeAccounts(
  tx: Executor,
  users: UserAccountKey[],
  platformKinds: string[],
  shards: number,
): Promise<TakenAccounts> {
  const held = shardsHeldBy.get(tx) ?? new Map<string, number>();
  const taken = await takeAccountsAnew(
    tx,
    users,
    platformKinds.filter((kind) => !held.has(kind)),
    shards,
  );
  for (const kind of platformKinds) {
    const shard = held.get(kind);
    if (shard !== undefined) taken.shards.set(kind, shard);
    else held.set(kind, taken.shards.get(kind)!);
  }
  if (tx instanceof PgTransaction) shardsHeldBy.set(tx, held);
  return taken;
}

async function takeAccountsAnew(
  tx: Executor,
  users: UserAccountKey[],
  platformKinds: string[],
  shards: number,
): Promise<TakenAccounts> {
  const userParams = [users.map((key) => key.ownerUserId), users.map((key) => key.kind)];
  let rows = await takeAccountsStatement(tx, [...userParams, platformKinds]);
  if (rows.filter((row) => row.owner_user_id !== null).length < users.length) {
    await insertUserAccounts(tx, userParams);
    const shardRows = rows.filter((row) => row.owner_user_id === null);
    rows = [...(await takeAccountsStatement(tx, [...userParams, []])), ...shardRows];
  }
  const taken: TakenAccounts = { users: [], shards: new Map() };
  for (const row of rows) {
    if (row.owner_user_id === null) taken.shards.set(row.kind, row.id);
    else taken.users.push({ id: row.id, ownerUserId: row.owner_user_id, kind: row.kind, balanceCents: row.balance_cents });
  }
  const missing = () => platformKinds.filter((kind) => !taken.shards.has(kind));
  if (missing().length > 0) {
    await insertShards(tx, [missing(), shards]);
    for (const row of await takeAccountsStatement(tx, [[], [], missing()])) taken.shards.set(row.kind, row.id);
  }
  if (missing().length > 0) for (const row of await waitForShards(tx, [missing()])) taken.shards.set(row.kind, row.id);
  return taken;
}

// The entries in their order, each unless its reference exists; the postings of those written; the kept balances moved
// by each account's sum (an UPDATE … FROM moves a row once, however many postings of the statement name it).
const insertEntries = preparedStatement<{ position: number }>(
  'ledger_insert_entries',
  `WITH wanted AS (
     SELECT * FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS wanted(kind, reference, position)
   ), entry AS (
     INSERT INTO ledger_entries (kind, reference)
     SELECT kind, reference FROM wanted ORDER BY position
     ON CONFLICT (reference) DO NOTHING RETURNING id, reference
   ), written AS (
     SELECT entry.id, wanted.position FROM entry JOIN wanted ON wanted.reference = entry.reference
   ), posted AS (
     INSERT INTO ledger_postings (entry_id, account_id, amount_cents)
     SELECT written.id, leg.account_id, leg.amount_cents
     FROM unnest($3::int[], $4::bigint[], $5::bigint[]) WITH ORDINALITY AS leg(entry, account_id, amount_cents, position)
     JOIN written ON written.position = leg.entry
     ORDER BY leg.position
     RETURNING account_id, amount_cents
   ), moved AS (
     UPDATE ledger_accounts a SET balance_cents = a.balance_cents + sums.amount_cents
     FROM (SELECT account_id, sum(amount_cents) AS amount_cents FROM posted GROUP BY account_id) sums
     WHERE a.id = sums.account_id
     RETURNING a.id
   )
   SELECT position::int AS position FROM written WHERE EXISTS (SELECT 1 FROM moved)`,
);

/**
 * Records the entries and their postings and moves the kept balances, in one statement on rows the caller holds;
 * answers the positions (0-based) of the entries written: one whose reference exists is skipped, writing nothing (the
 * movement already happened). A user balance that would go below zero fails the statement on its CHECK constraint.
 */
export async function insertEntriesAndMoveBalances(
  tx: Executor,
  entries: readonly { kind: string; reference: string }[],
  postings: readonly { entry: number; accountId: number; amountCents: number }[],
): Promise<Set<number>> {
  const rows = await insertEntries(tx, [
    entries.map((entry) => entry.kind),
    entries.map((entry) => entry.reference),
    postings.map((p) => p.entry + 1),
    postings.map((p) => p.accountId),
    postings.map((p) => p.amountCents),
  ]);
  return new Set(rows.map((row) => Number(row.position) - 1));
}

/** Opens any of the owner's accounts not made yet, so every kind exists to be closed, and closes them all. */
export async function closeAccountsOf(tx: Executor, ownerUserId: string, kinds: string[], closedAt: Date): Promise<void> {
  await insertUserAccounts(tx, [kinds.map(() => ownerUserId), kinds]);
  await tx
    .update(ledgerAccounts)
    .set({ closedAt })
    .where(and(eq(ledgerAccounts.ownerUserId, ownerUserId), inArray(ledgerAccounts.kind, kinds)));
}

/** One closed account holding money, locked; one another transaction is settling is skipped. */
export async function claimUnsettledClosedAccount(
  tx: Executor,
  ownerUserId: string | null,
): Promise<{ ownerUserId: string; kind: string; balanceCents: number } | null> {
  const [row] = rowsOf(
    await tx.execute(sql`
      SELECT a.owner_user_id, a.kind, a.balance_cents::text AS balance
      FROM ledger_accounts a
      WHERE a.closed_at IS NOT NULL AND a.balance_cents <> 0 AND (${ownerUserId}::uuid IS NULL OR a.owner_user_id = ${ownerUserId}::uuid)
      ORDER BY a.id LIMIT 1 FOR UPDATE OF a SKIP LOCKED`),
  );
  return row ? { ownerUserId: row.owner_user_id as string, kind: row.kind as string, balanceCents: Number(row.balance) } : null;
}

/** The id of the last posting on a user's account of one kind (0 when none). */
export async function lastPostingId(tx: Executor, ownerUserId: string, kind: string): Promise<number> {
  const [row] = rowsOf(
    await tx.execute(sql`
      SELECT coalesce(max(p.id), 0)::text AS id FROM ledger_postings p
      JOIN ledger_accounts a ON a.id = p.account_id WHERE a.owner_user_id = ${ownerUserId} AND a.kind = ${kind}`),
  );
  return Number(row?.id ?? 0);
}

/** A user who owes a debt while main holds money, or null (the repayment locks their accounts itself). */
export async function findDebtorWithMain(db: Executor): Promise<string | null> {
  const [row] = rowsOf(
    await db.execute(sql`
      SELECT debt.owner_user_id FROM ledger_accounts debt
      JOIN ledger_accounts main ON main.owner_user_id = debt.owner_user_id AND main.kind = 'main'
      WHERE debt.kind = 'debt' AND debt.balance_cents < 0 AND main.balance_cents > 0
      LIMIT 1`),
  );
  return row ? (row.owner_user_id as string) : null;
}

export function listBalances(db: Executor, ownerUserId: string) {
  return db
    .select({ kind: ledgerAccounts.kind, balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.ownerUserId, ownerUserId));
}

/** Entries whose postings do not sum to zero, or that have fewer than two postings. */
export async function findUnbalancedEntries(db: Executor) {
  return rowsOf(
    await db.execute(sql`
      SELECT e.id, e.reference, count(p.id)::int AS postings, coalesce(sum(p.amount_cents), 0)::text AS total
      FROM ledger_entries e LEFT JOIN ledger_postings p ON p.entry_id = e.id
      GROUP BY e.id HAVING count(p.id) < 2 OR coalesce(sum(p.amount_cents), 0) <> 0`),
  );
}

/** Accounts whose kept balance differs from the sum of their postings. */
export async function findDriftedAccounts(db: Executor) {
  return rowsOf(
    await db.execute(sql`
      SELECT a.id, a.kind, a.balance_cents::text AS balance, coalesce(sum(p.amount_cents), 0)::text AS postings
      FROM ledger_accounts a LEFT JOIN ledger_postings p ON p.account_id = a.id
      GROUP BY a.id HAVING a.balance_cents <> coalesce(sum(p.amount_cents), 0)`),
  );
}

/** User accounts below zero (other than debt) or debt above zero; the CHECK constraints make these impossible. */
export async function findNegativeUserAccounts(db: Executor) {
  return rowsOf(
    await db.execute(sql`
      SELECT id, kind, balance_cents::text AS balance FROM ledger_accounts
      WHERE owner_user_id IS NOT NULL AND ((kind <> 'debt' AND balance_cents < 0) OR (kind = 'debt' AND balance_cents > 0))`),
  );
}

/** Every user's kept balance of one kind that is not zero. */
export async function nonZeroUserBalances(db: Executor, kind: string) {
  return db
    .select({ userId: ledgerAccounts.ownerUserId, balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.kind, kind),
        sql`${ledgerAccounts.ownerUserId} IS NOT NULL`,
        sql`${ledgerAccounts.balanceCents} <> 0`,
      ),
    );
}

export async function platformBalance(db: Executor, kind: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balanceCents}), 0)::text` })
    .from(ledgerAccounts)
    .where(and(isNull(ledgerAccounts.ownerUserId), eq(ledgerAccounts.kind, kind)));
  return Number(row?.total ?? 0);
}

export async function sumOfAllBalances(db: Executor): Promise<number> {
  const [row] = rowsOf(await db.execute(sql`SELECT coalesce(sum(balance_cents), 0)::text AS total FROM ledger_accounts`));
  return Number(row?.total ?? 0);
}
