import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { meSchema } from '@tipcard/shared/auth/me-schema';
import { data } from '../../lib/envelope.ts';
import type { MeService } from './me.service.ts';

export const meRoutes: FastifyPluginAsyncZod<{ me: MeService }> = async (app, { me }) => {
  app.get(
    '/me',
    {
      onRequest: app.authenticate,
      schema: { tags: ['me'], summary: 'The signed-in user', security: [{ bearer: [] }], response: { 200: data(meSchema) } },
    },
    async (request) => ({ data: await me.get(request.userId) }),
  );
};
