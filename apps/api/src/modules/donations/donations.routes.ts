import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actionBody, createDonationBody, donationSchema, publicActionSchema } from '@tipcard/shared/donations/schemas';
import { publicPaymentSchema } from '@tipcard/shared/payments/schemas';
import { pathLocale, requestLocale, t } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import { sendShell } from '../web-shell/web-shell.service.ts';
import type { DonationsService } from './donations.service.ts';

const MINUTE = 60_000;

const actionParams = z.object({ actionId: z.string().min(1).max(128) });

/** The donor's checkout (no account), the signed links of monthly donors' e-mails, and the recipient's list, under /api. */
export const donationsRoutes: FastifyPluginAsyncZod<{ donations: DonationsService }> = async (app, { donations }) => {
  const perIp = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:ip:${request.ip}` });

  app.post(
    '/public/cards/:cardId/donations',
    {
      onRequest: perIp('create-donation', 30),
      preHandler: [app.requireHuman, app.limitCheckouts],
      schema: {
        tags: ['donations'],
        summary: 'Open a checkout for a one-off donation to a DONATION card (send an Idempotency-Key)',
        params: z.object({ cardId: z.uuid() }),
        headers: z.object({ 'idempotency-key': z.string().trim().min(8, 'validation.valid').max(100, 'validation.valid') }),
        body: createDonationBody,
        response: { 201: data(publicPaymentSchema) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await donations.donate(request.params.cardId, request.body, request.headers['idempotency-key']) }),
  );

  app.get(
    '/public/actions/:actionId',
    {
      onRequest: perIp('donation-action', 60),
      schema: {
        tags: ['donations'],
        summary: 'What a signed link from a monthly donor’s e-mail will do, and whether it still can',
        params: actionParams,
        response: { 200: data(publicActionSchema) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await donations.describeAction(request.params.actionId) };
    },
  );

  app.post(
    '/public/actions/:actionId',
    {
      onRequest: perIp('donation-action', 60),
      schema: {
        tags: ['donations'],
        summary:
          'Confirm a signed link: cancel, pause (months) or change the amount (amount_cents) once; a receipt or statement answers its PDF',
        params: actionParams,
        body: actionBody,
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const done = await donations.performAction(request.params.actionId, request.body);
      if (!('pdf' in done)) return { data: done };
      reply.type('application/pdf').header('content-disposition', `attachment; filename="${done.filename}"`);
      return reply.send(done.pdf);
    },
  );

  app.get(
    '/clients/:clientId/donations',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['donations'],
        summary: 'The donations the client’s cards received, newest first',
        security: [{ bearer: [] }],
        params: z.object({ clientId: z.uuid() }),
        response: { 200: data(z.array(donationSchema)) },
      },
    },
    async (request) => ({ data: await donations.list(request.userId, request.params.clientId) }),
  );
};

/**
 * `/actions/{actionId}`: the light public app, which asks the API what the link does. The link is a bearer secret:
 * it is kept out of the head's canonical and social tags, out of Referer headers and out of search engines.
 */
export const actionPagesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/actions/:actionId',
    { onRequest: app.rateLimit({ max: 240, timeWindow: MINUTE }), schema: { hide: true, params: actionParams } },
    async (request, reply) => {
      reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex');
      // A language prefix (`/lv/actions/…`, the one of the donor's e-mail) decides the page's language, else the
      // visitor's stored choice or browser: the head and the page the script hydrates are in the same one.
      const locale = requestLocale(request);
      if (!pathLocale(request.url)) reply.header('vary', 'Accept-Language, Cookie');
      return sendShell(reply, {
        entry: 'public.html',
        locale,
        title: t('payment:action.meta_title', {}, locale),
        description: t('payment:meta.description', {}, locale),
        path: '/actions',
        data: { locale },
      });
    },
  );
};
