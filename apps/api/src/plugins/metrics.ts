import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import type { Metrics } from '../lib/metrics.ts';
import { hashesMatch } from '../lib/one-time-code.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Every answer counted by its route's pattern (`/api/cards/:id`, never the URL: ids would make a series per card),
 * and, with METRICS_TOKEN, the metrics at GET /api/metrics for `Authorization: Bearer <token>` (decision 0033).
 */
export const metricsPlugin = fp(async (app: FastifyInstance, options: { metrics: Metrics; token: string | undefined }) => {
  const { metrics, token } = options;
  app.addHook('onResponse', async (request, reply) => {
    metrics.request(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  if (!token) return;
  // Hashed first so the comparison takes the same time whatever the length of what was sent.
  const expected = sha256(token);
  app.get('/api/metrics', { schema: { hide: true } }, async (request, reply) => {
    const [scheme, given] = (request.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !given || !hashesMatch(expected, sha256(given))) {
      throw new AppError('unauthorized');
    }
    reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
});
