import type { Locale } from '@tipcard/shared/constants';
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { files } from './files.ts';
import { users } from './users.ts';

/**
 * Identity verification requests (spec 3 "Verification forms"): the latest row of a user is their status; a rejected
 * user submits a new row. Documents are rows of `files`; an operator reviews until the back office exists.
 */
export const verifications = pgTable(
  'verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: ['person', 'company'] }).notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] }).notNull(),
    /** The form's fields other than documents, as submitted (names, birthday, codes, address or bank details). */
    details: jsonb('details').$type<Record<string, string>>().notNull(),
    documentFrontFileId: uuid('document_front_file_id').references(() => files.id),
    documentBackFileId: uuid('document_back_file_id').references(() => files.id),
    registrationDocumentFileId: uuid('registration_document_file_id').references(() => files.id),
    rejectionReason: text('rejection_reason'),
    /** The language the request was sent in: the SMS that ends the review speaks it. */
    locale: text('locale').$type<Locale>().notNull().default('en'),
    createdAt: createdAt(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    index('verifications_user_created_idx').on(t.userId, t.createdAt),
    // At most one pending or approved request per user: two submissions racing cannot both be stored.
    uniqueIndex('verifications_one_open_per_user_key')
      .on(t.userId)
      .where(sql`${t.status} IN ('pending', 'approved')`),
  ],
);
