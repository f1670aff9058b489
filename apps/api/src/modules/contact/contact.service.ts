import type { z } from 'zod';
import type { contactBody } from '@tipcard/shared/site/schemas';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer } from '../messaging/mailer.ts';

type ContactMessage = z.output<typeof contactBody>;

export interface ContactService {
  /** Whether a message can reach support (a recipient and a way to send e-mail are configured). */
  enabled: boolean;
  send(message: Omit<ContactMessage, 'turnstile_token'>, meta: { locale: string }): Promise<void>;
}

/**
 * The contact form becomes one e-mail to support. Nothing is stored here: the message lives in support's mailbox
 * (and, in development, in the dev outbox), and a reply goes straight to the visitor's address.
 */
export function createContactService(options: { mailer: Mailer | undefined; recipient: string | undefined }): ContactService {
  const { mailer, recipient } = options;
  return {
    enabled: Boolean(mailer && recipient),
    async send(message, meta) {
      if (!mailer || !recipient) throw new AppError('unavailable');
      await mailer.send({
        to: recipient,
        replyTo: message.email,
        // Support reads English; the visitor's language is noted so the answer can be in it.
        subject: `Contact form: ${message.name}`,
        text: [`From: ${message.name} <${message.email}>`, `Language: ${meta.locale}`, '', message.message].join('\n'),
      });
    },
  };
}
