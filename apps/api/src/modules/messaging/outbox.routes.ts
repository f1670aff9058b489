import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { isLoopback } from '../../lib/loopback.ts';
import type { MessagingService } from './messaging.service.ts';

const outboxQuery = z.object({
  to: z.string().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * GET /api/dev/outbox: registered only outside production, and answered only to this machine unless `public` (DEV_OUTBOX_PUBLIC=1):
 * it lists sign-in codes, so a development server reachable from a network must not hand them out. The socket's
 * address decides, never X-Forwarded-For.
 */
export const outboxRoutes: FastifyPluginAsyncZod<{ messages: MessagingService; public: boolean }> = async (app, options) => {
  const { messages } = options;
  app.get(
    '/dev/outbox',
    {
      onRequest: async (request) => {
        if (!options.public && !isLoopback(request.socket.remoteAddress)) throw new AppError('not_found');
      },
      schema: { querystring: outboxQuery, tags: ['dev'], summary: 'Messages sent (development only, from this machine)' },
    },
    async (request) => ({ data: await messages.devOutbox({ to: request.query.to, limit: request.query.limit }) }),
  );
};

/** Printed at start: what a development server listening beyond loopback exposes, or undefined when nothing. */
export function devOutboxWarning(config: { devOutbox: boolean; devOutboxPublic: boolean; host: string }): string | undefined {
  if (!config.devOutbox || isLoopback(config.host)) return undefined;
  return config.devOutboxPublic
    ? `WARNING: HOST=${config.host} listens beyond this machine and DEV_OUTBOX_PUBLIC=1: anyone who reaches it can read sign-in codes at /api/dev/outbox and take over accounts.`
    : `WARNING: HOST=${config.host} listens beyond this machine in development: the dev outbox (sign-in codes) answers only requests from this machine; use NODE_ENV=production for a server others use.`;
}
