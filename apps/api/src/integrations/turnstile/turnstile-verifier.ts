import type { FastifyBaseLogger } from 'fastify';
import type { HumanVerifier } from '../../plugins/anti-bot.ts';

export interface TurnstileSettings {
  secret: string;
  /** Cloudflare's siteverify endpoint, or any service that answers the same way. */
  verifyUrl: string;
  timeoutMs?: number;
  log?: FastifyBaseLogger;
}

/**
 * Cloudflare Turnstile's server-side check (POST secret, response, remoteip → `{ success }`). It fails closed: when
 * the service cannot be reached the request is refused, since letting bots through is the failure we guard against.
 */
export function createTurnstileVerifier({ secret, verifyUrl, timeoutMs = 5_000, log }: TurnstileSettings): HumanVerifier {
  return {
    async verify(token, ip) {
      try {
        const response = await fetch(verifyUrl, {
          method: 'POST',
          body: new URLSearchParams({ secret, response: token, remoteip: ip }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) {
          log?.warn({ status: response.status }, 'anti-bot verification answered an error');
          return false;
        }
        const result = (await response.json()) as { success?: unknown };
        return result.success === true;
      } catch (error) {
        log?.warn({ err: error }, 'anti-bot verification failed');
        return false;
      }
    },
  };
}
