import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { outboxBodyOf, type Mail } from './mailer.ts';
import { maskRecipient } from './messaging.jobs.ts';
import * as repo from './outbox.repository.ts';
import { smsBody } from './sms-encoding.ts';
import type { LiveEventBody } from '@tipcard/shared/live/schemas';
import type { NoticeBody, Notices } from '@tipcard/shared/notices/schemas';
import type { PushSubscriptionInput, PushSubscriptionView } from '@tipcard/shared/push/schemas';
import type { VapidConfig } from '../../config.ts';
import { findUserById, requireOwnClient } from '../users/users.service.ts';
import { insertLiveEvents } from './live-events.repository.ts';
import { pushNoticeOf } from './push-notice.ts';
import * as noticesRepo from './notices.repository.ts';
import * as pushRepo from './push-subscriptions.repository.ts';
import { pushRecipient } from './push-sender.ts';

export { createLiveHub, type LiveHub, type LiveStream } from './live-hub.ts';
export type { PushSender } from './push-sender.ts';

export type MessagingService = ReturnType<typeof createMessagingService>;

/**
 * The transactional outbox (DESIGN "Jobs and messages"). A message is a row written in the caller's transaction,
 * the one of the event that causes it, so the two commit or roll back together and no request waits on a provider;
 * the `messages.deliver` job sends it.
 */
export function createMessagingService({ db, clock }: { db: Database; clock: Clock }) {
  return {
    async enqueueSms(tx: Executor, sms: { to: string; body: string }): Promise<void> {
      await enqueueSmsAt(tx, sms, clock.now());
    },

    async enqueueEmail(tx: Executor, mail: Mail): Promise<void> {
      await repo.insertOutboxMessage(tx, {
        channel: 'email',
        recipient: mail.to,
        subject: mail.subject,
        replyTo: mail.replyTo,
        body: mail.text,
        dueAt: clock.now(),
      });
    },

    /** `GET /api/dev/outbox`: every message as a developer reads it, an e-mail with its headers on top. */
    async devOutbox(filter: { to?: string | undefined; limit: number }) {
      const messages = await repo.listOutboxMessages(db, { recipient: filter.to, limit: filter.limit });
      return messages.map((m) => ({
        channel: m.channel,
        to: m.recipient,
        body:
          m.subject === null
            ? m.body
            : outboxBodyOf({ to: m.recipient, subject: m.subject, text: m.body, replyTo: m.replyTo ?? undefined }),
        created_at: m.createdAt.toISOString(),
      }));
    },

    /**
     * The dead messages an operator looks at before retrying them (`npm run ops:messages -- list`): what failed and
     * when, never the text (sign-in codes) nor the whole recipient.
     */
    async listDead(limit: number) {
      return (await repo.listDeadMessages(db, limit)).map((m) => ({
        id: m.id,
        channel: m.channel,
        recipient: maskRecipient(m.channel, m.recipient),
        attempts: m.attempts,
        createdAt: m.createdAt,
        lastError: m.lastError,
      }));
    },

    /** Sends dead messages again with a fresh round of tries (`ops:messages -- retry`); answers the ids revived. */
    async retryDead(ids: readonly string[] | 'all'): Promise<string[]> {
      return repo.reviveDeadMessages(db, ids, clock.now());
    },
  };
}

/**
 * A text queued in the caller's transaction by work that runs on the clock it is given rather than a service's: the
 * bank's answer to a payout, applied by a job, the back office or the command line.
 */
export async function enqueueSmsAt(tx: Executor, sms: { to: string; body: string }, now: Date): Promise<void> {
  await repo.insertOutboxMessage(tx, { channel: 'sms', recipient: sms.to, body: smsBody(sms.body), dueAt: now });
}

/** How many messages are in each delivery state, dead ones among them (back office's ledger health). */
export const countMessagesByStatus = repo.countByStatus;
export const countDeadMessages = repo.countDead;

/** Messages since a moment that name this text (a payment's reference): what was sent about it, for the back office. */
export const listMessagesMentioning = repo.listMessagesMentioning;

export const outboxBacklog = repo.backlog;

/** Erasure of a deleted account: the texts sent to its phone (codes, notices) go with the number. */
export async function eraseMessagesTo(tx: Executor, recipient: string): Promise<void> {
  await repo.deleteMessagesTo(tx, recipient);
}

/**
 * A live event for the user's open apps (decision 0041), written in the caller's transaction, the money movement's,
 * and announced to every instance when it commits; a rolled-back movement announces nothing. The same event is the
 * source of the push notices to the user's subscribed devices (decision 0046): one outbox message per device, in the
 * same transaction, so a closed app is told exactly what an open one is.
 */
export async function announce(tx: Executor, userId: string, body: LiveEventBody, now: Date): Promise<void> {
  await announceMany(tx, [{ userId, body }], now);
}

/**
 * Many live events at once (a batch of payments credited, decision 0060), as `announce` writes each, in as few
 * statements: the events in one, the users' devices read once for all, and the push notices of those who have any.
 */
export async function announceMany(
  tx: Executor,
  events: readonly { userId: string; body: LiveEventBody }[],
  now: Date,
): Promise<void> {
  if (events.length === 0) return;
  await insertLiveEvents(tx, events, now);
  const devicesOf = new Map<string, pushRepo.PushSubscriptionRow[]>();
  for (const device of await pushRepo.listSubscriptionsOfUsers(tx, [...new Set(events.map((event) => event.userId))])) {
    devicesOf.set(device.userId, [...(devicesOf.get(device.userId) ?? []), device]);
  }
  if (devicesOf.size === 0) return;
  const languageOf = new Map<string, Awaited<ReturnType<typeof findUserById>>>();
  for (const { userId, body } of events) {
    const devices = devicesOf.get(userId);
    if (!devices) continue;
    if (!languageOf.has(userId)) languageOf.set(userId, await findUserById(tx, userId));
    const user = languageOf.get(userId);
    const notice = user && pushNoticeOf(body, user.language);
    if (!notice) continue;
    for (const device of devices) {
      const recipient = pushRecipient(userId, device.id);
      await repo.insertOutboxMessage(tx, { channel: 'push', recipient, body: JSON.stringify(notice), dueAt: now });
    }
  }
}

/**
 * Erasure of a deleted account: its devices are told nothing more, and the notices written for them (amounts and the
 * payers' names) go, those to devices removed earlier too: their recipient names the user.
 */
export async function erasePushSubscriptions(tx: Executor, userId: string): Promise<void> {
  await repo.deletePushMessagesOfUser(tx, userId);
  await pushRepo.deleteUserSubscriptions(tx, userId);
}

/**
 * An in-app notice for the user (issue 29), in the caller's transaction, the decision's: stored until the user reads
 * it, and announced as a live event (with its push notices), so an open app shows it at once and a reload still does.
 */
export async function notifyUser(tx: Executor, userId: string, body: NoticeBody, now: Date): Promise<void> {
  const row = await noticesRepo.insertNotice(tx, userId, body, now);
  await announce(tx, userId, { type: 'notice', notice_id: row.id, notice: body }, now);
}

/** Erasure of a deleted account: its notices name its teams and workplaces. */
export const eraseNotices = noticesRepo.deleteNoticesOf;

/** How many of the user's latest notices the app lists; older ones stay stored but are not shown. */
const NOTICES_SHOWN = 50;

export type NoticesService = ReturnType<typeof createNoticesService>;

/** The signed-in user's in-app notices on a client they own (404 otherwise): the list, and marking them read. */
export function createNoticesService({ db, clock }: { db: Database; clock: Clock }) {
  async function noticesOf(userId: string): Promise<Notices> {
    const rows = await noticesRepo.listNotices(db, userId, NOTICES_SHOWN);
    return {
      unread: await noticesRepo.countUnread(db, userId),
      notices: rows.map((row) => ({
        ...(row.body as NoticeBody),
        id: row.id,
        created_at: row.createdAt.toISOString(),
        read_at: row.readAt?.toISOString() ?? null,
      })),
    };
  }

  return {
    async list(userId: string, clientId: string): Promise<Notices> {
      await requireOwnClient(db, userId, clientId);
      return noticesOf(userId);
    },

    /** Marks one notice read; another user's notice is a 404. Reading one twice keeps the first time. */
    async markRead(userId: string, clientId: string, noticeId: string): Promise<Notices> {
      await requireOwnClient(db, userId, clientId);
      if (!(await noticesRepo.markRead(db, userId, noticeId, clock.now()))) throw new AppError('not_found');
      return noticesOf(userId);
    },

    async markAllRead(userId: string, clientId: string): Promise<Notices> {
      await requireOwnClient(db, userId, clientId);
      await noticesRepo.markAllRead(db, userId, clock.now());
      return noticesOf(userId);
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;

const viewOf = (row: pushRepo.PushSubscriptionRow): PushSubscriptionView => ({
  id: row.id,
  user_agent: row.userAgent,
  created_at: row.createdAt.toISOString(),
  last_success_at: row.lastSuccessAt?.toISOString() ?? null,
});

/**
 * Web Push subscriptions (decision 0046): a browser opts in from Settings, on a client the user owns (404 otherwise).
 * Without VAPID keys (production without VAPID_*) there is no push and app.ts registers none of its routes.
 */
export function createPushService({ db, clock, vapid }: { db: Database; clock: Clock; vapid: VapidConfig | undefined }) {
  return {
    /** The key browsers subscribe with; undefined when push is off. */
    publicKey: vapid?.publicKey,

    async subscribe(userId: string, clientId: string, input: PushSubscriptionInput): Promise<PushSubscriptionView> {
      await requireOwnClient(db, userId, clientId);
      const row = await pushRepo.upsertSubscription(db, {
        userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        userAgent: input.user_agent ?? null,
        createdAt: clock.now(),
      });
      return viewOf(row);
    },

    /** Answers whether this device was subscribed for the user; unsubscribing twice is not an error. */
    async unsubscribe(userId: string, clientId: string, endpoint: string): Promise<boolean> {
      await requireOwnClient(db, userId, clientId);
      return pushRepo.deleteUserSubscription(db, userId, endpoint);
    },

    async list(userId: string, clientId: string): Promise<PushSubscriptionView[]> {
      await requireOwnClient(db, userId, clientId);
      return (await pushRepo.listUserSubscriptions(db, userId)).map(viewOf);
    },
  };
}
