import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '@tipcard/shared/constants';
import type { createInvoiceBody, Invoice, PublicInvoice } from '@tipcard/shared/invoices/schemas';
import { tipBreakdown } from '@tipcard/shared/payments/fees';
import type { PublicPayment } from '@tipcard/shared/payments/schemas';
import type { z } from 'zod';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { guestPagePath } from '../../lib/i18n.ts';
import { findCardFace, findPrivateCardOfUser } from '../cards/cards.service.ts';
import { renderQrCode, normalizeHexColor, type QrFormat } from '../../lib/qr-code.ts';
import type { PaymentsService, PurposeHandler } from '../payments/payments.service.ts';
import { listClients, requireOwnClient } from '../users/users.service.ts';
import * as repo from './invoices.repository.ts';

type CreateInvoice = z.output<typeof createInvoiceBody>;

const MINUTE = 60_000;
/** How long a claimed refund waits before another worker may try it again (a killed worker, a provider down). */
const REFUND_LEASE_MS = 10 * MINUTE;
const LIST_LIMIT = 100;

/** The public page of an invoice: what its link and QR code open. */
export const invoiceUrlOf = (publicUrl: string, invoiceId: string) => `${publicUrl}/invoice/${invoiceId}`;

/** Every invoice of the user, across their clients, newest first (the back office's user screen). */
export async function listInvoicesOfUser(db: Executor, userId: string, publicUrl: string): Promise<Invoice[]> {
  const clients = await listClients(db, userId);
  const rows = (await Promise.all(clients.map((client) => repo.listInvoicesOfClient(db, client.id, LIST_LIMIT)))).flat();
  rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return rows.slice(0, LIST_LIMIT).map((row) => toInvoice(row, publicUrl));
}

function toInvoice(row: repo.InvoiceRow, publicUrl: string): Invoice {
  return {
    id: row.id,
    description: row.description,
    amount_cents: row.amountCents,
    currency: 'EUR',
    status: row.status,
    url: invoiceUrlOf(publicUrl, row.id),
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    canceled_at: row.canceledAt?.toISOString() ?? null,
  };
}

/**
 * What a payment of an invoice means to the money (the `invoice` purpose): the owner receives the amount less the fee,
 * on hold like a tip. The invoice is paid by the first payment that succeeds while it is open; any later success (a
 * second payer at the same moment, or a payment of a canceled invoice) is still credited as received, and is queued to
 * be given back in full, so the books show the money in and out.
 */
export function createInvoiceHandler(): PurposeHandler {
  return {
    purpose: 'invoice',
    async allocate(tx, payment) {
      // Locked first, before any ledger account, so two payers of one invoice take their locks in the same order.
      const invoice = await repo.findInvoiceForUpdate(tx, payment.subjectId);
      if (!invoice) throw new Error(`Invoice payment ${payment.id} has no invoice`);
      return [
        {
          userId: invoice.userId,
          netCents: payment.totalCents - payment.feeCents,
          feeCents: payment.feeCents,
          history: { detail: { kind: 'invoice', invoice: invoice.description }, message: null, rating: null },
        },
      ];
    },
    async onSucceeded(tx, payment, _allocations, now) {
      const invoice = (await repo.findInvoiceForUpdate(tx, payment.subjectId))!;
      if (invoice.status === 'open') {
        await repo.updateInvoice(tx, invoice.id, { status: 'paid', paidPaymentId: payment.id, paidAt: now });
      } else if (invoice.paidPaymentId !== payment.id) {
        await repo.insertRefundOnce(tx, { paymentId: payment.id, invoiceId: invoice.id, dueAt: now, createdAt: now });
      }
    },
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;

/** Payment requests by link: the owner's invoices, the payer's page and checkout, and the refund of extra payments. */
export function createInvoicesService(deps: {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  payments: PaymentsService;
  publicUrl: string;
  feePercent: number;
}) {
  const { db, clock, log } = deps;

  async function requireOwnInvoice(userId: string, clientId: string, invoiceId: string) {
    await requireOwnClient(db, userId, clientId);
    const invoice = await repo.findInvoice(db, invoiceId);
    if (!invoice || invoice.clientId !== clientId) throw new AppError('not_found');
    return invoice;
  }

  return {
    async create(userId: string, clientId: string, body: CreateInvoice): Promise<Invoice> {
      await requireOwnClient(db, userId, clientId);
      const card = await findPrivateCardOfUser(db, userId);
      if (!card || card.client_id !== clientId) throw new AppError('invoice_needs_card');
      const row = await repo.insertInvoice(db, {
        userId,
        clientId,
        cardId: card.id,
        description: body.description,
        amountCents: body.amount_cents,
        createdAt: clock.now(),
      });
      return toInvoice(row, deps.publicUrl);
    },

    async list(userId: string, clientId: string): Promise<Invoice[]> {
      await requireOwnClient(db, userId, clientId);
      const rows = await repo.listInvoicesOfClient(db, clientId, LIST_LIMIT);
      return rows.map((row) => toInvoice(row, deps.publicUrl));
    },

    /** Cancels an open invoice; a paid or canceled one is refused. A payment racing the cancel is given back. */
    async cancel(userId: string, clientId: string, invoiceId: string): Promise<Invoice> {
      await requireOwnInvoice(userId, clientId, invoiceId);
      const row = await db.transaction(async (tx) => {
        const invoice = (await repo.findInvoiceForUpdate(tx, invoiceId))!;
        if (invoice.status !== 'open') throw new AppError('invoice_not_open');
        return repo.updateInvoice(tx, invoiceId, { status: 'canceled', canceledAt: clock.now() });
      });
      return toInvoice(row, deps.publicUrl);
    },

    /**
     * The deletion of the user's account (inside its transaction): the pending checkouts of their open invoices are
     * voided (payments first, as a provider's event locks them), then the invoices are canceled. A payment that still
     * arrives for one is given back (payments: its recipient is deleted).
     */
    async cancelOpenOfUser(tx: Transaction, userId: string, now: Date): Promise<void> {
      const open = await repo.listOpenInvoiceIdsOfUser(tx, userId);
      await deps.payments.voidPendingCheckouts(
        tx,
        'invoice',
        open.map((invoice) => invoice.id),
      );
      await repo.cancelOpenInvoicesOfUser(tx, userId, now);
    },

    /** The invoice's QR code, encoding its public page. */
    async qrCode(
      userId: string,
      clientId: string,
      invoiceId: string,
      options: { hexColor?: string | undefined; format: QrFormat },
    ) {
      const invoice = await requireOwnInvoice(userId, clientId, invoiceId);
      return renderQrCode(invoiceUrlOf(deps.publicUrl, invoice.id), normalizeHexColor(options.hexColor), options.format);
    },

    /** What the payer sees; null for an unknown invoice. */
    async publicInvoice(invoiceId: string): Promise<PublicInvoice | null> {
      const invoice = await repo.findInvoice(db, invoiceId);
      const face = invoice ? await findCardFace(db, invoice.cardId) : null;
      if (!invoice || !face) return null;
      return {
        id: invoice.id,
        description: invoice.description,
        amount_cents: invoice.amountCents,
        currency: 'EUR',
        status: invoice.status,
        recipient: face,
      };
    },

    /**
     * Opens a checkout for the invoice's amount. Refused unless the invoice is open, checked again under its lock in
     * the transaction that records the payment, so a cancel in between leaves no checkout.
     */
    async pay(invoiceId: string, idempotencyKey: string, locale: Locale): Promise<PublicPayment> {
      const invoice = await repo.findInvoice(db, invoiceId);
      const face = invoice ? await findCardFace(db, invoice.cardId) : null;
      if (!invoice || !face) throw new AppError('not_found');
      if (invoice.status !== 'open') throw new AppError('invoice_not_open');
      const money = tipBreakdown(invoice.amountCents, deps.feePercent, false);
      return deps.payments.openCheckout({
        purpose: 'invoice',
        subjectId: invoice.id,
        idempotencyKey,
        request: [invoice.amountCents],
        amountCents: money.amountCents,
        feeCents: money.feeCents,
        totalCents: money.totalCents,
        coverFee: false,
        description: `Invoice: ${invoice.description}`,
        providerDescription: `${invoice.description} (${face.public_name})`,
        locale,
        successUrl: (paymentId) =>
          `${deps.publicUrl}${guestPagePath(locale, `/invoice/${invoice.id}/success?payment=${paymentId}`)}`,
        cancelUrl: (paymentId) =>
          `${deps.publicUrl}${guestPagePath(locale, `/invoice/${invoice.id}/canceled?payment=${paymentId}`)}`,
        metadata: { invoice_id: invoice.id },
        onCreated: async (tx) => {
          const locked = await repo.findInvoiceForUpdate(tx, invoice.id);
          if (locked?.status !== 'open') throw new AppError('invoice_not_open');
        },
      });
    },

    /**
     * Gives back one payment that succeeded for an invoice that was no longer open, in full, through the provider
     * (refund key `invoice-duplicate:{paymentId}`, so a retry refunds once). Answers false when none is due.
     */
    async refundOneDuplicate(now: Date): Promise<boolean> {
      const claimed = await db.transaction((tx) => repo.claimDueRefund(tx, now, new Date(now.getTime() + REFUND_LEASE_MS)));
      if (!claimed) return false;
      try {
        const payment = await deps.payments.getPublicPayment(claimed.paymentId);
        if (payment.status === 'succeeded') {
          await deps.payments.refundPayment(claimed.paymentId, payment.total_cents, `invoice-duplicate:${claimed.paymentId}`);
        }
        await db.transaction((tx) => repo.finishRefund(tx, claimed.paymentId, now));
      } catch (error) {
        if (error instanceof AppError && (error.code === 'refund_too_large' || error.code === 'payment_not_refundable')) {
          // Someone else (a refund from our side, a dispute) took the money back first: nothing is left to give.
          log.error({ paymentId: claimed.paymentId, code: error.code }, 'extra invoice payment no longer refundable in full');
          await db.transaction((tx) => repo.finishRefund(tx, claimed.paymentId, now));
          return true;
        }
        // Due again when the lease ends.
        log.warn(
          { err: error, paymentId: claimed.paymentId, attempt: claimed.attempts },
          'could not refund an extra invoice payment; trying again later',
        );
      }
      return true;
    },
  };
}

/** Back office search: invoices whose id lies in the range (an invoice number, `uuidPrefixRange`). */
export const findInvoicesInIdRange = repo.findInvoicesInIdRange;

/** What a payer's receipt names of an invoice: the card that asked and what for (null for an unknown id). */
export async function invoiceOfReceipt(db: Executor, invoiceId: string) {
  const invoice = await repo.findInvoice(db, invoiceId);
  return invoice ? { cardId: invoice.cardId, description: invoice.description } : null;
}
