import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createInvoiceBody, invoiceSchema, payInvoiceBody, publicInvoiceSchema } from '@tipcard/shared/invoices/schemas';
import { publicPaymentSchema } from '@tipcard/shared/payments/schemas';
import { AppError } from '../../lib/app-error.ts';
import { acceptedLocale, pathLocale, requestLocale, t } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import { pickQrFormat } from '../../lib/qr-code.ts';
import { sendShell } from '../web-shell/web-shell.service.ts';
import type { InvoicesService } from './invoices.service.ts';

const MINUTE = 60_000;
const clientParams = z.object({ clientId: z.uuid() });
const invoiceParams = clientParams.extend({ invoiceId: z.uuid() });
const publicParams = z.object({ invoiceId: z.uuid() });

/** The owner's invoices and the payer's invoice API, under /api. */
export const invoicesRoutes: FastifyPluginAsyncZod<{ invoices: InvoicesService }> = async (app, { invoices }) => {
  const tags = ['invoices'];
  const security = [{ bearer: [] }];
  const owner = { onRequest: app.authenticate } as const;
  const perIp = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:ip:${request.ip}` });
  const perUser = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:user:${request.userId || request.ip}` });

  app.get(
    '/clients/:clientId/invoices',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: 'The client’s invoices, newest first',
        params: clientParams,
        response: { 200: data(z.array(invoiceSchema)) },
      },
    },
    async (request) => ({ data: await invoices.list(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/invoices',
    {
      ...owner,
      preHandler: perUser('create-invoice', 30),
      schema: {
        tags,
        security,
        summary: 'Create an invoice (a payment request by link)',
        params: clientParams,
        body: createInvoiceBody,
        response: { 201: data(invoiceSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await invoices.create(request.userId, request.params.clientId, request.body) }),
  );

  app.post(
    '/clients/:clientId/invoices/:invoiceId/cancel',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: 'Cancel an open invoice',
        params: invoiceParams,
        response: { 200: data(invoiceSchema) },
      },
    },
    async (request) => ({ data: await invoices.cancel(request.userId, request.params.clientId, request.params.invoiceId) }),
  );

  app.get(
    '/clients/:clientId/invoices/:invoiceId/qr_code',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: "The invoice's QR code: PNG, or SVG when the Accept header prefers image/svg+xml",
        params: invoiceParams,
        querystring: z.object({
          hexColor: z
            .string()
            .regex(/^#?[0-9a-fA-F]{6}$/, 'validation.color')
            .optional(),
        }),
      },
    },
    async (request, reply) => {
      const format = pickQrFormat(request.headers.accept);
      const qr = await invoices.qrCode(request.userId, request.params.clientId, request.params.invoiceId, {
        hexColor: request.query.hexColor,
        format,
      });
      return reply.type(qr.mime).header('Cache-Control', 'private, max-age=3600').header('Vary', 'Accept').send(qr.body);
    },
  );

  app.get(
    '/public/invoices/:invoiceId',
    {
      onRequest: perIp('public-invoice', 120),
      schema: {
        tags,
        summary: 'What a payer sees of an invoice',
        params: publicParams,
        response: { 200: data(publicInvoiceSchema) },
      },
    },
    async (request) => {
      const invoice = await invoices.publicInvoice(request.params.invoiceId);
      if (!invoice) throw new AppError('not_found');
      return { data: invoice };
    },
  );

  app.post(
    '/public/invoices/:invoiceId/payments',
    {
      onRequest: perIp('pay-invoice', 30),
      preHandler: [app.requireHuman, app.limitCheckouts],
      schema: {
        tags,
        summary: 'Open a checkout for an open invoice (send an Idempotency-Key)',
        params: publicParams,
        headers: z.object({ 'idempotency-key': z.string().trim().min(8, 'validation.valid').max(100, 'validation.valid') }),
        body: payInvoiceBody,
        response: { 201: data(publicPaymentSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await invoices.pay(request.params.invoiceId, request.headers['idempotency-key'], acceptedLocale(request)),
      }),
  );
};

/** The payer's pages in path form: the light public app with the invoice inlined. */
export const invoicePagesRoutes: FastifyPluginAsyncZod<{ invoices: InvoicesService }> = async (app, { invoices }) => {
  const limit = app.rateLimit({ max: 240, timeWindow: MINUTE });
  // Any id is accepted here: an unknown one gets the page that says the link is no longer active.
  const params = z.object({ invoiceId: z.string().max(100) });
  for (const path of ['/invoice/:invoiceId', '/invoice/:invoiceId/success', '/invoice/:invoiceId/canceled']) {
    app.get(path, { onRequest: limit, schema: { hide: true, params } }, async (request, reply) => {
      const { invoiceId } = request.params;
      const invoice = z.uuid().safeParse(invoiceId).success ? await invoices.publicInvoice(invoiceId) : null;
      // A language prefix (`/lv/invoice/…`) decides the page's language, else the visitor's stored choice or browser:
      // the head a messenger previews and the page the script hydrates are in the same one, the payer's.
      const locale = requestLocale(request);
      if (!pathLocale(request.url)) reply.header('vary', 'Accept-Language, Cookie');
      return sendShell(reply, {
        entry: 'public.html',
        locale,
        title: invoice
          ? t('payment:invoice.meta_title', { name: invoice.recipient.public_name }, locale)
          : t('payment:meta.generic_title', {}, locale),
        description: invoice ? invoice.description : t('payment:meta.description', {}, locale),
        path: `/invoice/${invoiceId}`,
        data: { invoice, locale },
        status: invoice ? 200 : 404,
      });
    });
  }
};
