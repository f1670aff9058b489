import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  overviewSchema,
  transactionsFilter,
  transactionsPageSchema,
  transactionsQuery,
} from '@tipcard/shared/transactions/schemas';
import { PER_REQUEST_JSON_COMPRESSION } from '../../lib/http-cache.ts';
import { acceptedLocale } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import type { TransactionsService } from './transactions.service.ts';

const clientParams = z.object({ clientId: z.uuid() });

export const transactionsRoutes: FastifyPluginAsyncZod<{ transactions: TransactionsService }> = async (app, { transactions }) => {
  const common = { onRequest: app.authenticate } as const;

  app.get(
    '/clients/:clientId/transactions',
    {
      ...common,
      compress: PER_REQUEST_JSON_COMPRESSION,
      schema: {
        tags: ['transactions'],
        summary: 'The history, newest first, with filters and a keyset cursor',
        security: [{ bearer: [] }],
        params: clientParams,
        querystring: transactionsQuery,
        response: { 200: data(transactionsPageSchema) },
      },
    },
    async (request) => ({
      data: await transactions.list(request.userId, request.params.clientId, request.query, acceptedLocale(request)),
    }),
  );

  app.get(
    '/clients/:clientId/transactions.csv',
    {
      ...common,
      schema: {
        tags: ['transactions'],
        summary: 'The filtered history as CSV',
        security: [{ bearer: [] }],
        params: clientParams,
        querystring: transactionsFilter,
      },
    },
    async (request, reply) => {
      const csv = await transactions.exportCsv(request.userId, request.params.clientId, request.query, acceptedLocale(request));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="tipcard-transactions.csv"')
        .header('cache-control', 'private, no-store')
        .send(csv);
    },
  );

  app.get(
    '/clients/:clientId/overview',
    {
      ...common,
      schema: {
        tags: ['transactions'],
        summary: 'Received today, this week and this month, tip count, average rating, latest transactions',
        security: [{ bearer: [] }],
        params: clientParams,
        response: { 200: data(overviewSchema) },
      },
    },
    async (request) => ({ data: await transactions.overview(request.userId, request.params.clientId, acceptedLocale(request)) }),
  );
};
