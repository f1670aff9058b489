import type { Database, Executor } from '../../db/client.ts';
import { PLATFORM_ACCOUNT_KINDS, type PlatformAccountKind } from '../../db/schema/ledger.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './ledger.repository.ts';

/** A user's accounts: money they can withdraw, money on hold, and what a chargeback after payout left them owing. */
export type UserAccountKind = 'main' | 'hold' | 'debt';
export type { PlatformAccountKind };

export type AccountRef = { userId: string; kind: UserAccountKind } | { platform: PlatformAccountKind };

export interface Posting {
  account: AccountRef;
  /** Signed cents: positive raises the account's balance, negative lowers it. */
  amountCents: number;
}

export interface Entry {
  /** What happened, e.g. `tip_received`. */
  kind: string;
  /** One business event, one reference: posting the same reference again changes nothing. */
  reference: string;
  postings: Posting[];
}

/** A user's own account (platform accounts are sharded and never locked as one row: see `postEntry`). */
export type UserAccountRef = Extract<AccountRef, { userId: string }>;

/**
 * How many rows keep each platform account's balance. Every payment touches psp_clearing and fees; with one row each,
 * all payments would queue on its lock. An entry takes any shard no other transaction holds.
 */
const PLATFORM_SHARDS = 32;

const keyString = (account: AccountRef) =>
  'platform' in account ? `platform:${account.platform}` : `${account.userId}:${account.kind}`;
const userKey = (account: UserAccountRef): repo.UserAccountKey => ({ ownerUserId: account.userId, kind: account.kind });

function isCheckViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if ((current as { code?: unknown }).code === '23514') return true;
  }
  return false;
}

/** An entry's postings merged per account (zero legs dropped), checked: non-zero integer cents, balanced, two legs. */
function legsOf(entry: Entry): { account: AccountRef; amountCents: number }[] {
  const totals = new Map<string, { account: AccountRef; amountCents: number }>();
  for (const posting of entry.postings) {
    if (!Number.isSafeInteger(posting.amountCents) || posting.amountCents === 0) {
      throw new Error(`Ledger posting must be non-zero integer cents, got ${posting.amountCents} in ${entry.reference}`);
    }
    const key = keyString(posting.account);
    totals.set(key, { account: posting.account, amountCents: (totals.get(key)?.amountCents ?? 0) + posting.amountCents });
  }
  const legs = [...totals.values()].filter((leg) => leg.amountCents !== 0);
  if (legs.length < 2 || legs.reduce((sum, leg) => sum + leg.amountCents, 0) !== 0) {
    throw new Error(`Ledger entry ${entry.reference} does not balance`);
  }
  return legs;
}

/**
 * The only way money moves: one balanced entry, applied inside the caller's transaction in two statements (take the
 * accounts, then record and move). A user balance that would go below zero aborts the whole transaction
 * ('Insufficient balance').
 * Answers whether the entry was applied now (false: its reference was already posted).
 */
export async function postEntry(tx: Executor, entry: Entry): Promise<{ applied: boolean }> {
  const [applied] = await postEntries(tx, [entry]);
  return { applied: applied! };
}

/**
 * Many balanced entries at once (a batch of payments credited, decision 0060), in the same two statements as one:
 * every account of all of them taken once (users' in ascending id order, one shard per platform kind, the one this
 * transaction holds if any), then all entries, postings and balance moves written together. Each entry is idempotent
 * by its reference as `postEntry` is: one already posted changes nothing. A user balance below zero where all of them
 * leave it aborts the transaction ('Insufficient balance'); the balance is checked once, after all of them, so a caller
 * whose entries both take from and give to one user account posts them one by one. Answers, per entry, whether it was
 * applied now. References must differ.
 */
export async function postEntries(tx: Executor, entries: readonly Entry[]): Promise<boolean[]> {
  if (entries.length === 0) return [];
  if (new Set(entries.map((entry) => entry.reference)).size !== entries.length) {
    throw new Error('Ledger entries posted together must have different references');
  }
  const legsPerEntry = entries.map(legsOf);
  const users = new Map<string, UserAccountRef>();
  const platformKinds = new Set<PlatformAccountKind>();
  for (const leg of legsPerEntry.flat()) {
    if ('userId' in leg.account) users.set(keyString(leg.account), leg.account);
    else platformKinds.add(leg.account.platform);
  }
  const taken = await repo.takeAccounts(tx, [...users.values()].map(userKey), [...platformKinds].sort(), PLATFORM_SHARDS);
  const idOf = new Map<string, number>([
    ...taken.users.map((row) => [`${row.ownerUserId}:${row.kind}`, row.id] as const),
    ...[...taken.shards].map(([kind, id]) => [`platform:${kind}`, id] as const),
  ]);
  const postings = legsPerEntry.flatMap((legs, index) =>
    legs.map((leg) => ({ entry: index, accountId: idOf.get(keyString(leg.account))!, amountCents: leg.amountCents })),
  );
  try {
    const applied = await repo.insertEntriesAndMoveBalances(tx, entries, postings);
    return entries.map((_, index) => applied.has(index));
  } catch (error) {
    if (isCheckViolation(error)) throw new AppError('insufficient_balance');
    throw error;
  }
}

/**
 * Locks a user's accounts an entry is about to touch, in ascending id order, and answers their balances, for a caller
 * whose postings depend on them (a reversal taking what is left, a withdrawal checked against main and debt). The
 * platform side needs no lock: its shards are taken by `postEntry` without waiting.
 */
export async function lockBalances(tx: Executor, accounts: UserAccountRef[]): Promise<(account: UserAccountRef) => number> {
  const { users } = await repo.takeAccounts(tx, accounts.map(userKey), [], PLATFORM_SHARDS);
  const balances = new Map(users.map((row) => [`${row.ownerUserId}:${row.kind}`, row.balanceCents]));
  return (account) => balances.get(keyString(account)) ?? 0;
}

/**
 * The id of the newest posting on a user's account (0 before any): an entry that moves "the balance as it is now" is
 * named by it, so the same state moves once and a later state is a new entry.
 */
export function lastPostingOf(tx: Executor, account: UserAccountRef): Promise<number> {
  return repo.lastPostingId(tx, account.userId, account.kind);
}

/** The user's balances by kind, in cents (0 for an account that does not exist yet). */
export async function userBalances(db: Executor, userId: string): Promise<Record<UserAccountKind, number>> {
  const rows = await repo.listBalances(db, userId);
  const balance = (kind: UserAccountKind) => rows.find((row) => row.kind === kind)?.balanceCents ?? 0;
  return { main: balance('main'), hold: balance('hold'), debt: balance('debt') };
}

/** A platform account's balance in cents (e.g. what card sales or referral rewards amount to). */
export function platformBalance(db: Executor, kind: PlatformAccountKind): Promise<number> {
  return repo.platformBalance(db, kind);
}

/** Every user's non-zero balance of one kind, by user (a read model checks what it shows against these). */
export async function userBalancesOfKind(db: Executor, kind: UserAccountKind): Promise<Map<string, number>> {
  const rows = await repo.nonZeroUserBalances(db, kind);
  return new Map(rows.map((row) => [row.userId!, row.balanceCents]));
}

/**
 * The ledger's own invariants, as a list of problems (empty when the books are right): each entry balances, each kept
 * balance equals its postings, all balances sum to zero, no user account below zero except debt. Whether the read
 * models agree with it is theirs to check: the whole check is `checkLedgerInvariants` (transactions.service.ts).
 */
export async function checkLedger(db: Executor): Promise<string[]> {
  const [unbalanced, drifted, negative, total] = await Promise.all([
    repo.findUnbalancedEntries(db),
    repo.findDriftedAccounts(db),
    repo.findNegativeUserAccounts(db),
    repo.sumOfAllBalances(db),
  ]);
  return [
    ...unbalanced.map((row) => `entry ${row.reference} has ${row.postings} postings summing to ${row.total}`),
    ...drifted.map((row) => `account ${row.id} (${row.kind}) keeps ${row.balance} but its postings sum to ${row.postings}`),
    ...negative.map((row) => `user account ${row.id} (${row.kind}) is at ${row.balance}`),
    ...(total === 0 ? [] : [`all balances sum to ${total}, not 0`]),
  ];
}

/** The platform accounts' kept balances by kind (back office's ledger health). */
export async function platformBalances(db: Executor): Promise<Record<PlatformAccountKind, number>> {
  const values = await Promise.all(PLATFORM_ACCOUNT_KINDS.map((kind) => repo.platformBalance(db, kind)));
  return Object.fromEntries(PLATFORM_ACCOUNT_KINDS.map((kind, index) => [kind, values[index]!])) as Record<
    PlatformAccountKind,
    number
  >;
}

/**
 * The kinds that can still move once their owner is erased: main (a withdrawal the bank returns) and debt (a refund or
 * a lost dispute of a payment received before the deletion). Hold cannot: a deletion waits for it to be released.
 */
const CLOSING_KINDS: UserAccountKind[] = ['main', 'debt'];

/**
 * Closes an erased user's accounts and settles them in the caller's transaction: what main holds is kept for the
 * owner in `unclaimed_funds`, what debt owes is written off (docs/decisions/0028). Later movements onto a closed
 * account are settled by `settleClosedAccount` (the job `ledger.settle-closed`).
 */
export async function closeUserAccounts(tx: Executor, userId: string, now: Date): Promise<void> {
  await repo.closeAccountsOf(tx, userId, CLOSING_KINDS, now);
  await repayDebt(tx, userId);
  while (await settleClosedAccount(tx, userId));
}

/**
 * A debt (a refund or chargeback after the money was withdrawn) is repaid from main as soon as main holds money:
 * otherwise that money could be neither withdrawn (payouts refuse while a debt is open) nor closed out (a deletion
 * refuses a debt). The entry is named by the debt's last posting, so repaying the same state twice moves nothing.
 * Answers whether anything was repaid.
 */
export async function repayDebt(tx: Executor, userId: string): Promise<boolean> {
  const main: UserAccountRef = { userId, kind: 'main' };
  const debt: UserAccountRef = { userId, kind: 'debt' };
  const balanceOf = await lockBalances(tx, [main, debt]);
  const repaid = Math.min(balanceOf(main), -balanceOf(debt));
  if (repaid <= 0) return false;
  const { applied } = await postEntry(tx, {
    kind: 'debt_repaid',
    reference: `debt-repaid:${userId}:${await lastPostingOf(tx, debt)}`,
    postings: [
      { account: main, amountCents: -repaid },
      { account: debt, amountCents: repaid },
    ],
  });
  return applied;
}

/** The job's item: one user's open debt repaid from main (see `repayDebt`). */
export async function repayOneDebt(db: Database): Promise<boolean> {
  const userId = await repo.findDebtorWithMain(db);
  return userId !== null && (await db.transaction((tx) => repayDebt(tx, userId)));
}

/**
 * One closed account found holding money (of `userId`, or of anyone) is brought to zero against `unclaimed_funds` or
 * `written_off`; the entry is named by the account's last posting, so settling the same state twice moves nothing.
 * Answers whether there was one.
 */
export async function settleClosedAccount(tx: Executor, userId: string | null = null): Promise<boolean> {
  const claimed = await repo.claimUnsettledClosedAccount(tx, userId);
  if (!claimed) return false;
  const account: UserAccountRef = { userId: claimed.ownerUserId, kind: claimed.kind as UserAccountKind };
  const owed = claimed.balanceCents > 0;
  await postEntry(tx, {
    kind: owed ? 'closed_account_unclaimed' : 'closed_account_written_off',
    reference: `closed:${account.userId}:${account.kind}:${await lastPostingOf(tx, account)}`,
    postings: [
      { account, amountCents: -claimed.balanceCents },
      { account: { platform: owed ? 'unclaimed_funds' : 'written_off' }, amountCents: claimed.balanceCents },
    ],
  });
  return true;
}
