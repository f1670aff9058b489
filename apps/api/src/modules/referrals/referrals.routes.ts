import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { referralFriendSchema, referralInviterSchema, referralSummarySchema } from '@tipcard/shared/referrals/schemas';
import { data } from '../../lib/envelope.ts';
import type { ReferralsService } from './referrals.service.ts';

const clientParams = z.object({ clientId: z.uuid() });
const codeParams = z.object({ code: z.string().min(1).max(32) });
const MINUTE = 60_000;

/** The referral programme of the signed-in user (issue 12; DESIGN "Calls the spec does not show"). */
export const referralsRoutes: FastifyPluginAsyncZod<{ referrals: ReferralsService }> = async (app, { referrals }) => {
  const common = { onRequest: app.authenticate } as const;
  const secured = { tags: ['referrals'], security: [{ bearer: [] }] };

  app.get(
    '/clients/:clientId/referrals',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'The referral link and code, what was earned and what is pending, and the rule',
        params: clientParams,
        response: { 200: data(referralSummarySchema) },
      },
    },
    async (request) => ({ data: await referrals.summary(request.userId, request.params.clientId) }),
  );

  app.get(
    '/clients/:clientId/referrals/list',
    {
      ...common,
      schema: {
        ...secured,
        summary: 'Invited friends, newest first, with status and earnings',
        params: clientParams,
        response: { 200: data(z.array(referralFriendSchema)) },
      },
    },
    async (request) => ({ data: await referrals.list(request.userId, request.params.clientId) }),
  );

  app.get(
    '/public/referrals/:code',
    {
      // Codes are 8 characters from 32: a guessing visitor meets this limit long before a code.
      onRequest: app.rateLimit({ max: 30, timeWindow: MINUTE }),
      schema: {
        tags: ['referrals'],
        summary: "Who invites the visitor of a referral link: the referrer's public name (404 for an unknown code)",
        params: codeParams,
        response: { 200: data(referralInviterSchema) },
      },
    },
    async (request) => ({ data: await referrals.inviter(request.params.code) }),
  );
};
