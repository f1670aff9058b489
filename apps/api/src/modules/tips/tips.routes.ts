import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createPaymentBody, publicCardSchema, publicPaymentSchema } from '@tipcard/shared/payments/schemas';
import { AppError } from '../../lib/app-error.ts';
import { answeredFromCache } from '../../lib/http-cache.ts';
import { acceptedLocale } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import type { TipsService } from './tips.service.ts';

const cardParams = z.object({ cardId: z.uuid() });
const MINUTE = 60_000;
/** How long a guest's browser or a shared cache may show a card without asking again (docs/decisions/0018). */
const PUBLIC_CARD_MAX_AGE_SECONDS = 30;

/** The guest's tip API (no account) under /api. */
export const tipsRoutes: FastifyPluginAsyncZod<{ tips: TipsService }> = async (app, { tips }) => {
  const perIp = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:ip:${request.ip}` });

  app.get(
    '/public/cards/:cardId',
    {
      onRequest: perIp('public-card', 120),
      schema: {
        tags: ['payments'],
        summary: 'What a guest sees of a card',
        params: cardParams,
        response: { 200: data(publicCardSchema) },
      },
    },
    async (request, reply) => {
      // From memory while kept (decision 0051): the tag and the body were made once per card version.
      const read = await tips.publicCardRead(request.params.cardId);
      if (!read.card) throw new AppError('not_found');
      // The tag is the card's public data itself: a change of name, photo, presets, rating or team is a new tag.
      if (answeredFromCache(request, reply, { etag: read.etag, maxAgeSeconds: PUBLIC_CARD_MAX_AGE_SECONDS })) return reply;
      // Already the response schema's JSON (made from a PublicCard): Fastify sends a JSON-typed string as it is, with
      // no validation nor serialization per request; the schema above still documents it.
      return (reply as FastifyReply).type('application/json; charset=utf-8').send(read.body);
    },
  );

  app.post(
    '/public/cards/:cardId/payments',
    {
      onRequest: perIp('create-payment', 30),
      preHandler: [app.requireHuman, app.limitCheckouts],
      schema: {
        tags: ['payments'],
        summary: 'Open a checkout for a tip (send an Idempotency-Key)',
        params: cardParams,
        headers: z.object({ 'idempotency-key': z.string().trim().min(8, 'validation.valid').max(100, 'validation.valid') }),
        body: createPaymentBody,
        response: { 201: data(publicPaymentSchema) },
      },
    },
    async (request, reply) => {
      const payment = await tips.createTip(
        request.params.cardId,
        request.body,
        request.headers['idempotency-key'],
        acceptedLocale(request),
      );
      return reply.status(201).send({ data: payment });
    },
  );
};
