import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import { verifyAccessToken, type AccessTokenKeys } from '../modules/auth/access-token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; routes behind it can rely on it. */
    userId: string;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

/** `onRequest: app.authenticate` guards a route with the bearer access token (401 otherwise), uncacheable. */
export const authPlugin = fp(async (app: FastifyInstance, options: { keys: AccessTokenKeys; clock: Clock }) => {
  app.decorateRequest('userId', '');
  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    // A signed-in answer (the phone on /me, balances, history) is this user's alone: no cache may keep it.
    reply.header('cache-control', 'no-store');
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
    const userId = token ? await verifyAccessToken(options.keys, token, options.clock.now()) : null;
    if (!userId) throw new AppError('unauthorized');
    request.userId = userId;
  });
});
