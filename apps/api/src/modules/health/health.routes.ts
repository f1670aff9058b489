import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDatabaseReachable } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';

const statusSchema = z.object({ data: z.object({ status: z.literal('ok') }) });

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { schema: { tags: ['health'], summary: 'The process is up', response: { 200: statusSchema } } }, async () => ({
    data: { status: 'ok' as const },
  }));

  app.get('/ready', { schema: { tags: ['health'], summary: 'The database answers', response: { 200: statusSchema } } }, async () => {
    if (!(await isDatabaseReachable(app.db))) throw new AppError('unavailable');
    return { data: { status: 'ok' as const } };
  });
};
