import { z } from 'zod';
import { pushPublicKeySchema, pushSubscriptionSchema } from '@tipcard/shared/push/schemas';
import { api } from '../../../lib/api-client.ts';
import { deviceLabel, unsubscribeThisBrowser } from '../../../lib/push-device.ts';

/** The server's VAPID key; throws when push is off on the server (404). Errors are the panel's to say. */
export async function pushPublicKey(): Promise<string> {
  return (await api.get('/push/public-key', pushPublicKeySchema, { errorHandling: 'none' })).public_key;
}

/** Tells the server this browser's subscription is the user's (idempotent: the same endpoint is one device). */
export async function saveThisDevice(clientId: string, subscription: PushSubscription): Promise<void> {
  const { endpoint, keys } = subscription.toJSON();
  await api.post(
    `/clients/${clientId}/push-subscriptions`,
    { endpoint, keys, user_agent: deviceLabel() },
    pushSubscriptionSchema,
    { errorHandling: 'none' },
  );
}

export function forgetThisDevice(clientId: string): Promise<void> {
  return unsubscribeThisBrowser((endpoint) =>
    api.delete(`/clients/${clientId}/push-subscriptions`, z.object({ removed: z.boolean() }), {
      body: { endpoint },
      errorHandling: 'none',
    }),
  );
}
