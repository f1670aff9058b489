import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactBody } from '@tipcard/shared/site/schemas';
import { acceptedLocale } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import type { ContactService } from './contact.service.ts';

/** Messages per IP: enough for a person who retries, too few for a spammer. */
const MESSAGES_PER_WINDOW = 5;
const WINDOW_MS = 15 * 60_000;

export const contactRoutes: FastifyPluginAsyncZod<{ contact: ContactService }> = async (app, { contact }) => {
  app.post(
    '/contact',
    {
      onRequest: app.rateLimit({
        max: MESSAGES_PER_WINDOW,
        timeWindow: WINDOW_MS,
        keyGenerator: (request) => `contact:ip:${request.ip}`,
      }),
      preHandler: app.requireHuman,
      schema: {
        tags: ['site'],
        summary: 'Send a message to support from the contact page',
        body: contactBody,
        response: { 202: data(z.object({ sent: z.literal(true) })) },
      },
    },
    async (request, reply) => {
      const { turnstile_token: _token, ...message } = request.body;
      await contact.send(message, { locale: acceptedLocale(request) });
      return reply.status(202).send({ data: { sent: true as const } });
    },
  );
};
