import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Listen } from './db/client.ts';
import { primaryReads, type ReadRouter } from './db/read-replica.ts';
import { createSandboxPayeeCheck } from './integrations/sandbox-payee-check/sandbox-payee-check.ts';
import { createSmtpMailer } from './integrations/smtp/smtp-mailer.ts';
import { createTurnstileVerifier } from './integrations/turnstile/turnstile-verifier.ts';
import { createTwilioSmsSender } from './integrations/twilio/twilio-sms-sender.ts';
import type { Job } from './jobs/job.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createErrorReporter } from './lib/error-reporting.ts';
import { createMetrics } from './lib/metrics.ts';
import { createBalancesService } from './modules/balances/balances.service.ts';
import { createAnalyticsService } from './modules/analytics/analytics.service.ts';
import { accessTokenKeys } from './modules/auth/access-token.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createOtpService } from './modules/auth/otp.service.ts';
import { createCardsService } from './modules/cards/cards.service.ts';
import { createCardOrdersJobs } from './modules/card-orders/card-orders.jobs.ts';
import { createCardOrderHandler, createCardOrdersService } from './modules/card-orders/card-orders.service.ts';
import { createReferralJobs } from './modules/referrals/referrals.jobs.ts';
import { createReferralsService, takeBackRewardsNoLongerEarned } from './modules/referrals/referrals.service.ts';
import { createContactService } from './modules/contact/contact.service.ts';
import { createDocumentsService } from './modules/documents/documents.service.ts';
import { createHealthService } from './modules/health/health.service.ts';
import { createMeService } from './modules/me/me.service.ts';
import { createOutboxMailer, type Mailer } from './modules/messaging/mailer.ts';
import { createLiveEventsPruneJob, createMessageDeliveryJob, SEND_TIMEOUT_MS } from './modules/messaging/messaging.jobs.ts';
import {
  createLiveHub,
  createMessagingService,
  createNoticesService,
  createPushService,
  type PushSender,
} from './modules/messaging/messaging.service.ts';
import { createWebPushSender } from './integrations/web-push/web-push-sender.ts';
import { createOutboxSmsSender, type SmsSender } from './modules/messaging/sms-sender.ts';
import { WebhookVerificationError } from './modules/payments/payment-provider.ts';
import { createPaymentProviders } from './modules/payments/payment-providers.ts';
import { createPaymentsJobs } from './modules/payments/payments.jobs.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { createSandboxRail } from './modules/payouts/payout-rail.ts';
import { createPayoutMethodsService } from './modules/payouts/payout-methods.service.ts';
import { payoutScheduleJobs } from './modules/payouts/payout-schedules.jobs.ts';
import { createPayoutSchedulesService } from './modules/payouts/payout-schedules.service.ts';
import { payoutJobs } from './modules/payouts/payouts.jobs.ts';
import { createPayoutsService } from './modules/payouts/payouts.service.ts';
import { createFirstViewService, siteInfoOf } from './modules/site/site.service.ts';
import { createPublicCardCache, createTipHandler, createTipsService } from './modules/tips/tips.service.ts';
import { createSupportService } from './modules/support/support.service.ts';
import { createAccountJobs } from './modules/account/account.jobs.ts';
import { createLedgerJobs } from './modules/ledger/ledger.jobs.ts';
import { createAccountService } from './modules/account/account.service.ts';
import { createTeamsService, createTeamTipHandler, createVenuePages } from './modules/teams/teams.service.ts';
import {
  createVenueTipHandler,
  createVenueTipsService,
  mayUseVenueCard,
  passVenueCard,
  venueCardIdOf,
} from './modules/venue-tips/venue-tips.service.ts';
import { createVerificationService } from './modules/verification/verification.service.ts';
import { createTransactionsService } from './modules/transactions/transactions.service.ts';
import { createOpsAuthService } from './modules/ops/ops-auth.service.ts';
import { createOpsService } from './modules/ops/ops.service.ts';
import type { HumanVerifier } from './plugins/anti-bot.ts';
import { createInvoicesJobs } from './modules/invoices/invoices.jobs.ts';
import { createOpsJobs } from './modules/ops/ops.jobs.ts';
import { createInvoiceHandler, createInvoicesService } from './modules/invoices/invoices.service.ts';
import { createActionLinks } from './modules/donations/donation-links.ts';
import { createDonationsJobs } from './modules/donations/donations.jobs.ts';
import { createDonationHandler, createDonationsService, monthlyDonationFigures } from './modules/donations/donations.service.ts';
import { createReceiptsService } from './modules/receipts/receipts.service.ts';
import { createSignedIds } from './lib/signed-id.ts';

/** The edges tests replace: the clock, the message vendors and the anti-bot check. Everything else is real. */
export interface ServiceOverrides {
  clock?: Clock;
  /** The senders the message delivery job uses (requests only write messages to the outbox). */
  sms?: SmsSender;
  /** null: no way to send e-mail, as a production without SMTP_URL. */
  mailer?: Mailer | null;
  /** Web Push; by default web-push with the configured VAPID keys (decision 0046). */
  push?: PushSender;
  /** The anti-bot check; by default Turnstile when TURNSTILE_SECRET is set, none otherwise. */
  humanVerifier?: HumanVerifier;
}

export type Services = ReturnType<typeof createServices>;

/** Open live streams one user may hold on one instance: a few tabs and devices, not a leak of reconnects. */
const LIVE_STREAMS_PER_USER = 8;

/**
 * The composition root (DESIGN "One composition root"): every service built once from the configuration and the
 * database, for the server, the worker and the command-line tools alike. Purpose handlers and jobs are registered here.
 */
export function createServices(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
  overrides: ServiceOverrides = {},
  // The server's router knows the replica (app.ts); the worker and the CLIs read the primary.
  reads: ReadRouter = primaryReads(db),
  // The server's LISTEN sessions for live events and the public card cache (app.ts); the worker and the CLIs serve no
  // streams and keep no public card.
  listen?: Listen,
) {
  const clock = overrides.clock ?? systemClock;
  const keys = accessTokenKeys(config.jwtSecret, config.jwtSecretPrevious);
  // The senders only the delivery job uses: requests write their messages to the outbox.
  const sms =
    overrides.sms ?? (config.sms.provider === 'twilio' ? createTwilioSmsSender(config.sms) : createOutboxSmsSender(log));
  const mailer =
    overrides.mailer === null
      ? undefined
      : (overrides.mailer ??
        (config.smtpUrl && config.mailFrom
          ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
          : config.devOutbox
            ? createOutboxMailer(log)
            : undefined));
  const pushSender = overrides.push ?? (config.push ? createWebPushSender(config.push, SEND_TIMEOUT_MS) : undefined);
  const humanVerifier =
    overrides.humanVerifier ??
    (config.turnstileSecret
      ? createTurnstileVerifier({ secret: config.turnstileSecret, verifyUrl: config.turnstileVerifyUrl, log })
      : undefined);

  const errors = createErrorReporter(config.errorReporting);
  const messages = createMessagingService({ db, clock });
  const push = createPushService({ db, clock, vapid: config.push });
  const notices = createNoticesService({ db, clock });
  const live = createLiveHub({ db, listen, log, maxStreamsPerUser: LIVE_STREAMS_PER_USER });
  const health = createHealthService({ db, clock });
  const metrics = createMetrics();
  metrics.readFiguresWith(health.operationalFigures);
  if (reads.hasReplica) metrics.readReplicaStalenessWith(reads.stalenessMs);
  const analytics = createAnalyticsService({ db });
  const balances = createBalancesService({ db });
  const verification = createVerificationService({ db, verificationLimitCents: config.verificationLimitCents });
  const me = createMeService({ db, verificationLimitCents: config.verificationLimitCents });
  const transactions = createTransactionsService({ reads, clock, monthlyDonations: monthlyDonationFigures });
  const cards = createCardsService({ db, publicUrl: config.publicUrl, sharing: mayUseVenueCard });
  const documents = createDocumentsService({
    cards,
    publicUrl: config.publicUrl,
    site: config.site,
    feePercent: config.payments.feePercent,
    holdHours: config.payments.holdHours,
    verificationLimitCents: config.verificationLimitCents,
  });
  const otp = createOtpService({ db, clock, messages, pepper: config.jwtSecret });
  const auth = createAuthService({ db, clock, otp, keys });
  const firstViews = createFirstViewService({
    keys,
    clock,
    sessionIsLive: auth.sessionIsLive,
    me,
    cards,
    balances,
    transactions,
  });
  // With no way to send e-mail the form is off rather than filling the outbox with mail that can only die there.

  // The sandbox hands its events to the payments service, which exists only once the providers do: the callback runs
  // at delivery time, after `payments` below is built.
  const { providers, sandbox, sandboxJobs } = createPaymentProviders(config, {
    db,
    clock,
    deliverSandboxEvent: async (body, headers) => {
      try {
        await payments.handleWebhook('sandbox', Buffer.from(body), headers);
        return 200;
      } catch (error) {
        if (error instanceof WebhookVerificationError) return 400;
        throw error;
      }
    },
  });
  // Every payer's receipt, at a link signed with the action links' secret under its own purpose (decision 0042).
  const receipts = createReceiptsService({
    db,
    clock,
    messages,
    links: createSignedIds('payment-receipt', config.actionLinkSecret),
    publicUrl: config.publicUrl,
    company: {
      name: config.site.companyName,
      registrationNumber: config.site.companyRegistrationNumber,
      licence: config.site.companyLicence,
      address: config.site.companyAddress,
    },
  });
  // A monthly donation's e-mails (reminder, receipt, lapse, statement) carry signed links to /actions/….
  const donationMail = {
    messages,
    receipts,
    links: createActionLinks(config.actionLinkSecret),
    publicUrl: config.publicUrl,
    feePercent: config.payments.feePercent,
  };
  const payments = createPaymentsService({
    db,
    clock,
    log,
    metrics,
    providers,
    active: config.payments.provider,
    publicUrl: config.publicUrl,
    holdHours: config.payments.holdHours,
    reconcileAfterMinutes: config.payments.reconcileAfterMinutes,
    batchSize: config.payments.batchSize,
    velocity: config.payments.velocity,
    handlers: [
      createTipHandler(),
      createCardOrderHandler(),
      createInvoiceHandler(),
      createTeamTipHandler(),
      createVenueTipHandler(),
      createDonationHandler(donationMail),
    ],
    onSharesAdjusted: takeBackRewardsNoLongerEarned,
    onRefunded: receipts.noticeRefund,
    receiptLinkOf: receipts.linkOf,
  });
  const teams = createTeamsService({ db, clock, publicUrl: config.publicUrl, payments, passVenueCard });
  const venuePages = createVenuePages({ db, publicUrl: config.publicUrl, venueCardIdOf: (id) => venueCardIdOf(db, id) });
  const venueTips = createVenueTipsService({ db, clock, publicUrl: config.publicUrl, teams });
  // Kept only while this process LISTENs for the database's notices of changed cards (decision 0051).
  const publicCards = createPublicCardCache({ db, listen, log });
  const tips = createTipsService({
    db,
    clock,
    payments,
    receipts,
    messages,
    publicUrl: config.publicUrl,
    feePercent: config.payments.feePercent,
    teamOfCard: teams.teamOfCard,
    venueOfCard: venueTips.venueOfCard,
    publicCards,
  });
  const cardOrders = createCardOrdersService({
    db,
    cards,
    clock,
    log,
    payments,
    publicUrl: config.publicUrl,
    unitPriceCents: config.cardPriceCents,
  });
  const invoices = createInvoicesService({
    db,
    clock,
    log,
    payments,
    publicUrl: config.publicUrl,
    feePercent: config.payments.feePercent,
  });
  const donations = createDonationsService({ db, clock, log, payments, ...donationMail });
  const referrals = createReferralsService({ db, publicUrl: config.publicUrl });

  const payouts = createPayoutsService({
    db,
    clock,
    messages,
    pepper: config.jwtSecret,
    verificationLimitCents: config.verificationLimitCents,
    requestsPerHour: config.payouts.requestsPerHour,
    railMode: config.payouts.rail,
  });
  const payeeChecks = { sandbox: createSandboxPayeeCheck } as const;
  const payoutMethods = createPayoutMethodsService({ db, clock, messages, payeeCheck: payeeChecks[config.payeeCheck]() });
  const payoutSchedules = createPayoutSchedulesService({
    db,
    clock,
    messages,
    pepper: config.jwtSecret,
    verificationLimitCents: config.verificationLimitCents,
    railMode: config.payouts.rail,
  });
  const payoutRail = createSandboxRail(db, config.payouts.sandboxDelayMs);
  const support = createSupportService({ db, clock, messages, publicUrl: config.publicUrl });
  const contact = createContactService({
    support,
    messages,
    canEmail: mailer !== undefined,
    mailbox: config.contactRecipient,
    publicUrl: config.publicUrl,
  });
  // Back office (issue 15).
  const opsAuth = createOpsAuthService({
    db,
    clock,
    keys,
    serverSecret: config.jwtSecret,
    previousServerSecret: config.jwtSecretPrevious,
    publicUrl: config.publicUrl,
    messages,
  });
  const ops = createOpsService({
    db,
    reads,
    clock,
    log,
    messages,
    payments,
    debtor: config.payouts.debtor,
    support,
    cardOrders,
    publicUrl: config.publicUrl,
    refundApprovalCents: config.refundApprovalCents,
    reconcileAfterMinutes: config.payments.reconcileAfterMinutes,
  });
  const account = createAccountService({
    db,
    reads,
    clock,
    errors,
    tips,
    donations,
    invoices,
    teams,
    me,
    cards,
    transactions,
    verification,
    payouts,
  });
  const jobs: Job[] = [
    ...createPaymentsJobs(payments, { appliers: config.payments.appliers }),
    ...payoutJobs({ db, log, rail: payoutRail, debtor: config.payouts.debtor }),
    ...payoutScheduleJobs(payoutSchedules),
    createMessageDeliveryJob({ db, log, sms, mailer, push: pushSender, errors }),
    createLiveEventsPruneJob({ db }),
    ...createAccountJobs(account),
    ...createLedgerJobs(db),
    ...createInvoicesJobs(invoices),
    ...createCardOrdersJobs(cardOrders),
    ...createDonationsJobs(donations),
    ...createReferralJobs(referrals),
    ...createOpsJobs(ops, opsAuth),
  ];

  return {
    clock,
    reads,
    errors,
    metrics,
    keys,
    humanVerifier,
    messages,
    live,
    push,
    notices,
    health,
    analytics,
    balances,
    me,
    verification,
    transactions,
    cards,
    otp,
    auth,
    contact,
    siteInfo: siteInfoOf(config, contact.enabled),
    firstViews,
    documents,
    sandbox,
    sandboxJobs,
    payments,
    receipts,
    publicCards,
    tips,
    cardOrders,
    invoices,
    donations,
    teams,
    venuePages,
    venueTips,
    referrals,
    payouts,
    payoutMethods,
    payoutSchedules,
    payoutRail,
    opsAuth,
    ops,
    support,
    account,
    jobs,
  };
}
