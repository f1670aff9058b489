import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cardBody, cardPatchBody, cardSchema, qrCodeQuery, uploadBody } from '@tipcard/shared/cards/schemas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CardsService, PhotoSlot } from './cards.service.ts';
import { pickQrFormat } from '../../lib/qr-code.ts';
import { storedFileHeaders } from '../../lib/stored-file.ts';
import { data } from '../../lib/envelope.ts';

const clientParams = z.object({ clientId: z.uuid() });
const cardParams = z.object({ cardId: z.uuid() });
const photoQuery = z.object({ v: z.string().max(100).optional(), size: z.enum(['avatar']).optional() });
const MINUTE = 60_000;
/** Photo uploads per user per minute: each one is up to 10 MB of decoding and re-encoding. */
const PHOTO_UPLOADS_PER_MINUTE = 20;

export const cardsRoutes: FastifyPluginAsyncZod<{ cards: CardsService }> = async (app, { cards }) => {
  const owner = { onRequest: app.authenticate };
  const tags = ['cards'];
  const security = [{ bearer: [] }];

  /** A card's photo with its caching: for ever under the URL naming its file, revalidated under any other. */
  const sendPhoto = async (
    request: FastifyRequest<{ Params: z.infer<typeof cardParams>; Querystring: z.infer<typeof photoQuery> }>,
    reply: FastifyReply,
    slot: PhotoSlot,
  ) => {
    const size = request.query.size ?? 'full';
    const photo = await cards.photo(request.params.cardId, size, slot);
    // Only the URL naming the current file may be cached for ever; any other answer may change.
    const versioned = request.query.v === photo.fileId;
    const etag = size === 'full' ? `"${photo.fileId}"` : `"${photo.fileId}-${size}"`;
    reply
      .header('Cache-Control', versioned ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('ETag', etag)
      // A public image: other origins (an API host set apart from the web app) may embed it.
      .header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return storedFileHeaders(reply, `card-photo.${photo.mime === 'image/png' ? 'png' : 'jpg'}`)
      .type(photo.mime)
      .send(photo.content);
  };

  app.get(
    '/clients/:clientId/cards',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: "The client's cards",
        params: clientParams,
        response: { 200: data(z.array(cardSchema)) },
      },
    },
    async (request) => ({ data: await cards.list(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/cards',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: 'Create a card (a private client has exactly one)',
        params: clientParams,
        body: cardBody,
        response: { 201: data(cardSchema) },
      },
    },
    async (request, reply) => {
      const card = await cards.create(request.userId, request.params.clientId, request.body);
      return reply.status(201).send({ data: card });
    },
  );

  app.patch(
    '/cards/:cardId',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: 'Change some fields of a card',
        params: cardParams,
        // No body at all is the same as `{}`.
        body: cardPatchBody.default({}),
        response: { 200: data(cardSchema) },
      },
    },
    async (request) => ({ data: await cards.update(request.userId, request.params.cardId, request.body) }),
  );

  // After authentication, so the limit is per user; the card photo and the thank-you's photo share it: the same
  // decoding and re-encoding work.
  const photoUploads = app.rateLimit({
    max: PHOTO_UPLOADS_PER_MINUTE,
    timeWindow: MINUTE,
    keyGenerator: (request) => `photo:${request.userId}`,
  });

  app.post(
    '/cards/:cardId/photo',
    {
      ...owner,
      preHandler: photoUploads,
      schema: {
        tags,
        security,
        summary: 'Upload the card photo (JPEG or PNG, base64, at most 10 MB; stored re-encoded without metadata)',
        params: cardParams,
        body: uploadBody,
        response: { 200: data(cardSchema) },
      },
    },
    async (request) => ({ data: await cards.setPhoto(request.userId, request.params.cardId, request.body) }),
  );

  app.delete(
    '/cards/:cardId/photo',
    {
      ...owner,
      schema: { tags, security, summary: 'Remove the card photo', params: cardParams, response: { 200: data(cardSchema) } },
    },
    async (request) => ({ data: await cards.removePhoto(request.userId, request.params.cardId) }),
  );

  app.get(
    '/cards/:cardId/photo',
    {
      schema: {
        tags,
        summary: 'The card photo (public: the guest payment page shows it); `size=avatar` fits it into 192×192',
        params: cardParams,
        querystring: photoQuery,
      },
    },
    async (request, reply) => sendPhoto(request, reply, 'card'),
  );

  // The thank-you's photo (decision 0047): the card photo's checks, re-encoding, limit and caching, in its own slot.
  app.post(
    '/cards/:cardId/thank-you/photo',
    {
      ...owner,
      preHandler: photoUploads,
      schema: {
        tags,
        security,
        summary: "Upload the thank-you's photo (JPEG or PNG by content, base64, at most 10 MB; stored re-encoded)",
        params: cardParams,
        body: uploadBody,
        response: { 200: data(cardSchema) },
      },
    },
    async (request) => ({ data: await cards.setPhoto(request.userId, request.params.cardId, request.body, 'thank_you') }),
  );

  app.delete(
    '/cards/:cardId/thank-you/photo',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: "Remove the thank-you's photo",
        params: cardParams,
        response: { 200: data(cardSchema) },
      },
    },
    async (request) => ({ data: await cards.removePhoto(request.userId, request.params.cardId, 'thank_you') }),
  );

  app.get(
    '/cards/:cardId/thank-you/photo',
    {
      schema: {
        tags,
        summary: "The thank-you's photo (public: the guest's success page and receipt show it)",
        params: cardParams,
        querystring: photoQuery,
      },
    },
    async (request, reply) => sendPhoto(request, reply, 'thank_you'),
  );

  app.get(
    '/cards/:cardId/qr_code',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: "The card's QR code: PNG, or SVG when the Accept header prefers image/svg+xml",
        params: cardParams,
        querystring: qrCodeQuery,
      },
    },
    async (request, reply) => {
      const format = pickQrFormat(request.headers.accept);
      const qr = await cards.qrCode(request.userId, request.params.cardId, { ...request.query, format });
      return reply.type(qr.mime).header('Cache-Control', 'private, max-age=3600').header('Vary', 'Accept').send(qr.body);
    },
  );
};
