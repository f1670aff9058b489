import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CARD_PRODUCTS,
  cardOrderBody,
  cardOrderSchema,
  cardOrdersSchema,
  cardProductSchema,
} from '@tipcard/shared/card-orders/schemas';
import { acceptedLocale } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import type { CardOrdersService } from './card-orders.service.ts';

const clientParams = z.object({ clientId: z.uuid() });
const orderParams = z.object({ clientId: z.uuid(), orderId: z.uuid() });
const PDF = 'application/pdf';
const MINUTE = 60_000;

/** The card shop of the signed-in user (issue 12; DESIGN "Calls the spec does not show"). */
export const cardOrdersRoutes: FastifyPluginAsyncZod<{ cardOrders: CardOrdersService }> = async (app, { cardOrders }) => {
  const common = { onRequest: app.authenticate } as const;
  const secured = { tags: ['card-orders'], security: [{ bearer: [] }] };
  const perUser = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:user:${request.userId || request.ip}` });
  const pdf = (reply: { type(value: string): unknown; header(name: string, value: string): unknown }, name: string) => {
    reply.type(PDF);
    reply.header('cache-control', 'private, no-store');
    reply.header('content-disposition', `inline; filename="${name}.pdf"`);
  };

  app.get(
    '/card-products',
    {
      schema: {
        tags: ['card-orders'],
        summary: 'The products of the card shop and the price of an item after the free first order',
        response: { 200: data(z.array(cardProductSchema)) },
      },
    },
    async () => ({ data: cardOrders.products() }),
  );

  app.get(
    '/clients/:clientId/card-orders',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'The user’s card orders, newest first, and what the next order may be',
        params: clientParams,
        response: { 200: data(cardOrdersSchema) },
      },
    },
    async (request) => ({ data: await cardOrders.list(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/card-orders',
    {
      ...common,
      preHandler: perUser('card-order', 30),
      schema: {
        ...secured,
        summary:
          'Order printed cards or stickers: the first order is free, later ones answer a checkout_url (an Idempotency-Key makes retries safe)',
        params: clientParams,
        headers: z.object({
          'idempotency-key': z.string().trim().min(8, 'validation.valid').max(100, 'validation.valid').optional(),
        }),
        body: cardOrderBody,
        response: { 201: data(cardOrderSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await cardOrders.create(
          request.userId,
          request.params.clientId,
          request.body,
          acceptedLocale(request),
          request.headers['idempotency-key'],
        ),
      }),
  );

  app.get(
    '/clients/:clientId/card-orders/preview',
    {
      ...common,
      preHandler: perUser('card-order-preview', 60),
      schema: {
        ...secured,
        summary:
          'What one item of the product would print with the card (the user’s own, or a team card they run), as the print-ready PDF',
        params: clientParams,
        querystring: z.object({ product: z.enum(CARD_PRODUCTS), card_id: z.uuid().optional() }),
      },
    },
    async (request, reply) => {
      const { product, card_id: cardId } = request.query;
      const file = await cardOrders.draftPreview(request.userId, request.params.clientId, product, cardId);
      pdf(reply, `tipcard-${request.query.product}-preview`);
      return reply.send(file);
    },
  );

  app.get(
    '/clients/:clientId/card-orders/:orderId',
    {
      ...common,
      schema: { ...secured, summary: 'One card order', params: orderParams, response: { 200: data(cardOrderSchema) } },
    },
    async (request) => ({ data: await cardOrders.get(request.userId, request.params.clientId, request.params.orderId) }),
  );

  app.get(
    '/clients/:clientId/card-orders/:orderId/preview',
    {
      ...common,
      preHandler: perUser('card-order-preview', 60),
      schema: { ...secured, summary: 'The order’s print file (PDF), as the printer gets it', params: orderParams },
    },
    async (request, reply) => {
      const file = await cardOrders.printPreview(request.userId, request.params.clientId, request.params.orderId);
      pdf(reply, `tipcard-order-${request.params.orderId.slice(0, 8)}`);
      return reply.send(file);
    },
  );
};
