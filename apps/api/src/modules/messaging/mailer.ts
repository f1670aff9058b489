import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { insertOutboxMessage } from './outbox.repository.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Where an answer goes, e.g. the visitor who wrote through the contact form. */
  replyTo?: string;
}

/** Sends one e-mail; SMTP when configured, the dev outbox otherwise (DESIGN "Configuration and modes"). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** The outbox keeps one text per message, so the headers a reader needs go on top of the body. */
export function outboxBodyOf(mail: Mail): string {
  return [`Subject: ${mail.subject}`, ...(mail.replyTo ? [`Reply-To: ${mail.replyTo}`] : []), '', mail.text].join('\n');
}

/** Outside production every e-mail is kept for `GET /api/dev/outbox`; production never builds this mailer. */
export function createOutboxMailer(db: Database, log: FastifyBaseLogger): Mailer {
  return {
    async send(mail) {
      await insertOutboxMessage(db, { channel: 'email', recipient: mail.to, body: outboxBodyOf(mail) });
      log.info(`[dev outbox] e-mail to ${mail.to}: ${mail.subject}`);
    },
  };
}
