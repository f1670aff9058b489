import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicPaymentSchema } from '@tipcard/shared/payments/schemas';
import { AppError } from '../../lib/app-error.ts';
import { data } from '../../lib/envelope.ts';
import { requestLocale } from '../../lib/i18n.ts';
import { WebhookVerificationError, type ProviderName } from './payment-provider.ts';
import type { PaymentsService } from './payments.service.ts';

const MINUTE = 60_000;

/** The payer's view of a payment and the providers' webhooks, under /api. */
export const paymentsRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService }> = async (app, { payments }) => {
  const perIp = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:ip:${request.ip}` });

  app.get(
    '/public/payments/:paymentId',
    {
      onRequest: perIp('public-payment', 240),
      schema: {
        tags: ['payments'],
        summary: 'A payment as its guest sees it (the return page polls it)',
        params: z.object({ paymentId: z.uuid() }),
        response: { 200: data(publicPaymentSchema) },
      },
    },
    async (request) => ({ data: await payments.getPublicPayment(request.params.paymentId, requestLocale(request)) }),
  );

  // Webhooks need the exact bytes the provider signed.
  await app.register(async (scope) => {
    const webhooks = scope.withTypeProvider<ZodTypeProvider>();
    webhooks.removeContentTypeParser(['application/json']);
    webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhooks.post(
      '/webhooks/:provider',
      {
        schema: { tags: ['payments'], summary: 'Provider events', params: z.object({ provider: z.enum(['sandbox', 'stripe']) }) },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) throw new AppError('invalid_webhook');
        try {
          const outcome = await payments.handleWebhook(request.params.provider as ProviderName, request.body, request.headers);
          return { data: { received: true, outcome } };
        } catch (error) {
          if (error instanceof WebhookVerificationError) throw new AppError('invalid_webhook');
          throw error;
        }
      },
    );
  });
};
