import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DEFAULT_LOCALE, LOCALES } from '@tipcard/shared/constants';
import { createdAt } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phone: text('phone').notNull().unique(),
    referralCode: text('referral_code').notNull().unique(),
    referredByUserId: uuid('referred_by_user_id'),
    promoSource: text('promo_source'),
    /** Set by a compliance operator (back office): a blocked user cannot sign in nor withdraw. */
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    blockedReason: text('blocked_reason'),
    createdAt: createdAt(),
    /** Settings: an SMS when support answers a ticket (sign-in and withdrawal codes are always sent). */
    smsSupportReplies: boolean('sms_support_replies').notNull().default(true),
    /** Settings: an SMS when a withdrawal is paid or returned by the bank (the payout's code is always sent). */
    smsPayouts: boolean('sms_payouts').notNull().default(true),
    /** Settings: an SMS when a payment the user received is refunded to its payer (docs/decisions/0042). */
    smsRefunds: boolean('sms_refunds').notNull().default(true),
    /**
     * The language of every text, e-mail and PDF the user is sent without asking (docs/decisions/0032): the app's
     * language at sign-up, then the one of each sign-in and refresh, or the one chosen in Settings. Accounts older than
     * the column get the product's default language.
     */
    language: text('language', { enum: LOCALES }).notNull().default(DEFAULT_LOCALE),
    /**
     * Raised whenever every session must end (deletion, erasure): an access token carries the value it was issued
     * under and the auth plugin refuses any other, so a token still inside its 15 minutes opens nothing.
     */
    sessionVersion: integer('session_version').notNull().default(0),
    /** The user's deletion statement (DESIGN "Account deletion"): signed out, cards off, restorable until `erasureDueAt`. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** When the erasure job takes the deleted account; moved on while money is still on it. */
    erasureDueAt: timestamp('erasure_due_at', { withTimezone: true }),
    /** Personal data erased, the phone replaced by a pseudonym; what the law keeps stays under the user's id. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
    /** Five years after the erasure, the records the law kept are purged too (docs/decisions/0013 "Purge"). */
    purgedAt: timestamp('purged_at', { withTimezone: true }),
  },
  (t) => [
    index('users_erasure_due_idx').on(t.erasureDueAt),
    index('users_purge_due_idx')
      .on(t.erasedAt)
      .where(sql`${t.purgedAt} IS NULL`),
  ],
);

export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: ['private'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('clients_user_type_key').on(t.userId, t.type)],
);
