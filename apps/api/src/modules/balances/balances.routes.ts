import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { balancesSchema } from '@tipcard/shared/balances/schemas';
import { data } from '../../lib/envelope.ts';
import type { BalancesService } from './balances.service.ts';

export const balancesRoutes: FastifyPluginAsyncZod<{ balances: BalancesService }> = async (app, { balances }) => {
  app.get(
    '/clients/:clientId/account',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['balances'],
        summary: 'Main and hold balances in cents',
        security: [{ bearer: [] }],
        params: z.object({ clientId: z.uuid() }),
        response: { 200: data(balancesSchema) },
      },
    },
    async (request) => ({ data: await balances.get(request.userId, request.params.clientId) }),
  );
};
