import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tipAnswerBody, tipAnswerStateSchema } from '@tipcard/shared/transactions/schemas';
import { data } from '../../lib/envelope.ts';
import type { TipsService } from './tips.service.ts';

const params = z.object({ clientId: z.uuid(), transactionId: z.uuid() });
const MINUTE = 60_000;
/** Answers per user and minute: each is one per tip anyway; the limit stops a script mailing guests in a burst. */
const ANSWERS_PER_MINUTE = 10;

/** A recipient's one answer to a guest's message, from the tip's line in their history (decision 0047). */
export const tipAnswersRoutes: FastifyPluginAsyncZod<{ tips: TipsService }> = async (app, { tips }) => {
  const owner = { onRequest: app.authenticate };
  const tags = ['transactions'];
  const security = [{ bearer: [] }];

  app.get(
    '/clients/:clientId/transactions/:transactionId/answer',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: "Whether the guest's message on a received tip can be answered, and the answer once given",
        params,
        response: { 200: data(tipAnswerStateSchema) },
      },
    },
    async (request) => ({
      data: await tips.answerState(request.userId, request.params.clientId, request.params.transactionId),
    }),
  );

  app.post(
    '/clients/:clientId/transactions/:transactionId/answer',
    {
      ...owner,
      // After authentication, so the limit is per user.
      preHandler: app.rateLimit({
        max: ANSWERS_PER_MINUTE,
        timeWindow: MINUTE,
        keyGenerator: (request) => `tip-answer:${request.userId}`,
      }),
      schema: {
        tags,
        security,
        summary: "Answer the guest's message once, by e-mail (neither side sees the other's address)",
        params,
        body: tipAnswerBody,
        response: { 201: data(tipAnswerStateSchema) },
      },
    },
    async (request, reply) => {
      const state = await tips.answer(request.userId, request.params.clientId, request.params.transactionId, request.body.text);
      return reply.status(201).send({ data: state });
    },
  );
};
