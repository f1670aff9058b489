import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { fromThisSite } from '../../lib/same-site.ts';
import { requestLocale, requestTextLanguage } from '../../lib/i18n.ts';
import { EMAIL_OUTCOMES, type EmailOutcome, type ReceiptsService } from './receipts.service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A receipt is the payer's own: never kept by a shared cache, never indexed, never sent on as a referrer. */
const privately = (reply: FastifyReply) =>
  reply
    .header('cache-control', 'private, no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    .header('referrer-policy', 'no-referrer')
    .header('vary', 'Accept-Language, Cookie');

/**
 * The payer's receipt at its signed link (docs/decisions/0042), registered at the root and under each language
 * prefix (`/fr/receipts/…`), which then decides the language: the page, its PDF and its e-mail form. Anything we did
 * not sign is a neutral 404 page that names nothing. Outside production, the `locale=pseudo` cookie draws the page in
 * the pseudo-locale for the sweep (decision 0035).
 */
export const receiptPagesRoutes: FastifyPluginAsyncZod<{ receipts: ReceiptsService; pseudoLocale: boolean }> = async (
  app,
  { receipts, pseudoLocale },
) => {
  await app.register(formbody);
  const limit = app.rateLimit({ max: 120, timeWindow: MINUTE });
  const params = z.object({ token: z.string().max(100) });
  const query = z.object({ email: z.string().max(20).optional() });

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    privately(reply)
      .status(404)
      .type('text/html; charset=utf-8')
      .send(receipts.notFoundPage(requestTextLanguage(request, pseudoLocale)));

  app.get(
    '/receipts/:token',
    { onRequest: limit, schema: { hide: true, params, querystring: query } },
    async (request, reply) => {
      const outcome = (EMAIL_OUTCOMES as readonly string[]).includes(request.query.email ?? '')
        ? (request.query.email as EmailOutcome)
        : null;
      try {
        const html = await receipts.pageOf(request.params.token, requestTextLanguage(request, pseudoLocale), outcome);
        return privately(reply).type('text/html; charset=utf-8').send(html);
      } catch (error) {
        if (error instanceof AppError && error.code === 'not_found') return notFound(request, reply);
        throw error;
      }
    },
  );

  app.get('/receipts/:token/receipt.pdf', { onRequest: limit, schema: { hide: true, params } }, async (request, reply) => {
    try {
      const pdf = await receipts.pdfOf(request.params.token, requestLocale(request));
      return privately(reply)
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.filename}"`)
        .send(pdf.content);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return notFound(request, reply);
      throw error;
    }
  });

  // The receipt by e-mail, a plain form: limited per receipt, so sending many takes as many payments.
  const perReceipt = app.rateLimit({
    max: 3,
    timeWindow: HOUR,
    keyGenerator: (request) => `receipt:email:${String((request.params as { token?: unknown }).token).slice(0, 100)}`,
  });
  app.post('/receipts/:token/email', { schema: { hide: true, params } }, async (request, reply) => {
    if (!fromThisSite(request, app.config.publicUrl)) throw new AppError('forbidden');
    const { token } = request.params;
    const view = await receipts.viewOfToken(token).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    });
    if (!view) return notFound(request, reply);
    const back = (outcome: EmailOutcome) => reply.redirect(`${app.prefix}/receipts/${token}?email=${outcome}`, 303);
    const { email } = (request.body ?? {}) as { email?: unknown };
    const address = typeof email === 'string' ? email.trim() : '';
    if (!EMAIL.test(address) || address.length > 254) return back('invalid');
    try {
      await perReceipt.call(app, request, reply);
    } catch (error) {
      if (error instanceof AppError && error.code === 'too_many_requests') return back('rate_limited');
      throw error;
    }
    await receipts.sendTo(view.paymentId, address, requestLocale(request));
    return back('sent');
  });
};
