import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  pushPublicKeySchema,
  pushSubscriptionBody,
  pushSubscriptionSchema,
  pushUnsubscribeBody,
} from '@tipcard/shared/push/schemas';
import { data } from '../../lib/envelope.ts';
import type { PushService } from './messaging.service.ts';

const HOUR = 3_600_000;

/**
 * Web Push (decision 0046): the server's public key, and this device's subscription on the signed-in user's client.
 * `allowLoopback` (never in production) accepts a push endpoint on this machine, for a local push service.
 */
export const pushRoutes: FastifyPluginAsyncZod<{ push: PushService; publicKey: string; allowLoopback: boolean }> = async (
  app,
  { push, publicKey, allowLoopback },
) => {
  const tags = ['push'];
  const security = [{ bearer: [] }];
  const params = z.object({ clientId: z.uuid() });
  // A device subscribes once and again when its browser renews the key: far below this, but each row is a send per tip.
  const perUser = app.rateLimit({ max: 30, timeWindow: HOUR, keyGenerator: (request) => `push:${request.userId}` });

  app.get(
    '/push/public-key',
    {
      schema: {
        tags,
        summary: 'The VAPID public key a browser subscribes with (applicationServerKey); 404 when push is off (no VAPID keys)',
        response: { 200: data(pushPublicKeySchema) },
      },
    },
    async () => ({ data: { public_key: publicKey } }),
  );

  app.get(
    '/clients/:clientId/push-subscriptions',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The devices that receive the user’s push notices (no endpoints: they are capabilities)',
        params,
        response: { 200: data(z.array(pushSubscriptionSchema)) },
      },
    },
    async (request) => ({ data: await push.list(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/push-subscriptions',
    {
      onRequest: app.authenticate,
      preHandler: perUser,
      schema: {
        tags,
        security,
        summary:
          'Subscribe this device to push notices of credits and payouts (PushSubscription.toJSON() and a short device label); idempotent on the endpoint',
        params,
        body: pushSubscriptionBody(allowLoopback),
        response: { 200: data(pushSubscriptionSchema) },
      },
    },
    async (request) => ({ data: await push.subscribe(request.userId, request.params.clientId, request.body) }),
  );

  app.delete(
    '/clients/:clientId/push-subscriptions',
    {
      onRequest: app.authenticate,
      preHandler: perUser,
      schema: {
        tags,
        security,
        summary: 'Unsubscribe this device (by its endpoint); `removed` is false when it was not subscribed',
        params,
        body: pushUnsubscribeBody,
        response: { 200: data(z.object({ removed: z.boolean() })) },
      },
    },
    async (request) => ({
      data: { removed: await push.unsubscribe(request.userId, request.params.clientId, request.body.endpoint) },
    }),
  );
};
