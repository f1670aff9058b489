import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/**
 * The transactional outbox (DESIGN "Jobs and messages"): every SMS and e-mail, written in the transaction of the
 * event that causes it and sent by the `messages.deliver` job. Outside production it is also the dev outbox.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['sms', 'email'] }).notNull(),
    recipient: text('recipient').notNull(),
    /** E-mail only; an SMS is all body. */
    subject: text('subject'),
    replyTo: text('reply_to'),
    body: text('body').notNull(),
    /** sending: claimed by a worker until due_at (its lease); a worker that dies leaves it to be claimed again. */
    status: text('status', { enum: ['pending', 'sending', 'sent', 'dead'] })
      .notNull()
      .default('pending'),
    /** Tries begun, counted when claimed, so a worker dying mid-send uses one up too. */
    attempts: integer('attempts').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the try that got through began. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The provider's answer to the last failed try, with the body and the recipient taken out. */
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('outbox_messages_created_idx').on(t.createdAt),
    index('outbox_messages_due_idx')
      .on(t.dueAt)
      .where(sql`${t.status} IN ('pending', 'sending')`),
    // The back office's menu counts the dead ones every minute; the index keeps that off the whole outbox.
    index('outbox_messages_dead_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'dead'`),
  ],
);
