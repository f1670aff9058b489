import type { FastifyBaseLogger } from 'fastify';

/** Sends one text message; the vendor behind it is chosen by configuration (DESIGN "messaging"). */
export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}

/**
 * The dev outbox's "sender" (SMS_PROVIDER=outbox): the message is already readable at `GET /api/dev/outbox`, so
 * delivering it is printing it to the server log, where a developer with no SMS account finds the code. Production
 * never builds this sender.
 */
export function createOutboxSmsSender(log: FastifyBaseLogger): SmsSender {
  return {
    async send(to, body) {
      log.info(`[dev outbox] SMS to ${to}: ${body}`);
    },
  };
}
