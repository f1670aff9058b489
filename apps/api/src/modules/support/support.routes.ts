import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';
import {
  createdTicketSchema,
  createTicketBody,
  ticketAttachmentBody,
  ticketAttachmentSchema,
  ticketMessageBody,
  ticketSchema,
  ticketSummarySchema,
} from '@tipcard/shared/support/schemas';
import { AppError } from '../../lib/app-error.ts';
import { isLoopback } from '../../lib/loopback.ts';
import { storedFileHeaders } from '../../lib/stored-file.ts';
import { data } from '../../lib/envelope.ts';
import type { SupportService } from './support.service.ts';

const clientParams = z.object({ clientId: z.uuid() });
const ticketParams = clientParams.extend({ ticketId: z.uuid() });
const attachmentParams = ticketParams.extend({ attachmentId: z.uuid() });
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** New tickets per user per hour: enough for anyone with a real problem, not enough to flood the operators. */
const TICKETS_PER_HOUR = 10;
/** Messages per user per minute. */
const MESSAGES_PER_MINUTE = 20;
/** Attachments per user per minute: each is up to 10 MB to decode and re-encode. */
const ATTACHMENTS_PER_MINUTE = 20;
/** One file of 10 MB as base64 plus the JSON around it. */
const ATTACHMENT_BODY_LIMIT = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024;

/** RFC 6266 / 5987: an ASCII fallback and the UTF-8 name, so "Līgums.pdf" downloads under its own name. */
export const supportRoutes: FastifyPluginAsyncZod<{ support: SupportService }> = async (app, { support }) => {
  const owner = { onRequest: app.authenticate };
  const tags = ['support'];
  const security = [{ bearer: [] }];
  const perUser = (name: string, max: number, timeWindow: number) =>
    app.rateLimit({ max, timeWindow, keyGenerator: (request) => `support-${name}:${request.userId}` });

  app.get(
    '/clients/:clientId/tickets',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: "The user's support tickets, the most recently active first",
        params: clientParams,
        response: { 200: data(z.array(ticketSummarySchema)) },
      },
    },
    async (request) => ({ data: await support.list(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/tickets',
    {
      ...owner,
      preHandler: perUser('ticket', TICKETS_PER_HOUR, HOUR),
      schema: {
        tags,
        security,
        summary: 'Open a ticket: title (at most 100 characters) and its first message (cut to 255)',
        params: clientParams,
        body: createTicketBody,
        response: { 201: data(createdTicketSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await support.create(request.userId, request.params.clientId, request.body) }),
  );

  app.get(
    '/clients/:clientId/tickets/:ticketId',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: 'One ticket with its messages and attachments',
        params: ticketParams,
        response: { 200: data(ticketSchema) },
      },
    },
    async (request) => ({ data: await support.get(request.userId, request.params.clientId, request.params.ticketId) }),
  );

  app.post(
    '/clients/:clientId/tickets/:ticketId/messages',
    {
      ...owner,
      preHandler: perUser('message', MESSAGES_PER_MINUTE, MINUTE),
      schema: {
        tags,
        security,
        summary: "The user's reply (cut to 255 characters); the ticket is open again",
        params: ticketParams,
        body: ticketMessageBody,
        response: { 201: data(ticketSchema) },
      },
    },
    async (request, reply) => {
      const { userId, params } = request;
      await support.addMessage(userId, params.clientId, params.ticketId, request.body.message);
      return reply.status(201).send({ data: await support.get(userId, params.clientId, params.ticketId) });
    },
  );

  app.post(
    '/clients/:clientId/tickets/:ticketId/attachments',
    {
      ...owner,
      bodyLimit: ATTACHMENT_BODY_LIMIT,
      preHandler: perUser('attachment', ATTACHMENTS_PER_MINUTE, MINUTE),
      schema: {
        tags,
        security,
        summary: 'Attach a file: PDF, JPEG, PNG or .edoc by content, base64, at most 10 MB',
        params: ticketParams,
        body: ticketAttachmentBody,
        response: { 201: data(ticketAttachmentSchema) },
      },
    },
    async (request, reply) => {
      const { userId, params } = request;
      return reply
        .status(201)
        .send({ data: await support.addAttachment(userId, params.clientId, params.ticketId, request.body) });
    },
  );

  app.get(
    '/clients/:clientId/tickets/:ticketId/attachments/:attachmentId',
    {
      ...owner,
      schema: { tags, security, summary: "An attachment's file (its owner only)", params: attachmentParams },
    },
    async (request, reply) => {
      const { clientId, ticketId, attachmentId } = request.params;
      const file = await support.download(request.userId, clientId, ticketId, attachmentId);
      return storedFileHeaders(reply, file.name).header('cache-control', 'private, no-store').type(file.mime).send(file.content);
    },
  );
};

/**
 * POST /api/dev/support/{ticketId}/reply: an operator's reply from a developer or a browser test without signing in to
 * the back office (operators answer at /ops). Registered only where the dev outbox is (never in production).
 */
export const supportDevRoutes: FastifyPluginAsyncZod<{ support: SupportService; public: boolean }> = async (app, options) => {
  app.post(
    '/dev/support/:ticketId/reply',
    {
      schema: {
        tags: ['dev'],
        summary: 'Reply to a ticket as an operator (development only)',
        params: z.object({ ticketId: z.uuid() }),
        body: z.object({ message: z.string().max(10_000) }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      // As the dev outbox: only this machine may act as an operator, unless DEV_OUTBOX_PUBLIC=1.
      if (!options.public && !isLoopback(request.socket.remoteAddress)) throw new AppError('not_found');
      await options.support.replyAsOperator(request.params.ticketId, request.body.message);
      return reply.status(204).send(null);
    },
  );
};
