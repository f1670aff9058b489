import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { files } from './files.ts';
import { users } from './users.ts';

/**
 * Support tickets (spec 3 "Ticket", DESIGN "Support"): a conversation between a user and the operators. Status
 * `waiting_for_user` after an operator's reply (the side bar's badge counts it), `open` after the user's, `closed`
 * by an operator. A message from the contact page is a ticket too, of a visitor with no account: it has the
 * visitor's name, e-mail and language instead of a user, and the operators' replies go to that e-mail.
 */
export const supportTickets = pgTable(
  'support_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id),
    contactName: text('contact_name'),
    contactEmail: text('contact_email'),
    contactLanguage: text('contact_language'),
    title: text('title').notNull(),
    status: text('status', { enum: ['open', 'waiting_for_user', 'closed'] }).notNull(),
    createdAt: createdAt(),
    /** The ticket's last activity (any message or attachment): the list's "last updated" and its order. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('support_tickets_user_updated_idx').on(t.userId, t.updatedAt),
    check(
      'support_tickets_user_or_contact',
      sql`(${t.userId} is not null) <> (${t.contactEmail} is not null and ${t.contactName} is not null and ${t.contactLanguage} is not null)`,
    ),
  ],
);

export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id),
    author: text('author', { enum: ['user', 'operator'] }).notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The order of the conversation: rows of one ticket are written under its lock, so this is the order they happened in. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [index('support_messages_ticket_idx').on(t.ticketId, t.seq)],
);

/** A file attached to a ticket; the bytes are a row of `files` (typed by content, images re-encoded). */
export const supportAttachments = pgTable(
  'support_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id),
    author: text('author', { enum: ['user', 'operator'] }).notNull(),
    /** The name the user gave, cleaned for display and for the download's file name. */
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [index('support_attachments_ticket_idx').on(t.ticketId, t.seq)],
);
