import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

/** Checks a token from a Turnstile-compatible widget; the vendor behind it is chosen by configuration. */
export interface HumanVerifier {
  verify(token: string, ip: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * `preHandler: app.requireHuman` lets a request through only with a valid anti-bot token, read from the
     * `cf-turnstile-response` header or the `turnstile_token` body field. A no-op when no verifier is configured.
     */
    requireHuman(request: FastifyRequest): Promise<void>;
  }
}

export const TURNSTILE_HEADER = 'cf-turnstile-response';

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers[TURNSTILE_HEADER];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const body = request.body as { turnstile_token?: unknown } | null | undefined;
  return typeof body?.turnstile_token === 'string' && body.turnstile_token.trim() ? body.turnstile_token.trim() : undefined;
}

export const antiBotPlugin = fp(async (app: FastifyInstance, options: { verifier: HumanVerifier | undefined }) => {
  const { verifier } = options;
  app.decorate('requireHuman', async (request: FastifyRequest) => {
    if (!verifier) return;
    const token = tokenOf(request);
    if (!token || !(await verifier.verify(token, request.ip))) throw new AppError('bot_check_failed');
  });
});
