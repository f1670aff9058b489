import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, smallint, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './users.ts';

/**
 * The platform's own accounts (DESIGN "Money and the ledger"). `returns_due`: payments no one may receive (a deleted
 * recipient), until they are given back to the payer. `unclaimed_funds`: what an erased account was still owed (a
 * returned closing payout), kept for its owner; `written_off`: what an erased account still owed, borne by the
 * platform (docs/decisions/0028).
 */
export const PLATFORM_ACCOUNT_KINDS = [
  'psp_clearing',
  'fees',
  'payouts_in_flight',
  'referral_expense',
  'card_sales',
  'returns_due',
  'unclaimed_funds',
  'written_off',
] as const;
export type PlatformAccountKind = (typeof PLATFORM_ACCOUNT_KINDS)[number];

/**
 * Balances per owner and kind (DESIGN "Money and the ledger"); user accounts can never go below zero. A platform
 * account's balance is spread over shards (DESIGN "Scale-out"): its balance is the sum of its rows. An erased user's
 * accounts are closed (`closed_at`): whatever still moves onto them is settled to the platform (docs/decisions/0028).
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ownerUserId: uuid('owner_user_id').references(() => users.id),
    kind: text('kind').notNull(),
    shard: smallint('shard').notNull().default(0),
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull().default('EUR'),
    createdAt: createdAt(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    index('ledger_accounts_open_debt_idx')
      .on(t.ownerUserId)
      .where(sql`${t.kind} = 'debt' AND ${t.balanceCents} < 0`),
    index('ledger_accounts_closed_unsettled_idx')
      .on(t.id)
      .where(sql`${t.closedAt} IS NOT NULL AND ${t.balanceCents} <> 0`),
    unique('ledger_accounts_owner_kind_shard_key').on(t.ownerUserId, t.kind, t.shard).nullsNotDistinct(),
    check('ledger_accounts_user_one_shard', sql`${t.ownerUserId} IS NULL OR ${t.shard} = 0`),
    check('ledger_accounts_user_balance_non_negative', sql`${t.ownerUserId} IS NULL OR ${t.balanceCents} >= 0`),
  ],
);

/** One business event that moves money; `reference` makes every movement idempotent. Append-only. */
export const ledgerEntries = pgTable('ledger_entries', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  kind: text('kind').notNull(),
  reference: text('reference').notNull().unique(),
  createdAt: createdAt(),
});

/** The signed amounts of an entry; the postings of an entry sum to zero. Append-only. */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerEntries.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_postings_entry_idx').on(t.entryId),
    index('ledger_postings_account_idx').on(t.accountId),
    check('ledger_postings_amount_non_zero', sql`${t.amountCents} <> 0`),
  ],
);
