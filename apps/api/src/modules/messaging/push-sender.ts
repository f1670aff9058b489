/** The browser a push goes to: its push service's endpoint and the keys its payloads are encrypted for (RFC 8291). */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Sends one encrypted push. `gone`: the push service no longer knows the subscription (404 or 410), so it is deleted
 * rather than tried again. Any other failure throws, and the outbox tries again later.
 */
export interface PushSender {
  send(target: PushTarget, payload: string): Promise<'delivered' | 'gone'>;
}

/**
 * A push message's recipient in the outbox: the user's id and the subscription's, so that an erased account's notices
 * can be found by the user even after the subscription went (`erasePushSubscriptions`).
 */
export const pushRecipient = (userId: string, subscriptionId: string) => `${userId}:${subscriptionId}`;

export const subscriptionOfRecipient = (recipient: string) => recipient.split(':')[1] ?? '';
