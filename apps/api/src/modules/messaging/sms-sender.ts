import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { insertOutboxMessage } from './outbox.repository.ts';

/** Sends one text message; the vendor behind it is chosen by configuration (DESIGN "messaging"). */
export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}

/**
 * The dev outbox: outside production every SMS is kept for `GET /api/dev/outbox` and printed to the server log, so
 * a developer can sign in with no SMS account. Production never builds this sender.
 */
export function createOutboxSmsSender(db: Database, log: FastifyBaseLogger): SmsSender {
  return {
    async send(to, body) {
      await insertOutboxMessage(db, { channel: 'sms', recipient: to, body });
      log.info(`[dev outbox] SMS to ${to}: ${body}`);
    },
  };
}
