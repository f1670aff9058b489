import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  unique,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  phone: text('phone').notNull().unique(),
  referralCode: text('referral_code').notNull().unique(),
  referredByUserId: uuid('referred_by_user_id'),
  promoSource: text('promo_source'),
  createdAt: createdAt(),
});

export const clients = pgTable(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id),
    type: text('type', { enum: ['private'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('clients_user_type_key').on(t.userId, t.type)],
);

/** A sign-up waiting for its SMS code; the user exists only once the code is verified. */
export const registrations = pgTable('registrations', {
  id: uuid('id').primaryKey().defaultRandom(),
  phone: text('phone').notNull(),
  referralCode: text('referral_code'),
  promoSource: text('promo_source'),
  userId: uuid('user_id').references(() => users.id),
  createdAt: createdAt(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
});

export const otpCodes = pgTable(
  'otp_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    phone: text('phone').notNull(),
    purpose: text('purpose', { enum: ['login', 'register'] }).notNull(),
    registrationId: uuid('registration_id').references(() => registrations.id),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('otp_codes_phone_created_idx').on(t.phone, t.createdAt)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** Absolute end of the family: rotation never extends it. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
);

export const files = pgTable('files', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerUserId: uuid('owner_user_id').notNull().references(() => users.id),
  mime: text('mime').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  content: bytea('content').notNull(),
  createdAt: createdAt(),
});

export const cards = pgTable(
  'cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id').notNull().references(() => clients.id),
    title: text('title').notNull(),
    publicName: text('public_name').notNull(),
    welcomePhrase: text('welcome_phrase'),
    publicText: text('public_text'),
    activityType: text('activity_type').notNull(),
    country: text('country').notNull(),
    instagram: text('instagram'),
    facebook: text('facebook'),
    tiktok: text('tiktok'),
    isPrivate: boolean('is_private').notNull(),
    photoFileId: uuid('photo_file_id').references(() => files.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cards_client_idx').on(t.clientId),
    uniqueIndex('cards_one_private_per_client_key').on(t.clientId).where(sql`${t.isPrivate}`),
  ],
);

/** Balances per owner and kind (DESIGN "Money and the ledger"); user accounts can never go below zero. */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    ownerUserId: uuid('owner_user_id').references(() => users.id),
    kind: text('kind').notNull(),
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull().default('EUR'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('ledger_accounts_owner_kind_key').on(t.ownerUserId, t.kind).nullsNotDistinct(),
    check('ledger_accounts_user_balance_non_negative', sql`${t.ownerUserId} IS NULL OR ${t.balanceCents} >= 0`),
  ],
);

/** Every SMS and e-mail outside production (the dev outbox, DESIGN "Configuration and modes"). */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    recipient: text('recipient').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_messages_created_idx').on(t.createdAt)],
);
