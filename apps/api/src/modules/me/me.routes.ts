import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { meSchema } from '@tipcard/shared/auth/me-schema';
import { getMe } from './me.service.ts';

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me',
    {
      onRequest: app.authenticate,
      schema: { tags: ['me'], summary: 'The signed-in user', security: [{ bearer: [] }], response: { 200: z.object({ data: meSchema }) } },
    },
    async (request) => ({ data: await getMe(app.db, request.userId, app.config.verificationLimitCents) }),
  );
};
