import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { confirmPayoutScheduleBody, payoutScheduleBody, payoutScheduleStateSchema } from '@tipcard/shared/payouts/schedules';
import { data } from '../../lib/envelope.ts';
import { acceptedLocale } from '../../lib/i18n.ts';
import type { PayoutSchedulesService } from './payout-schedules.service.ts';

const clientParams = z.object({ clientId: z.uuid() });
const MINUTE = 60_000;

/** The signed-in staff member's automatic payouts (issue 31); the rules live in the service. */
export const payoutSchedulesRoutes: FastifyPluginAsyncZod<{ schedules: PayoutSchedulesService }> = async (app, { schedules }) => {
  /** Per user: setting a schedule texts a code, and the code is also capped per change. */
  const perUser = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:user:${request.userId || request.ip}` });
  const common = { onRequest: app.authenticate } as const;
  const secured = { tags: ['payouts'], security: [{ bearer: [] }] };
  const url = '/clients/:clientId/payout-schedule';

  app.get(
    url,
    {
      ...common,
      schema: {
        ...secured,
        summary: 'The automatic payout schedule, a change waiting for its code, and the last run',
        params: clientParams,
        response: { 200: data(payoutScheduleStateSchema) },
      },
    },
    async (request) => ({ data: await schedules.get(request.userId, request.params.clientId) }),
  );

  app.put(
    url,
    {
      ...common,
      preHandler: perUser('payout-schedule', 10),
      schema: {
        ...secured,
        summary: 'Set or change the schedule (weekly, monthly or above an amount); texts the code that puts it in force',
        params: clientParams,
        body: payoutScheduleBody,
        response: { 202: data(payoutScheduleStateSchema) },
      },
    },
    async (request, reply) =>
      reply.status(202).send({
        data: await schedules.set(request.userId, request.params.clientId, request.body, acceptedLocale(request)),
      }),
  );

  app.post(
    `${url}/confirm`,
    {
      ...common,
      preHandler: perUser('payout-schedule-confirm', 20),
      schema: {
        ...secured,
        summary: 'Put a schedule change in force with its SMS code',
        params: clientParams,
        body: confirmPayoutScheduleBody,
        response: { 200: data(payoutScheduleStateSchema) },
      },
    },
    async (request) => ({ data: await schedules.confirm(request.userId, request.params.clientId, request.body) }),
  );

  app.delete(
    url,
    {
      ...common,
      preHandler: perUser('payout-schedule-cancel', 20),
      schema: {
        ...secured,
        summary: 'Cancel automatic payouts (no code needed: nothing moves)',
        params: clientParams,
        response: { 200: data(payoutScheduleStateSchema) },
      },
    },
    async (request) => ({ data: await schedules.cancel(request.userId, request.params.clientId) }),
  );
};
