import nodemailer from 'nodemailer';
import type { Mailer } from '../../modules/messaging/mailer.ts';

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` or `smtps://…:465`. */
  url: string;
  from: string;
}

/** E-mail through any SMTP server (SMTP_URL). */
export function createSmtpMailer(settings: SmtpSettings, transport = nodemailer.createTransport(settings.url)): Mailer {
  return {
    async send(mail) {
      await transport.sendMail({
        from: settings.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
      });
    },
  };
}
