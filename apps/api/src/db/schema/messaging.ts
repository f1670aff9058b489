import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/**
 * The transactional outbox (DESIGN "Jobs and messages"): every SMS, e-mail and push notice (its recipient
 * `<user id>:<push subscription id>`), written in the transaction of the event that causes it and sent by the `messages.deliver` job.
 * Outside production it is also the dev outbox.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['sms', 'email', 'push'] }).notNull(),
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

/**
 * Live events (decision 0041): what an open app of the user is told at once, a credit or a payout's new state, written
 * in the transaction of the money movement like a message, and announced on commit with `NOTIFY live_events`. Numbered
 * per user by `live_event_heads`, whose row the writer holds locked until commit, so a user's events commit in the
 * order of their numbers and a stream resuming after number n misses none. Kept a day for resuming streams, then pruned.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    userId: uuid('user_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** The event as the stream sends it (`liveEventBodySchema` in @tipcard/shared/live/schemas). */
    body: jsonb('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.seq] }), index('live_events_created_idx').on(t.createdAt)],
);

/** The last number given to each user's live events; its row lock orders a user's events by commit. */
export const liveEventHeads = pgTable('live_event_heads', {
  userId: uuid('user_id').primaryKey(),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
});

/**
 * Web Push subscriptions (decision 0046): one per browser that opted in from Settings, found again by its endpoint
 * (the push service's URL for that browser, unique). The keys encrypt each payload for that browser alone (RFC 8291).
 * A push service's 404 or 410 deletes the row; so does turning notices off on the device or signing out there.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    endpoint: text('endpoint').notNull().unique(),
    /** The browser's P-256 public key and auth secret, base64url, as `PushSubscription.toJSON()` gives them. */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** A short label of the device ("Chrome on Android") for the user, never the whole user-agent string. */
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  },
  (t) => [index('push_subscriptions_user_idx').on(t.userId)],
);

/**
 * A user's in-app notices (issue 29): what a team's admin decided about them, stored in the decision's transaction
 * beside its text message and its live event, and kept until the user marks it read, so a reload or another device
 * still shows it. The body is the notice as the app renders it (`noticeBodySchema` in @tipcard/shared/notices/schemas).
 */
export const userNotices = pgTable(
  'user_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    body: jsonb('body').notNull(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [index('user_notices_user_idx').on(t.userId, t.createdAt)],
);
