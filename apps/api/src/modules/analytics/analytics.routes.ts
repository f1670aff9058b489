import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analyticsEventBody } from '@tipcard/shared/site/schemas';
import type { AnalyticsService } from './analytics.service.ts';

/** A browser sends a page view per navigation: generous, but bounded. */
const EVENTS_PER_MINUTE = 60;

export const analyticsRoutes: FastifyPluginAsyncZod<{ analytics: AnalyticsService }> = async (app, { analytics }) => {
  app.post(
    '/analytics/events',
    {
      onRequest: app.rateLimit({
        max: EVENTS_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (request) => `analytics:ip:${request.ip}`,
      }),
      schema: {
        tags: ['site'],
        summary: 'First-party analytics: one page view or advert visit (sent only with consent)',
        body: analyticsEventBody,
      },
    },
    async (request, reply) => {
      await analytics.record(request.body);
      return reply.status(204).send();
    },
  );
};
