import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ledgerAccounts, ledgerEntries, ledgerPostings } from '../../db/schema/ledger.ts';

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (result as { rows: Row[] }).rows;

export interface AccountKey {
  ownerUserId: string | null;
  kind: string;
}

const matches = (key: AccountKey): SQL =>
  and(key.ownerUserId ? eq(ledgerAccounts.ownerUserId, key.ownerUserId) : isNull(ledgerAccounts.ownerUserId), eq(ledgerAccounts.kind, key.kind))!;

/**
 * Records the entry and its postings in one statement; answers false, writing nothing, when an entry with this
 * reference exists (the movement already happened).
 */
export async function insertEntryWithPostings(
  tx: Executor,
  entry: { kind: string; reference: string },
  postings: { accountId: number; amountCents: number }[],
): Promise<boolean> {
  const legs = sql.join(
    postings.map((posting) => sql`(${posting.accountId}::bigint, ${posting.amountCents}::bigint)`),
    sql`, `,
  );
  const result = await tx.execute(sql`
    WITH entry AS (
      INSERT INTO ${ledgerEntries} (kind, reference) VALUES (${entry.kind}, ${entry.reference})
      ON CONFLICT (reference) DO NOTHING RETURNING id
    )
    INSERT INTO ${ledgerPostings} (entry_id, account_id, amount_cents)
    SELECT entry.id, legs.account_id, legs.amount FROM entry, (VALUES ${legs}) AS legs(account_id, amount)
    RETURNING entry_id`);
  return rowsOf(result).length > 0;
}

const selectAccounts = (tx: Executor, keys: AccountKey[]) =>
  tx
    .select({ id: ledgerAccounts.id, ownerUserId: ledgerAccounts.ownerUserId, kind: ledgerAccounts.kind, balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(or(...keys.map(matches)))
    .orderBy(ledgerAccounts.id)
    .for('update');

/**
 * Locks the accounts in ascending id order, so concurrent entries cannot deadlock, creating the missing ones first.
 * Accounts are never deleted, so the usual case is one statement.
 */
export async function lockAccounts(tx: Executor, keys: AccountKey[]) {
  const rows = await selectAccounts(tx, keys);
  if (rows.length === keys.length) return rows;
  await tx
    .insert(ledgerAccounts)
    .values(keys.map((key) => ({ ownerUserId: key.ownerUserId, kind: key.kind })))
    .onConflictDoNothing();
  return selectAccounts(tx, keys);
}

/** Applies every delta of an entry in one statement; the rows are already locked. */
export async function addToBalances(tx: Executor, deltas: { accountId: number; amountCents: number }[]) {
  const values = sql.join(
    deltas.map((delta) => sql`(${delta.accountId}::bigint, ${delta.amountCents}::bigint)`),
    sql`, `,
  );
  await tx.execute(sql`
    UPDATE ledger_accounts SET balance_cents = ledger_accounts.balance_cents + deltas.amount
    FROM (VALUES ${values}) AS deltas(id, amount) WHERE ledger_accounts.id = deltas.id`);
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
    .where(and(eq(ledgerAccounts.kind, kind), sql`${ledgerAccounts.ownerUserId} IS NOT NULL`, sql`${ledgerAccounts.balanceCents} <> 0`));
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
