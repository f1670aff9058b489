import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountStateSchema,
  deletionPreviewSchema,
  deletionStatementBody,
  languageChoiceSchema,
  notificationChoicesSchema,
} from '@tipcard/shared/account/schemas';
import { REFRESH_TOKEN_COOKIE } from '@tipcard/shared/constants';
import { acceptedLocale } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import type { AccountService } from './account.service.ts';

const HOUR = 3_600_000;

export const accountRoutes: FastifyPluginAsyncZod<{ account: AccountService }> = async (app, { account }) => {
  const tags = ['account'];
  const security = [{ bearer: [] }];
  const perUser = (name: string) =>
    app.rateLimit({ max: 20, timeWindow: HOUR, keyGenerator: (request) => `account-${name}:${request.userId}` });

  app.get(
    '/user/deletion_statements/preview',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary:
          'What deleting the account would do now: delete at once, pay the balance out by a closing payout first, or nothing yet (with the reasons)',
        response: { 200: data(deletionPreviewSchema) },
      },
    },
    async (request) => ({ data: await account.deletionPreview(request.userId) }),
  );

  app.post(
    '/user/deletion_statements',
    {
      onRequest: app.authenticate,
      preHandler: perUser('delete'),
      schema: {
        tags,
        security,
        summary:
          'Delete the account (spec): refused with its reason while money on hold, a debt or a withdrawal under way remains; an available balance goes in the same transaction either with the closing payout given here (its SMS code) or, whole and without a fee, to the charity card given as `gift` (its `amount_cents`: the balance the preview showed); every session ends and the account can be restored for 30 days',
        body: deletionStatementBody,
        response: { 200: data(accountStateSchema) },
      },
    },
    async (request, reply) => {
      const state = await account.requestDeletion(request.userId, request.body);
      // Every session ended: the browser's refresh cookie goes too.
      reply.clearCookie(REFRESH_TOKEN_COOKIE, { path: '/api' });
      return { data: state };
    },
  );

  const clientParams = z.object({ clientId: z.uuid() });
  app.get(
    '/clients/:clientId/notifications',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Which texts the user wants (support answers)',
        params: clientParams,
        response: { 200: data(notificationChoicesSchema) },
      },
    },
    async (request) => ({ data: await account.notificationChoices(request.userId, request.params.clientId) }),
  );

  app.patch(
    '/clients/:clientId/notifications',
    {
      onRequest: app.authenticate,
      preHandler: perUser('notifications'),
      schema: {
        tags,
        security,
        summary: 'Change which texts the user wants',
        params: clientParams,
        body: notificationChoicesSchema,
        response: { 200: data(notificationChoicesSchema) },
      },
    },
    async (request) => ({ data: await account.setNotificationChoices(request.userId, request.params.clientId, request.body) }),
  );

  app.get(
    '/clients/:clientId/language',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The language of the texts, e-mails and PDFs the user is sent',
        params: clientParams,
        response: { 200: data(languageChoiceSchema) },
      },
    },
    async (request) => ({ data: await account.language(request.userId, request.params.clientId) }),
  );

  app.patch(
    '/clients/:clientId/language',
    {
      onRequest: app.authenticate,
      preHandler: perUser('language'),
      schema: {
        tags,
        security,
        summary: 'Choose the language of the texts, e-mails and PDFs the user is sent',
        params: clientParams,
        body: languageChoiceSchema,
        response: { 200: data(languageChoiceSchema) },
      },
    },
    async (request) => ({ data: await account.setLanguage(request.userId, request.params.clientId, request.body) }),
  );

  app.get(
    '/clients/:clientId/export',
    {
      onRequest: app.authenticate,
      preHandler: perUser('export'),
      schema: {
        tags,
        security,
        summary:
          'Download my data: a ZIP of profile.json, cards.json, transactions.csv, payouts.csv, tickets.json and verification.json',
        params: clientParams,
      },
    },
    async (request, reply) => {
      const file = await account.exportData(request.userId, request.params.clientId, acceptedLocale(request));
      return reply
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'private, no-store')
        .type('application/zip')
        .send(file.content);
    },
  );

  app.post(
    '/user/restore',
    {
      onRequest: app.authenticate,
      preHandler: perUser('restore'),
      schema: {
        tags,
        security,
        summary: 'Restore a deleted account within 30 days of the deletion',
        response: { 200: data(accountStateSchema) },
      },
    },
    async (request) => ({ data: await account.restore(request.userId) }),
  );
};
