import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  confirmPayoutBody,
  createClosingPayoutBody,
  createPayoutBody,
  payeeCheckSchema,
  payoutMethodBody,
  payoutMethodSchema,
  payoutSchema,
  payoutTermsSchema,
} from '@tipcard/shared/payouts/schemas';
import { acceptedLocale } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import type { PayoutMethodsService } from './payout-methods.service.ts';
import type { PayoutsService } from './payouts.service.ts';

const clientParams = z.object({ clientId: z.uuid() });
const idParams = z.object({ id: z.uuid() });
const MINUTE = 60_000;

/** Payout methods and withdrawals of the signed-in staff member (issue 4); the rules live in the services. */
export const payoutsRoutes: FastifyPluginAsyncZod<{ payouts: PayoutsService; methods: PayoutMethodsService }> = async (
  app,
  { payouts, methods },
) => {
  /** Per user: code guessing is also capped per payout, this keeps scripted clients from hammering the SMS sender. */
  const perUser = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:user:${request.userId || request.ip}` });
  const common = { onRequest: app.authenticate } as const;
  const secured = { tags: ['payouts'], security: [{ bearer: [] }] };

  app.get(
    '/clients/:clientId/payout-methods',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Payout methods, masked',
        params: clientParams,
        response: { 200: data(z.array(payoutMethodSchema)) },
      },
    },
    async (request) => ({ data: await methods.list(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/payout-methods',
    {
      ...common,
      preHandler: perUser('payout-method', 20),
      schema: {
        ...secured,
        summary:
          'Add a SEPA or UK payout method (the first becomes the default); the payee-name check is asked again and anything but a match needs confirm_mismatch',
        params: clientParams,
        body: payoutMethodBody,
        response: { 201: data(payoutMethodSchema) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await methods.add(request.userId, request.params.clientId, request.body, acceptedLocale(request)) }),
  );

  app.post(
    '/clients/:clientId/payout-methods/check',
    {
      ...common,
      // Each check costs a request to the account's bank, and a close match names who holds an account.
      preHandler: perUser('payee-check', 10),
      schema: {
        ...secured,
        summary:
          "Ask the account's bank whether the holder's name matches (Verification of Payee for an IBAN, Confirmation of Payee for a UK account); nothing is saved",
        params: clientParams,
        body: payoutMethodBody,
        response: { 200: data(payeeCheckSchema) },
      },
    },
    async (request) => ({ data: await methods.checkPayee(request.userId, request.params.clientId, request.body) }),
  );

  app.delete(
    '/payout-methods/:id',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Delete a payout method',
        params: idParams,
        response: { 200: data(z.object({ deleted: z.literal(true) })) },
      },
    },
    async (request) => {
      await methods.remove(request.userId, request.params.id, acceptedLocale(request));
      return { data: { deleted: true as const } };
    },
  );

  app.post(
    '/payout-methods/:id/default',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Make a payout method the default',
        params: idParams,
        response: { 200: data(payoutMethodSchema) },
      },
    },
    async (request) => ({ data: await methods.makeDefault(request.userId, request.params.id, acceptedLocale(request)) }),
  );

  app.get(
    '/clients/:clientId/payouts/terms',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Minimum, fee, main balance, largest amount and expected arrival',
        params: clientParams,
        response: { 200: data(payoutTermsSchema) },
      },
    },
    async (request) => ({ data: await payouts.terms(request.userId, request.params.clientId) }),
  );

  app.get(
    '/clients/:clientId/payouts',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Payout history, newest first',
        params: clientParams,
        response: { 200: data(z.array(payoutSchema)) },
      },
    },
    async (request) => ({ data: await payouts.list(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/payouts',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Request a withdrawal; texts the confirmation code (send an Idempotency-Key)',
        params: clientParams,
        headers: z.object({ 'idempotency-key': z.string().trim().min(8, 'validation.valid').max(100, 'validation.valid') }),
        body: createPayoutBody,
        response: { 201: data(payoutSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await payouts.create(
          request.userId,
          request.params.clientId,
          request.body,
          request.headers['idempotency-key'],
          acceptedLocale(request),
        ),
      }),
  );

  app.post(
    '/clients/:clientId/closing-payouts',
    {
      ...common,
      schema: {
        ...secured,
        summary:
          'Ask for a closing payout of the whole balance (no minimum, the fee capped; decision 0025); texts its code, which the deletion statement confirms (send an Idempotency-Key)',
        params: clientParams,
        headers: z.object({ 'idempotency-key': z.string().trim().min(8, 'validation.valid').max(100, 'validation.valid') }),
        body: createClosingPayoutBody,
        response: { 201: data(payoutSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await payouts.createClosing(
          request.userId,
          request.params.clientId,
          request.body,
          request.headers['idempotency-key'],
          acceptedLocale(request),
        ),
      }),
  );

  app.get(
    '/payouts/:id',
    { ...common, schema: { ...secured, summary: 'One payout', params: idParams, response: { 200: data(payoutSchema) } } },
    async (request) => ({ data: await payouts.get(request.userId, request.params.id) }),
  );

  app.post(
    '/payouts/:id/confirm',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Confirm a withdrawal with its SMS code; moves the money',
        params: idParams,
        body: confirmPayoutBody,
        response: { 200: data(payoutSchema) },
      },
    },
    async (request) => ({ data: await payouts.confirm(request.userId, request.params.id, request.body.code) }),
  );

  app.post(
    '/payouts/:id/resend',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Text a new code after the 60-second wait',
        params: idParams,
        response: { 200: data(payoutSchema) },
      },
    },
    async (request) => ({ data: await payouts.resend(request.userId, request.params.id, acceptedLocale(request)) }),
  );
};
