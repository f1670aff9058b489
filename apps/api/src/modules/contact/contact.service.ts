import type { z } from 'zod';
import type { Locale } from '@tipcard/shared/constants';
import type { contactBody } from '@tipcard/shared/site/schemas';
import { AppError } from '../../lib/app-error.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';
import type { SupportService } from '../support/support.service.ts';

type ContactMessage = z.output<typeof contactBody>;

export interface ContactService {
  /** Whether a message can be answered: the visitor is answered by e-mail, so one must be able to leave. */
  enabled: boolean;
  send(message: Omit<ContactMessage, 'turnstile_token'>, meta: { locale: Locale }): Promise<void>;
}

/**
 * The contact form becomes a ticket in the back office's support inbox (answered by e-mail to the visitor, in their
 * language). When support has a mailbox (`SUPPORT_EMAIL`), it is also told by e-mail, in the same transaction, with
 * the visitor as Reply-To and the ticket's link.
 */
export function createContactService(options: {
  support: Pick<SupportService, 'openFromContactForm'>;
  messages: Pick<MessagingService, 'enqueueEmail'>;
  canEmail: boolean;
  /** Support's mailbox, told of each message; undefined: the inbox alone. */
  mailbox: string | undefined;
  publicUrl: string;
}): ContactService {
  const { support, messages, canEmail, mailbox, publicUrl } = options;
  return {
    enabled: canEmail,
    async send(message, meta) {
      if (!canEmail) throw new AppError('unavailable');
      await support.openFromContactForm({ ...message, language: meta.locale }, async (tx, ticketId) => {
        if (!mailbox) return;
        await messages.enqueueEmail(tx, {
          to: mailbox,
          replyTo: message.email,
          // Support reads English; the visitor's language is noted so the answer can be in it.
          subject: `Contact form: ${message.name}`,
          text: [
            `From: ${message.name} <${message.email}>`,
            `Language: ${meta.locale}`,
            `In the support inbox: ${publicUrl}/ops/#/tickets/${ticketId}`,
            '',
            message.message,
          ].join('\n'),
        });
      });
    },
  };
}
