import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noticesSchema } from '@tipcard/shared/notices/schemas';
import { data } from '../../lib/envelope.ts';
import type { NoticesService } from './messaging.service.ts';

const MINUTE = 60_000;

/** The signed-in user's in-app notices (issue 29): the latest with the unread count, and marking them read. */
export const noticesRoutes: FastifyPluginAsyncZod<{ notices: NoticesService }> = async (app, { notices }) => {
  const tags = ['notices'];
  const security = [{ bearer: [] }];
  const params = z.object({ clientId: z.uuid() });
  // A tap per notice: a person reads far fewer in a minute; a loop is stopped.
  const perUser = app.rateLimit({ max: 120, timeWindow: MINUTE, keyGenerator: (request) => `notices:${request.userId}` });

  app.get(
    '/clients/:clientId/notices',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The user’s latest in-app notices (newest first) and how many are unread',
        params,
        response: { 200: data(noticesSchema) },
      },
    },
    async (request) => ({ data: await notices.list(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/notices/read',
    {
      onRequest: app.authenticate,
      preHandler: perUser,
      schema: {
        tags,
        security,
        summary: 'Mark every notice read; answers the notices as they now are',
        params,
        response: { 200: data(noticesSchema) },
      },
    },
    async (request) => ({ data: await notices.markAllRead(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/notices/:noticeId/read',
    {
      onRequest: app.authenticate,
      preHandler: perUser,
      schema: {
        tags,
        security,
        summary: 'Mark one notice read (404 for another user’s); answers the notices as they now are',
        params: params.extend({ noticeId: z.uuid() }),
        response: { 200: data(noticesSchema) },
      },
    },
    async (request) => ({
      data: await notices.markRead(request.userId, request.params.clientId, request.params.noticeId),
    }),
  );
};
