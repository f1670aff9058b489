import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { venueCardSchema, venuePercentagesBody, venuePercentagesSchema } from '@tipcard/shared/venue-tips/schemas';
import { data } from '../../lib/envelope.ts';
import type { VenueTipsService } from './venue-tips.service.ts';

const workplaceParams = z.object({ workplaceId: z.uuid() });
const MINUTE = 60_000;

/** The venue card and the percentages between the venue's teams (decision 0058); the rules live in the service. */
export const venueTipsRoutes: FastifyPluginAsyncZod<{ venueTips: VenueTipsService }> = async (app, { venueTips }) => {
  const perUser = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:user:${request.userId || request.ip}` });
  const common = { onRequest: app.authenticate } as const;
  const secured = { tags: ['teams'], security: [{ bearer: [] }] };

  app.get(
    '/workplaces/:workplaceId/venue-card',
    {
      ...common,
      preHandler: perUser('venue-card', 60),
      schema: {
        ...secured,
        summary: "The venue's card for the whole place, made on first need (venue admin)",
        params: workplaceParams,
        response: { 200: data(venueCardSchema) },
      },
    },
    async (request) => ({ data: await venueTips.venueCard(request.userId, request.params.workplaceId) }),
  );

  app.get(
    '/workplaces/:workplaceId/percentages',
    {
      ...common,
      schema: {
        ...secured,
        summary: "The percentages between the venue's teams in force (members of the venue)",
        params: workplaceParams,
        response: { 200: data(venuePercentagesSchema) },
      },
    },
    async (request) => ({ data: await venueTips.percentages(request.userId, request.params.workplaceId) }),
  );

  app.put(
    '/workplaces/:workplaceId/percentages',
    {
      ...common,
      preHandler: perUser('venue-percentages', 30),
      schema: {
        ...secured,
        summary: "Set the percentages between the venue's teams: a new version in force from now (venue admin)",
        params: workplaceParams,
        body: venuePercentagesBody,
        response: { 200: data(venuePercentagesSchema) },
      },
    },
    async (request) => ({
      data: await venueTips.setPercentages(request.userId, request.params.workplaceId, request.body),
    }),
  );
};
