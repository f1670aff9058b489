import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { data } from '../../lib/envelope.ts';
import type { HealthService, PingableRedis } from './health.service.ts';

const statusSchema = data(z.object({ status: z.literal('ok') }));

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService; redis: PingableRedis | undefined }> = async (
  app,
  { health, redis },
) => {
  // Liveness: the process answers. No I/O, so a slow database never gets a healthy instance restarted.
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'The process is up', response: { 200: statusSchema } } },
    async () => ({
      data: { status: 'ok' as const },
    }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'The database and Redis (when configured) answer and every migration is applied',
        response: { 200: statusSchema },
      },
    },
    async () => {
      const problems = await health.readinessProblems(redis);
      // Names of dependencies only, nothing about their addresses: the probe is reachable by anyone.
      if (problems.length > 0) throw new AppError('unavailable', { message: `Not ready: ${problems.join(', ')}` });
      return { data: { status: 'ok' as const } };
    },
  );
};
