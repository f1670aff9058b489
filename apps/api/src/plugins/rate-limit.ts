import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { AppError } from '../lib/app-error.ts';

/** The hooks `app.rateLimit` made, so the OpenAPI document can tell which operations may answer 429. */
const rateLimitHooks = new WeakSet<object>();

export function isRateLimitHook(hook: unknown): boolean {
  return typeof hook === 'function' && rateLimitHooks.has(hook);
}

/**
 * Registers @fastify/rate-limit without a global limit: routes opt in with `app.rateLimit({...})` hooks, so one
 * route can be limited per IP and per phone. Counters live in Redis when REDIS_URL is set, shared by every instance.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance, options: { redisUrl: string | undefined; nameSpace: string }) => {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { connectTimeout: 2_000, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: options.nameSpace } : {}),
    // The client shows 'Too many requests'; Retry-After is set by the plugin before this error is thrown.
    errorResponseBuilder: () => new AppError('too_many_requests'),
  });
  // The plugin's hooks are anonymous closures: wrapping the decorator every route calls is the one place to mark them.
  const createHook = app.rateLimit;
  app.rateLimit = ((options) => {
    const hook = createHook(options);
    rateLimitHooks.add(hook);
    return hook;
  }) as typeof app.rateLimit;
});
