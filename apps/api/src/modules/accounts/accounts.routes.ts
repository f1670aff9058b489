import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountSchema } from '@tipcard/shared/accounts/schemas';
import { data } from '../../lib/envelope.ts';
import type { AccountsService } from './accounts.service.ts';

export const accountsRoutes: FastifyPluginAsyncZod<{ accounts: AccountsService }> = async (app, { accounts }) => {
  app.get(
    '/clients/:clientId/account',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['accounts'],
        summary: 'Main and hold balances in cents',
        security: [{ bearer: [] }],
        params: z.object({ clientId: z.uuid() }),
        response: { 200: data(accountSchema) },
      },
    },
    async (request) => ({ data: await accounts.get(request.userId, request.params.clientId) }),
  );
};
