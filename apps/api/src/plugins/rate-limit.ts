import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { AppError } from '../lib/app-error.ts';

/** The hooks `app.rateLimit` made, so the OpenAPI document can tell which operations may answer 429. */
const rateLimitHooks = new WeakSet<object>();

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * `preHandler: app.limitCheckouts` on every route where a guest opens a checkout: one counter for the whole
     * service (CHECKOUTS_GLOBAL_PER_MINUTE), whichever card, invoice or address, against card testing spread thin.
     */
    limitCheckouts(request: FastifyRequest): Promise<void>;
    /** The instance's Redis client when REDIS_URL is set (rate-limit counters); readiness pings it. */
    redis: Redis | undefined;
  }
}

const MINUTE = 60_000;

export function isRateLimitHook(hook: unknown): boolean {
  return typeof hook === 'function' && rateLimitHooks.has(hook);
}

/**
 * Registers @fastify/rate-limit without a global limit: routes opt in with `app.rateLimit({...})` hooks, so one
 * route can be limited per IP and per phone. Counters live in Redis when REDIS_URL is set, shared by every instance;
 * `app.redis` is that client.
 */
export const rateLimitPlugin = fp(
  async (
    app: FastifyInstance,
    options: { enabled: boolean; redisUrl: string | undefined; nameSpace: string; checkoutsPerMinute: number },
  ) => {
    // Connected whenever it is configured, even with the limits off, so readiness tells a missing Redis before the
    // limits are switched on.
    const redis = options.redisUrl
      ? new Redis(options.redisUrl, { connectTimeout: 2_000, maxRetriesPerRequest: 1, lazyConnect: false })
      : undefined;
    // A client still reconnecting to a Redis that is down would hold QUIT until it gave up: drop it at once instead.
    if (redis) app.addHook('onClose', async () => void (redis.status === 'ready' ? await redis.quit() : redis.disconnect()));
    // Without a listener ioredis prints every failed reconnect to stderr; readiness reports the outage.
    redis?.on('error', (error: Error) => app.log.warn({ err: error }, 'Redis connection failed'));
    app.decorate('redis', redis);
    await app.register(rateLimit, {
      global: false,
      ...(redis && options.enabled ? { redis, nameSpace: options.nameSpace } : {}),
      // The client shows 'Too many requests'; Retry-After is set by the plugin before this error is thrown.
      errorResponseBuilder: () => new AppError('too_many_requests'),
    });
    // The plugin's hooks are anonymous closures: wrapping the decorator every route calls is the one place to mark them.
    const createHook = app.rateLimit;
    app.rateLimit = ((limitOptions) => {
      // RATE_LIMITS=off (a benchmark run, never production): a hook that lets everything through, still marked, so
      // the OpenAPI document stays the same whatever the run.
      const hook = options.enabled ? createHook(limitOptions) : async () => {};
      rateLimitHooks.add(hook);
      return hook;
    }) as typeof app.rateLimit;
    if (!options.enabled) {
      // The per-phone limits (auth.routes.ts) and the checkout counter below use the lower-level limiter.
      app.createRateLimit = () => async (request) => ({ isAllowed: true, key: request.ip });
    }

    // A second limit beside the route's per-address one: the plugin runs one `rateLimit` hook per request, so this uses
    // its lower-level limiter, made once here so that every checkout route shares the one counter.
    const checkouts = app.createRateLimit({
      max: options.checkoutsPerMinute,
      timeWindow: MINUTE,
      keyGenerator: () => 'checkouts:global',
    });
    app.decorate('limitCheckouts', async (request: FastifyRequest) => {
      const outcome = await checkouts(request);
      if (!outcome.isAllowed && outcome.isExceeded) {
        throw new AppError('too_many_requests', { headers: { 'retry-after': String(outcome.ttlInSeconds) } });
      }
    });
  },
);
