import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Job } from '../../jobs/job.ts';
import type { ErrorReporter } from '../../lib/error-reporting.ts';
import type { Mailer } from './mailer.ts';
import * as repo from './outbox.repository.ts';
import { pruneLiveEvents } from './live-events.repository.ts';
import { subscriptionOfRecipient, type PushSender } from './push-sender.ts';
import * as pushRepo from './push-subscriptions.repository.ts';
import type { SmsSender } from './sms-sender.ts';

/** The waits after the 1st, 2nd … failed try; after the try that follows the last wait, the message is dead. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A provider that does not answer counts as a failed try, so that one hung call cannot stall every job's tick. */
export const SEND_TIMEOUT_MS = 30_000;
/** Longer than any try can take (SEND_TIMEOUT_MS), so a live worker's claim never runs out under it. */
export const DELIVERY_LEASE_MS = 2 * 60_000;

export interface MessageDeliveryDeps {
  db: Database;
  log: FastifyBaseLogger;
  /** The configured senders; a channel without one fails its tries (and so ends dead, logged). */
  sms: SmsSender | undefined;
  mailer: Mailer | undefined;
  /** Web Push (decision 0046); none without VAPID keys. */
  push: PushSender | undefined;
  /** A dead message is an operator's business: it is reported once, when it dies. */
  errors: ErrorReporter;
}

/** Enough of the recipient for an operator to tell messages apart, never the whole number or address. */
export function maskRecipient(channel: repo.Channel, recipient: string): string {
  if (channel === 'email') return `${recipient.slice(0, 1)}•••@${recipient.split('@')[1] ?? ''}`;
  return `${recipient.slice(0, 4)}•••${recipient.slice(-2)}`;
}

/**
 * What the provider said about a failed try, without what the message said: providers echo numbers and text back,
 * so the message's own fields are cut out, and so is any run of six or more digits (a code or a phone number in
 * another format). Vendor error numbers (Twilio's are five digits) stay.
 */
function failureOf(error: unknown, message: repo.OutboxMessageRow): string {
  let text = error instanceof Error ? `${error.name}: ${error.message}` : 'the sender failed with a non-error';
  for (const secret of [message.body, message.subject, message.replyTo, message.recipient]) {
    if (secret) text = text.split(secret).join('[…]');
  }
  return text.replace(/\d(?:[\s.-]?\d){5,}/g, '[…]').slice(0, 300);
}

async function withTimeout<T>(sending: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([sending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `messages.deliver` (DESIGN "Jobs and messages"): claims one due message with a lease in a short statement, sends
 * it outside any transaction, then records the outcome. A worker killed between the claim and the record leaves a
 * lease that runs out, and the message is sent again: delivery is at least once, as every SMS and mail provider's is.
 */
export function createMessageDeliveryJob(deps: MessageDeliveryDeps): Job {
  const { db, log } = deps;

  /** Sends the message; answers a note when it was finished without reaching anyone (a device no longer subscribed). */
  async function send(message: repo.OutboxMessageRow, now: Date): Promise<string | undefined> {
    if (message.channel === 'push') return sendPush(message, now);
    if (message.channel === 'sms') {
      if (!deps.sms) throw new Error('no SMS sender is configured');
      await deps.sms.send(message.recipient, message.body);
      return undefined;
    }
    if (!deps.mailer) throw new Error('no mailer is configured');
    await deps.mailer.send({
      to: message.recipient,
      subject: message.subject ?? '',
      text: message.body,
      replyTo: message.replyTo ?? undefined,
    });
    return undefined;
  }

  async function sendPush(message: repo.OutboxMessageRow, now: Date): Promise<string | undefined> {
    if (!deps.push) throw new Error('no push sender is configured (VAPID keys)');
    // The device may have been unsubscribed since the notice was written: there is nobody left to tell.
    const device = await pushRepo.findSubscription(db, subscriptionOfRecipient(message.recipient));
    if (!device) return 'the device unsubscribed before it was sent';
    if ((await deps.push.send(device, message.body)) === 'gone') {
      await pushRepo.deleteSubscription(db, device.id);
      log.info({ messageId: message.id, subscriptionId: device.id }, 'push subscription gone at its push service: removed');
      return 'the push service no longer knows the device: its subscription was removed';
    }
    await pushRepo.markDelivered(db, device.id, now);
    return undefined;
  }

  async function giveUp(message: repo.OutboxMessageRow, lastError: string): Promise<void> {
    if (!(await repo.finishClaim(db, message, { status: 'dead', lastError }))) return;
    // Never the body: it may hold a sign-in or payout code.
    const about = { messageId: message.id, channel: message.channel, attempts: message.attempts };
    log.error(
      { ...about, to: maskRecipient(message.channel, message.recipient) },
      'message undeliverable after its last try: marked dead',
    );
    deps.errors.message('message undeliverable after its last try: marked dead', {
      tags: { source: 'messages.deliver', channel: message.channel },
      extra: { ...about, lastError },
    });
  }

  return {
    name: 'messages.deliver',
    async runOne(now) {
      const message = await repo.claimDueMessage(db, now, new Date(now.getTime() + DELIVERY_LEASE_MS));
      if (!message) return false;
      // The worker of the last allowed try died holding it: that try is spent too.
      if (message.attempts > MAX_ATTEMPTS) {
        await giveUp(message, 'the worker sending it stopped before it answered');
        return true;
      }
      let note: string | undefined;
      try {
        note = await withTimeout(send(message, now), SEND_TIMEOUT_MS);
      } catch (error) {
        const lastError = failureOf(error, message);
        if (message.attempts >= MAX_ATTEMPTS) {
          await giveUp(message, lastError);
        } else {
          const dueAt = new Date(now.getTime() + RETRY_DELAYS_MS[message.attempts - 1]!);
          await repo.finishClaim(db, message, { status: 'pending', dueAt, lastError });
          log.warn(
            {
              messageId: message.id,
              channel: message.channel,
              attempts: message.attempts,
              retryAt: dueAt.toISOString(),
              error: lastError,
            },
            'message not delivered; will retry',
          );
        }
        return true;
      }
      await repo.finishClaim(db, message, { status: 'sent', sentAt: now, ...(note ? { lastError: note } : {}) });
      return true;
    },
  };
}

/** How long live events are kept for streams resuming by Last-Event-ID: an app closed longer reloads its pages anyway. */
export const LIVE_EVENT_RETENTION_MS = 24 * 3_600_000;
const LIVE_PRUNE_BATCH = 1_000;

/** `live.prune`: deletes a batch of live events older than the retention, one statement (safe on any worker, any time). */
export function createLiveEventsPruneJob({ db }: { db: Database }): Job {
  return {
    name: 'live.prune',
    async runOne(now) {
      return (await pruneLiveEvents(db, new Date(now.getTime() - LIVE_EVENT_RETENTION_MS), LIVE_PRUNE_BATCH)) > 0;
    },
  };
}
