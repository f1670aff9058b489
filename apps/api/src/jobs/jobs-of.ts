import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createSmtpMailer } from '../integrations/smtp/smtp-mailer.ts';
import { createTwilioSmsSender } from '../integrations/twilio/twilio-sms-sender.ts';
import { createOutboxMailer, type Mailer } from '../modules/messaging/mailer.ts';
import { createMessageDeliveryJob } from '../modules/messaging/messaging.jobs.ts';
import { createOutboxSmsSender, type SmsSender } from '../modules/messaging/sms-sender.ts';
import { createSandboxRail } from '../modules/payouts/payout-rail.ts';
import { payoutJobs } from '../modules/payouts/payouts.jobs.ts';
import { tipJobs } from '../modules/transactions/transactions.jobs.ts';
import type { Job } from './job.ts';

export interface MessageSenders {
  sms: SmsSender;
  /** None in production without SMTP_URL: e-mail is then off (the contact form says so). */
  mailer: Mailer | undefined;
}

/** The senders the delivery job hands messages to: the configured vendors, or outside production the dev outbox. */
export function messageSendersOf(config: Config, log: FastifyBaseLogger): MessageSenders {
  return {
    sms: config.sms.provider === 'twilio' ? createTwilioSmsSender(config.sms) : createOutboxSmsSender(log),
    mailer:
      config.smtpUrl && config.mailFrom
        ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
        : config.devOutbox
          ? createOutboxMailer(log)
          : undefined,
  };
}

/** Every module's background work, for the runner in the server (WORKER=inline) and in `npm run worker`. */
export function jobsOf({
  config,
  db,
  log,
  senders,
}: {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
  senders: MessageSenders;
}): Job[] {
  return [
    ...tipJobs(db),
    ...payoutJobs({ db, log, rail: createSandboxRail(db, config.payouts.sandboxDelayMs), debtor: config.payouts.debtor }),
    createMessageDeliveryJob({ db, log, ...senders }),
  ];
}
