import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOutboxMessages } from './outbox.repository.ts';

const outboxQuery = z.object({
  to: z.string().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** GET /api/dev/outbox: registered only outside production. */
export const outboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/dev/outbox', { schema: { querystring: outboxQuery, tags: ['dev'], summary: 'Messages sent' } }, async (request) => {
    const messages = await listOutboxMessages(app.db, { recipient: request.query.to, limit: request.query.limit });
    return {
      data: messages.map((m) => ({ channel: m.channel, to: m.recipient, body: m.body, created_at: m.createdAt.toISOString() })),
    };
  });
};
