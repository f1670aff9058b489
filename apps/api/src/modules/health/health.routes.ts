import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { data } from '../../lib/envelope.ts';
import type { HealthService } from './health.service.ts';

const statusSchema = data(z.object({ status: z.literal('ok') }));

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'The process is up', response: { 200: statusSchema } } },
    async () => ({
      data: { status: 'ok' as const },
    }),
  );

  app.get(
    '/ready',
    { schema: { tags: ['health'], summary: 'The database answers', response: { 200: statusSchema } } },
    async () => {
      if (!(await health.databaseReachable())) throw new AppError('unavailable');
      return { data: { status: 'ok' as const } };
    },
  );
};
