import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { meSchema } from '@tipcard/shared/auth/me-schema';
import type { MeService } from './me.service.ts';

export const meRoutes: FastifyPluginAsyncZod<{ me: MeService }> = async (app, { me }) => {
  app.get(
    '/me',
    {
      onRequest: app.authenticate,
      schema: { tags: ['me'], summary: 'The signed-in user', security: [{ bearer: [] }], response: { 200: z.object({ data: meSchema }) } },
    },
    async (request) => ({ data: await me.get(request.userId) }),
  );
};
