import type { z } from 'zod';
import type { contactBody } from '@tipcard/shared/site/schemas';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';

type ContactMessage = z.output<typeof contactBody>;

export interface ContactService {
  /** Whether a message can reach support (a recipient and a way to send e-mail are configured). */
  enabled: boolean;
  send(message: Omit<ContactMessage, 'turnstile_token'>, meta: { locale: string }): Promise<void>;
}

/**
 * The contact form becomes one e-mail to support, queued in the outbox. Nothing else is stored here: the message
 * lives in support's mailbox (and, in development, in the dev outbox), and a reply goes straight to the visitor.
 */
export function createContactService(options: {
  db: Database;
  messages: Pick<MessagingService, 'enqueueEmail'>;
  /** Support's address; undefined when it is unset or no e-mail can be sent, which turns the form off. */
  recipient: string | undefined;
}): ContactService {
  const { db, messages, recipient } = options;
  return {
    enabled: Boolean(recipient),
    async send(message, meta) {
      if (!recipient) throw new AppError('unavailable');
      await messages.enqueueEmail(db, {
        to: recipient,
        replyTo: message.email,
        // Support reads English; the visitor's language is noted so the answer can be in it.
        subject: `Contact form: ${message.name}`,
        text: [`From: ${message.name} <${message.email}>`, `Language: ${meta.locale}`, '', message.message].join('\n'),
      });
    },
  };
}
