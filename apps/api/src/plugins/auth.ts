import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import { verifyAccessToken, type AccessTokenClaims, type AccessTokenKeys } from '../modules/auth/auth.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; routes behind it can rely on it. */
    userId: string;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

/** Whether the user's sessions still stand for a token issued under this session version (auth service). */
export type SessionCheck = (claims: AccessTokenClaims) => Promise<boolean>;

/**
 * `onRequest: app.authenticate` guards a route with the bearer access token (401 otherwise), uncacheable. A valid
 * signature is not enough: the user's sessions must still stand (not ended by a deletion, not blocked), asked of the
 * database on every call (one primary-key read) so no route serves a token whose session has ended.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: { keys: AccessTokenKeys; clock: Clock; sessionIsLive: SessionCheck }) => {
    app.decorateRequest('userId', '');
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      // A signed-in answer (the phone on /me, balances, history) is this user's alone: no cache may keep it.
      reply.header('cache-control', 'no-store');
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
      const claims = token ? await verifyAccessToken(options.keys, token, options.clock.now()) : null;
      if (!claims || !(await options.sessionIsLive(claims))) throw new AppError('unauthorized');
      request.userId = claims.userId;
    });
  },
);
