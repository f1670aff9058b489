import { NOT_BLANK_SERVER_TEXT } from '@tipcard/shared/validation-rules';
import type { ActionBody, createDonationBody, Donation, PublicAction } from '@tipcard/shared/donations/schemas';
import { DEFAULT_LOCALE, type Locale } from '@tipcard/shared/constants';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { formatMoney } from '@tipcard/shared/money/format';
import { tipBreakdown } from '@tipcard/shared/payments/fees';
import type { GuestDonor } from '@tipcard/shared/payments/guest-form';
import type { PublicPayment } from '@tipcard/shared/payments/schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { guestPagePath, t } from '../../lib/i18n.ts';
import { findCardRecipient, listCardsOfUser } from '../cards/cards.service.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';
import type { PaymentsService, ProviderName, PurposeHandler } from '../payments/payments.service.ts';
import { requireOwnClient } from '../users/users.service.ts';
import { chargeDateOf, REMINDER_BEFORE_MS, retryDateOf } from './charge-date.ts';
import type { ActionLinks } from './donation-links.ts';
import { renderDonationPdf } from './donation-pdf.ts';
import * as repo from './donations.repository.ts';

type CreateDonation = z.output<typeof createDonationBody>;
type PaymentRow = Parameters<PurposeHandler['allocate']>[1];

const LIST_LIMIT = 200;
const DAY = 86_400_000;
/** How long a running charge holds its plan: past it, a charge that died is tried again under the same key. */
const CHARGE_LEASE_MS = 15 * 60_000;
/** Links that change a plan live until after the next month's e-mail; downloads for a year and a month. */
const CHANGE_LINK_LIFETIME_MS = 35 * DAY;
const DOWNLOAD_LINK_LIFETIME_MS = 396 * DAY;
const STATEMENT_HOUR_UTC = 9;

function toDonation({
  donation: row,
  planStatus,
}: {
  donation: repo.DonationRow;
  planStatus: repo.PlanRow['status'] | null;
}): Donation {
  return {
    id: row.paymentId,
    kind: row.kind,
    donor_name: row.donorName,
    donor_email: row.donorEmail,
    donor_code: row.donorCode,
    amount_cents: row.amountCents,
    currency: 'EUR',
    status: row.status,
    plan: planStatus === null ? null : planStatus === 'active' || planStatus === 'paused' ? planStatus : 'ended',
    created_at: row.createdAt.toISOString(),
  };
}

/** The donor of a donation's payment, for its form shown again after a decline (null for any other payment). */
export async function donorOfPayment(db: Executor, paymentId: string): Promise<GuestDonor | null> {
  const donation = await repo.findDonation(db, paymentId);
  return donation
    ? { name: donation.donorName, email: donation.donorEmail, code: donation.donorCode, monthly: donation.kind === 'monthly' }
    : null;
}

/** The card a donation's payment was given to (a monthly plan's later months too); null for any other payment. */
export async function cardOfDonation(db: Executor, paymentId: string): Promise<string | null> {
  return (await repo.findDonation(db, paymentId))?.cardId ?? null;
}

/** When a monthly donation started by this payment charges next (null for a one-off gift or a plan that ended). */
export async function nextChargeOfPayment(db: Executor, paymentId: string): Promise<Date | null> {
  const donation = await repo.findDonation(db, paymentId);
  if (donation?.kind !== 'monthly' || !donation.planId) return null;
  const plan = await repo.findPlan(db, donation.planId);
  return plan?.status === 'active' ? plan.nextChargeAt : null;
}

/** The donations that reached the user, newest first (the back office's user screen). */
export async function listDonationsOfUser(db: Executor, userId: string): Promise<Donation[]> {
  return (await repo.listReceivedDonations(db, userId, LIST_LIMIT)).map(toDonation);
}

/**
 * The payers' receipts (the receipts module, handed in by the composition root so this module imports nothing of it):
 * a donor's address is stored with each payment, and each gift's receipt is the one every payer gets.
 */
export interface DonationReceipts {
  remember(tx: Executor, paymentId: string, email: string, locale: Locale): Promise<void>;
  mailReceipt(tx: Executor, paymentId: string): Promise<void>;
  urlOf(paymentId: string, locale: Locale): string;
}

export interface PlanMailDeps {
  messages: Pick<MessagingService, 'enqueueEmail'>;
  receipts: DonationReceipts;
  links: ActionLinks;
  publicUrl: string;
  feePercent: number;
}

/**
 * A plan's e-mails, each written in the transaction of the change that causes it, each with fresh signed links
 * (`/actions/{actionId}`) that do one thing once.
 */
function planMail(deps: PlanMailDeps) {
  async function link(
    tx: Executor,
    plan: repo.PlanRow,
    kind: repo.ActionRow['kind'],
    now: Date,
    extra: { paymentId?: string; year?: number } = {},
  ) {
    const lifetime = kind === 'receipt' || kind === 'statement' ? DOWNLOAD_LINK_LIFETIME_MS : CHANGE_LINK_LIFETIME_MS;
    const row = await repo.insertAction(tx, {
      planId: plan.id,
      kind,
      ...extra,
      expiresAt: new Date(now.getTime() + lifetime),
      createdAt: now,
    });
    // The page opens in the plan's language, the one of the e-mail that carries the link.
    const prefix = plan.locale === DEFAULT_LOCALE ? '' : `/${plan.locale}`;
    return { url: `${deps.publicUrl}${prefix}/actions/${deps.links.tokenOf(row.id)}`, expiresAt: row.expiresAt };
  }
  const recipientOf = async (tx: Executor, plan: repo.PlanRow) => (await findCardRecipient(tx, plan.cardId))?.publicName ?? '';
  const send = (tx: Executor, plan: repo.PlanRow, key: string, vars: Record<string, string | number>) =>
    deps.messages.enqueueEmail(tx, {
      to: plan.donorEmail,
      subject: t(`donations.mail.${key}_subject`, vars, plan.locale as Locale),
      text: t(`donations.mail.${key}_text`, vars, plan.locale as Locale),
    });

  return {
    async reminder(tx: Executor, plan: repo.PlanRow, chargeAt: Date, now: Date) {
      const cancel = await link(tx, plan, 'cancel', now);
      const pause = await link(tx, plan, 'pause', now);
      const change = await link(tx, plan, 'change_amount', now);
      await send(tx, plan, 'reminder', {
        donor: plan.donorName,
        name: await recipientOf(tx, plan),
        amount: formatMoney(tipBreakdown(plan.amountCents, deps.feePercent, plan.coverFee).totalCents, plan.locale as Locale),
        date: formatDate(chargeAt, 'longDate', plan.locale as Locale, { timeZone: 'UTC' }),
        cancel: cancel.url,
        pause: pause.url,
        change: change.url,
        expires: formatDate(cancel.expiresAt, 'longDate', plan.locale as Locale, { timeZone: 'UTC' }),
      });
    },
    async receipt(tx: Executor, plan: repo.PlanRow, payment: PaymentRow, now: Date) {
      const statement = await link(tx, plan, 'statement', now, { year: now.getUTCFullYear() });
      const cancel = await link(tx, plan, 'cancel', now);
      const pause = await link(tx, plan, 'pause', now);
      const change = await link(tx, plan, 'change_amount', now);
      await send(tx, plan, 'receipt', {
        donor: plan.donorName,
        name: await recipientOf(tx, plan),
        amount: formatMoney(payment.totalCents, plan.locale as Locale),
        date: formatDate(now, 'longDate', plan.locale as Locale, { timeZone: 'UTC' }),
        next: plan.nextChargeAt ? formatDate(plan.nextChargeAt, 'longDate', plan.locale as Locale, { timeZone: 'UTC' }) : '—',
        receipt: deps.receipts.urlOf(payment.id, plan.locale as Locale),
        statement: statement.url,
        cancel: cancel.url,
        pause: pause.url,
        change: change.url,
        expires: formatDate(cancel.expiresAt, 'longDate', plan.locale as Locale, { timeZone: 'UTC' }),
      });
    },
    async lapsed(tx: Executor, plan: repo.PlanRow) {
      await send(tx, plan, 'lapsed', {
        donor: plan.donorName,
        name: await recipientOf(tx, plan),
        date: formatDate(chargeDateOf(plan.startedAt!, plan.period), 'longDate', plan.locale as Locale, { timeZone: 'UTC' }),
        link: `${deps.publicUrl}/payment/${plan.cardId}`,
      });
    },
    async recipientClosed(tx: Executor, plan: repo.PlanRow) {
      await send(tx, plan, 'recipient_closed', { donor: plan.donorName, name: await recipientOf(tx, plan) });
    },
    async statement(tx: Executor, plan: repo.PlanRow, year: number, now: Date) {
      const statement = await link(tx, plan, 'statement', now, { year });
      await send(tx, plan, 'statement', {
        donor: plan.donorName,
        name: await recipientOf(tx, plan),
        year,
        statement: statement.url,
        expires: formatDate(statement.expiresAt, 'longDate', plan.locale as Locale, { timeZone: 'UTC' }),
      });
    },
  };
}

/** 1 January of the year after `date`, when last year's statement e-mail goes. */
const nextJanuaryOf = (date: Date) => new Date(Date.UTC(date.getUTCFullYear() + 1, 0, 1, STATEMENT_HOUR_UTC));

/**
 * What a donation means to the money (the `donation` purpose): the card's owner at the time of giving receives it
 * less the fee (all of it when the donor covers the fee), on hold like a tip; the donation's own row follows the
 * payment's state so the recipient's list needs nothing from `payments`. A monthly gift also moves its plan, in the
 * same transaction as the money: a success to the next month (and a receipt), a decline to a retry or, after the
 * third retry, to its end (and the donor is told).
 */
export function createDonationHandler(deps: PlanMailDeps): PurposeHandler {
  const mail = planMail(deps);
  /** The plan of a monthly gift, locked, when this payment is the one its current month waits for. */
  async function planWaitingFor(tx: Transaction, donation: repo.DonationRow | undefined) {
    if (!donation?.planId) return undefined;
    const plan = await repo.lockPlan(tx, donation.planId);
    return plan && plan.period === donation.period ? plan : undefined;
  }

  return {
    purpose: 'donation',
    async allocate(tx, payment) {
      const donation = await repo.findDonation(tx, payment.id);
      if (!donation) throw new Error(`Donation payment ${payment.id} has no donation`);
      return [
        {
          userId: donation.userId,
          netCents: payment.totalCents - payment.feeCents,
          feeCents: payment.feeCents,
          history: {
            detail: { kind: donation.kind === 'monthly' ? 'monthly_donation' : 'donation', donor: donation.donorName },
            message: null,
            rating: null,
          },
        },
      ];
    },
    async onSucceeded(tx, payment, _allocations, now) {
      await repo.setDonationStatus(tx, payment.id, 'succeeded');
      const donation = await repo.findDonation(tx, payment.id);
      // A one-off gift's receipt is the payer's receipt; a month of a plan gets it in the plan's e-mail below.
      if (donation?.kind === 'one_off') await deps.receipts.mailReceipt(tx, payment.id);
      const plan = await planWaitingFor(tx, donation);
      if (!plan) return;
      const startedAt = plan.startedAt ?? now;
      const period = plan.period + 1;
      const nextChargeAt = chargeDateOf(startedAt, period);
      // The first payment saved the method; a plan the donor ended meanwhile stays ended (this month was still paid).
      const saved =
        plan.period === 0 ? { provider: payment.provider, customerRef: payment.customerRef, methodRef: payment.methodRef } : {};
      const chargeable =
        plan.period === 0
          ? plan.status === 'incomplete' && payment.methodRef !== null
          : plan.status === 'active' || plan.status === 'paused';
      const updated = await repo.updatePlan(
        tx,
        plan.id,
        {
          ...saved,
          startedAt,
          period,
          failures: 0,
          status: chargeable ? 'active' : plan.status === 'incomplete' ? 'lapsed' : plan.status,
          nextChargeAt: chargeable ? nextChargeAt : null,
          remindAt: chargeable ? new Date(nextChargeAt.getTime() - REMINDER_BEFORE_MS) : null,
          statementDueAt: plan.statementDueAt ?? nextJanuaryOf(now),
        },
        now,
      );
      await mail.receipt(tx, updated, payment, now);
    },
    async onAdjusted(tx, payment) {
      await repo.setDonationStatus(tx, payment.id, payment.status === 'refunded' ? 'refunded' : 'succeeded');
    },
    async onClosed(tx, payment, now) {
      await repo.setDonationStatus(tx, payment.id, 'failed');
      const plan = await planWaitingFor(tx, await repo.findDonation(tx, payment.id));
      // The first payment is the donor's own checkout: they see its outcome there, and the plan never starts.
      if (!plan || plan.period === 0 || (plan.status !== 'active' && plan.status !== 'paused')) return;
      const failures = plan.failures + 1;
      const retryAt = retryDateOf(plan.startedAt!, plan.period, failures);
      if (retryAt) {
        await repo.updatePlan(tx, plan.id, { failures, status: 'active', nextChargeAt: retryAt }, now);
        return;
      }
      const lapsed = await repo.updatePlan(tx, plan.id, { failures, status: 'lapsed', nextChargeAt: null, remindAt: null }, now);
      await mail.lapsed(tx, lapsed);
    },
  };
}

/** The recipient's active monthly donors and what they give each month (the overview's figures). */
export function monthlyDonationFigures(db: Executor, userId: string) {
  return repo.monthlyFigures(db, userId);
}

export type DonationsService = ReturnType<typeof createDonationsService>;

export interface DonationsDeps extends PlanMailDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  payments: PaymentsService;
}

/**
 * Donations to DONATION cards: the donor's checkout (one-off, or the first month of a plan), the recipient's list and
 * figures, the plans' monthly charges, reminders and statements (`donations.jobs.ts`), and the signed links.
 */
export function createDonationsService(deps: DonationsDeps) {
  const { db, clock, log } = deps;
  const mail = planMail(deps);

  /** The action behind a signed link, or 404 for anything we did not sign. */
  async function actionOf(token: string) {
    const id = deps.links.actionIdOf(token);
    const action = id ? await repo.findAction(db, id) : undefined;
    const plan = action ? await repo.findPlan(db, action.planId) : undefined;
    if (!action || !plan) throw new AppError('not_found');
    return { action, plan };
  }

  /** A receipt (one payment) or statement (a donor's gifts to the recipient in a year) as a PDF. */
  async function documentOf(action: repo.ActionRow, plan: repo.PlanRow) {
    const locale = plan.locale as Locale;
    const recipient = (await findCardRecipient(db, plan.cardId))?.publicName ?? '';
    let rows: repo.DonationRow[];
    let title: string;
    if (action.kind === 'receipt') {
      const donation = action.paymentId ? await repo.findDonation(db, action.paymentId) : undefined;
      rows = donation?.planId === plan.id && donation.status === 'succeeded' ? [donation] : [];
      title = t('donations.pdf.receipt_title', {}, locale);
    } else {
      const year = action.year!;
      rows = await repo.listDonorDonations(
        db,
        { userId: plan.userId, donorCode: plan.donorCode, donorEmail: plan.donorEmail },
        new Date(Date.UTC(year, 0, 1)),
        new Date(Date.UTC(year + 1, 0, 1)),
      );
      title = t('donations.pdf.statement_title', { year }, locale);
    }
    const pdf = await renderDonationPdf({
      locale,
      title,
      donorName: plan.donorName,
      donorCode: plan.donorCode,
      recipientName: recipient,
      lines: rows.map((row) => ({ date: row.createdAt, kind: row.kind, amountCents: row.amountCents })),
    });
    return {
      pdf,
      filename: action.kind === 'receipt' ? `donation-receipt-${action.paymentId}.pdf` : `donation-statement-${action.year}.pdf`,
    };
  }

  return {
    /** Opens a checkout for a donation; the same Idempotency-Key and body answer the same payment. */
    async donate(cardId: string, body: CreateDonation, idempotencyKey: string): Promise<PublicPayment> {
      const recipient = await findCardRecipient(db, cardId);
      // Only a card whose owner takes donations shows the donor form; any other card is not a donation target.
      if (!recipient || recipient.activityType !== 'DONATION') throw new AppError('not_found');
      const money = tipBreakdown(body.amount_cents, deps.feePercent, body.cover_fee);
      const planId = body.monthly ? crypto.randomUUID() : null;
      return deps.payments.openCheckout({
        purpose: 'donation',
        subjectId: cardId,
        idempotencyKey,
        request: [body.amount_cents, body.cover_fee, body.donor_name, body.email, body.donor_code, body.monthly],
        amountCents: money.amountCents,
        feeCents: money.feeCents,
        totalCents: money.totalCents,
        coverFee: body.cover_fee,
        description: `${body.monthly ? 'Monthly' : 'One-off'} donation from ${body.donor_name}`,
        providerDescription: t(
          `checkout:description.${body.monthly ? 'monthly_donation' : 'donation'}`,
          { name: recipient.publicName },
          body.locale,
        ),
        locale: body.locale,
        successUrl: (paymentId) =>
          `${deps.publicUrl}${guestPagePath(body.locale, `/payment/walletto-result?payment=${paymentId}`)}`,
        cancelUrl: (paymentId) =>
          `${deps.publicUrl}${guestPagePath(body.locale, `/payment/${cardId}/canceled?payment=${paymentId}`)}`,
        metadata: { card_id: cardId },
        ...(body.monthly && { saveMethodFor: body.email }),
        onCreated: async (tx, payment) => {
          const donor = { donorName: body.donor_name, donorEmail: body.email, donorCode: body.donor_code };
          if (planId) {
            await repo.insertPlan(tx, {
              id: planId,
              cardId,
              userId: recipient.userId,
              ...donor,
              locale: body.locale,
              amountCents: body.amount_cents,
              coverFee: body.cover_fee,
              createdAt: payment.createdAt,
              updatedAt: payment.createdAt,
            });
          }
          await repo.insertDonation(tx, {
            paymentId: payment.id,
            cardId,
            userId: recipient.userId,
            kind: planId ? 'monthly' : 'one_off',
            planId,
            period: planId ? 0 : null,
            ...donor,
            amountCents: payment.amountCents,
            createdAt: payment.createdAt,
          });
          await deps.receipts.remember(tx, payment.id, body.email, body.locale);
        },
      });
    },

    /**
     * The deletion of the recipient's account, first part (before the ledger accounts are locked, as a provider's event
     * locks a payment first): the pending checkouts of gifts to their cards and the pending charges of their plans are
     * voided. One that is paid anyway is given back (payments: its recipient is deleted).
     */
    async voidGiftsTo(tx: Transaction, userId: string): Promise<void> {
      const cards = await listCardsOfUser(tx, userId);
      const plans = await repo.listLivePlanIdsOfRecipient(tx, userId);
      await deps.payments.voidPendingCheckouts(tx, 'donation', [
        ...cards.map((card) => card.id),
        ...plans.map((plan) => plan.id),
      ]);
    },

    /**
     * Second part, after the ledger accounts (a gift's success locks its plan after them): every plan to the recipient
     * ends and is never charged again; each donor whose plan was running is told so, in the plan's language. A plan
     * whose first checkout was never paid ends without a word (that checkout was voided).
     */
    async endPlansTo(tx: Transaction, userId: string, now: Date): Promise<void> {
      for (const plan of await repo.lockLivePlansOfRecipient(tx, userId)) {
        const ended = await repo.updatePlan(tx, plan.id, { status: 'canceled', nextChargeAt: null, remindAt: null }, now);
        if (plan.status !== 'incomplete') await mail.recipientClosed(tx, ended);
      }
    },

    /** The recipient's donations that reached them, newest first. */
    async list(userId: string, clientId: string): Promise<Donation[]> {
      await requireOwnClient(db, userId, clientId);
      const rows = await repo.listReceivedDonations(db, userId, LIST_LIMIT);
      return rows.map(toDonation);
    },

    /**
     * Charges one plan whose month is due (the `donations.charge` job). The plan is leased, then charged through its
     * saved method outside any transaction; the purpose handler moves the plan with the money. A month's attempt has
     * its own idempotency key (`period:{n}:attempt:{k}`), so a retry after a crash charges once, and a retry after a
     * decline is a new charge, as the provider replays a declined answer under the same key.
     */
    async chargeOneDuePlan(now: Date): Promise<boolean> {
      const plan = await db.transaction((tx) => repo.claimDueCharge(tx, now, new Date(now.getTime() + CHARGE_LEASE_MS)));
      if (!plan) return false;
      if (!plan.provider || !plan.customerRef || !plan.methodRef) {
        log.error({ planId: plan.id }, 'an active donation plan has no saved method');
        await db.transaction((tx) => repo.updatePlan(tx, plan.id, { status: 'lapsed', nextChargeAt: null, remindAt: null }, now));
        return true;
      }
      const recipient = await findCardRecipient(db, plan.cardId);
      const money = tipBreakdown(plan.amountCents, deps.feePercent, plan.coverFee);
      const payment = await deps.payments.chargeSavedMethod({
        purpose: 'donation',
        subjectId: plan.id,
        idempotencyKey: `period:${plan.period}:attempt:${plan.failures}`,
        amountCents: money.amountCents,
        feeCents: money.feeCents,
        totalCents: money.totalCents,
        coverFee: plan.coverFee,
        description: `Monthly donation from ${plan.donorName}`,
        providerDescription: t(
          'checkout:description.monthly_donation',
          { name: recipient?.publicName ?? '' },
          plan.locale as Locale,
        ),
        provider: plan.provider as ProviderName,
        customerRef: plan.customerRef,
        methodRef: plan.methodRef,
        metadata: { plan_id: plan.id, card_id: plan.cardId },
        onCreated: async (tx, created) => {
          await repo.insertDonation(tx, {
            paymentId: created.id,
            cardId: plan.cardId,
            userId: plan.userId,
            kind: 'monthly',
            planId: plan.id,
            period: plan.period,
            donorName: plan.donorName,
            donorEmail: plan.donorEmail,
            donorCode: plan.donorCode,
            amountCents: created.amountCents,
            createdAt: created.createdAt,
          });
          await deps.receipts.remember(tx, created.id, plan.donorEmail, plan.locale as Locale);
        },
      });
      if (payment.status === 'pending')
        log.warn({ planId: plan.id, paymentId: payment.id }, 'monthly charge unsettled; tried again after the lease');
      return true;
    },

    /** Writes the e-mail before one plan's charge (the `donations.remind` job). */
    async remindOneDuePlan(now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const plan = await repo.claimDueReminder(tx, now);
        if (!plan) return false;
        const updated = await repo.updatePlan(tx, plan.id, { remindAt: null }, now);
        const chargeAt = chargeDateOf(plan.startedAt!, plan.period);
        // A reminder that comes too late (the worker was down) is not sent after the charge it announces.
        if (plan.failures === 0 && chargeAt > now) await mail.reminder(tx, updated, chargeAt, now);
        return true;
      });
    },

    /** Writes the January e-mail with last year's statement for one plan (the `donations.statements` job). */
    async sendOneDueStatement(now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const plan = await repo.claimDueStatement(tx, now);
        if (!plan) return false;
        const updated = await repo.updatePlan(
          tx,
          plan.id,
          { statementDueAt: plan.status === 'active' || plan.status === 'paused' ? nextJanuaryOf(plan.statementDueAt!) : null },
          now,
        );
        await mail.statement(tx, updated, plan.statementDueAt!.getUTCFullYear() - 1, now);
        return true;
      });
    },

    /** What a signed link will do (GET /public/actions/{actionId}). */
    async describeAction(token: string): Promise<PublicAction> {
      const { action, plan } = await actionOf(token);
      const now = clock.now();
      const downloads = action.kind === 'receipt' || action.kind === 'statement';
      return {
        kind: action.kind,
        state: action.expiresAt <= now ? 'expired' : action.usedAt && !downloads ? 'used' : 'ready',
        expires_at: action.expiresAt.toISOString(),
        plan: {
          recipient_name: (await findCardRecipient(db, plan.cardId))?.publicName ?? '',
          donor_name: plan.donorName,
          amount_cents: plan.amountCents,
          cover_fee: plan.coverFee,
          status: plan.status,
          next_charge_at:
            plan.status === 'active' || plan.status === 'paused'
              ? chargeDateOf(plan.startedAt!, plan.period).toISOString()
              : null,
        },
        year: action.year,
        locale: plan.locale as Locale,
      };
    },

    /**
     * Does what a signed link says, once (POST /public/actions/{actionId}): the link is marked used in the transaction
     * that changes the plan, so two confirmations at once make one change and the other is told the link was used.
     * Downloads (receipt, statement) answer their PDF until the link expires.
     */
    async performAction(token: string, body: ActionBody): Promise<{ pdf: Buffer; filename: string } | PublicAction> {
      const { action, plan } = await actionOf(token);
      const now = clock.now();
      if (action.kind === 'receipt' || action.kind === 'statement') {
        if (action.expiresAt <= now) throw new AppError('action_link_expired');
        return documentOf(action, plan);
      }
      if (action.kind === 'pause' && body.months === undefined)
        throw AppError.field('validation_failed', 'months', NOT_BLANK_SERVER_TEXT);
      if (action.kind === 'change_amount' && body.amount_cents === undefined)
        throw AppError.field('validation_failed', 'amount_cents', NOT_BLANK_SERVER_TEXT);
      await db.transaction(async (tx) => {
        if (!(await repo.useAction(tx, action.id, now))) {
          const again = (await repo.findAction(tx, action.id))!;
          throw new AppError(again.usedAt ? 'action_link_used' : 'action_link_expired');
        }
        const locked = (await repo.lockPlan(tx, plan.id))!;
        if (locked.status !== 'active' && locked.status !== 'paused') throw new AppError('donation_plan_ended');
        if (action.kind === 'cancel') {
          await repo.updatePlan(tx, plan.id, { status: 'canceled', nextChargeAt: null, remindAt: null }, now);
        } else if (action.kind === 'pause') {
          // The next `months` monthly charges are skipped (a month being retried counts as the first of them).
          const period = locked.period + body.months!;
          const resumeAt = chargeDateOf(locked.startedAt!, period);
          await repo.updatePlan(
            tx,
            plan.id,
            {
              status: 'paused',
              period,
              failures: 0,
              nextChargeAt: resumeAt,
              remindAt: new Date(resumeAt.getTime() - REMINDER_BEFORE_MS),
            },
            now,
          );
        } else {
          await repo.updatePlan(tx, plan.id, { amountCents: body.amount_cents! }, now);
        }
      });
      return this.describeAction(token);
    },
  };
}

/** Back office search: gifts by the donor's e-mail, in any case. */
export const findDonationsByDonorEmail = repo.findDonationsByDonorEmail;
