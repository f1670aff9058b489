import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { files } from './files.ts';
import { clients } from './users.ts';

export const cards = pgTable(
  'cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
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
    /** The owner's own preset amounts in cents, ascending; null offers the activity's (`presetsOfCard`). */
    presetAmountsCents: integer('preset_amounts_cents').array(),
    /** What the guest reads after paying (success page, receipt); null: no thank-you (decision 0047). */
    thankYouText: text('thank_you_text'),
    thankYouPhotoFileId: uuid('thank_you_photo_file_id').references(() => files.id),
    /** Running sum and count of guests' 1–5 star ratings; the card shows their average. */
    ratingSum: integer('rating_sum').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('cards_client_idx').on(t.clientId),
    uniqueIndex('cards_one_private_per_client_key')
      .on(t.clientId)
      .where(sql`${t.isPrivate}`),
  ],
);
