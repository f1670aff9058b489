import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MessagingService } from './messaging.service.ts';

const outboxQuery = z.object({
  to: z.string().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** GET /api/dev/outbox: registered only outside production. */
export const outboxRoutes: FastifyPluginAsyncZod<{ messages: MessagingService }> = async (app, { messages }) => {
  app.get('/dev/outbox', { schema: { querystring: outboxQuery, tags: ['dev'], summary: 'Messages sent (development only)' } }, async (request) => {
    return { data: await messages.devOutbox({ to: request.query.to, limit: request.query.limit }) };
  });
};
