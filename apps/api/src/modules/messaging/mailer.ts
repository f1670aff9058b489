import type { FastifyBaseLogger } from 'fastify';

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

/** The dev outbox shows one text per message, so the headers a reader needs go on top of the body. */
export function outboxBodyOf(mail: Mail): string {
  return [`Subject: ${mail.subject}`, ...(mail.replyTo ? [`Reply-To: ${mail.replyTo}`] : []), '', mail.text].join('\n');
}

/**
 * The dev outbox's "mailer" when no SMTP_URL is set: the e-mail is already readable at `GET /api/dev/outbox`, so
 * delivering it is a line in the server log. Production never builds this mailer.
 */
export function createOutboxMailer(log: FastifyBaseLogger): Mailer {
  return {
    async send(mail) {
      log.info(`[dev outbox] e-mail to ${mail.to}: ${mail.subject}`);
    },
  };
}
