import type { createDonationBody, Donation } from '@tipcard/shared/donations/schemas';
import { tipBreakdown } from '@tipcard/shared/payments/fees';
import type { PublicPayment } from '@tipcard/shared/payments/schemas';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { findCardRecipient } from '../cards/cards.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { PurposeHandler } from '../payments/purpose-handler.ts';
import { requireOwnClient } from '../users/users.service.ts';
import * as repo from './donations.repository.ts';

type CreateDonation = z.output<typeof createDonationBody>;

const LIST_LIMIT = 200;

function toDonation(row: repo.DonationRow): Donation {
  return {
    id: row.paymentId,
    kind: row.kind,
    donor_name: row.donorName,
    donor_email: row.donorEmail,
    donor_code: row.donorCode,
    amount_cents: row.amountCents,
    currency: 'EUR',
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * What a donation means to the money (the `donation` purpose): the card's owner at the time of giving receives it
 * less the fee (all of it when the donor covers the fee), on hold like a tip; the donation's own row follows the
 * payment's state so the recipient's list needs nothing from `payments`.
 */
export function createDonationHandler(): PurposeHandler {
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
          history: { detail: { kind: 'donation', donor: donation.donorName }, message: null, rating: null },
        },
      ];
    },
    async onSucceeded(tx, payment) {
      await repo.setDonationStatus(tx, payment.id, 'succeeded');
    },
    async onAdjusted(tx, payment) {
      await repo.setDonationStatus(tx, payment.id, payment.status === 'refunded' ? 'refunded' : 'succeeded');
    },
    async onClosed(tx, payment) {
      await repo.setDonationStatus(tx, payment.id, 'failed');
    },
  };
}

export type DonationsService = ReturnType<typeof createDonationsService>;

/** One-off donations to DONATION cards: the donor's checkout and the recipient's list. */
export function createDonationsService(deps: { db: Database; payments: PaymentsService; publicUrl: string; feePercent: number }) {
  const { db } = deps;
  return {
    /** Opens a checkout for a donation; the same Idempotency-Key and body answer the same payment. */
    async donate(cardId: string, body: CreateDonation, idempotencyKey: string): Promise<PublicPayment> {
      const recipient = await findCardRecipient(db, cardId);
      // Only a card whose owner takes donations shows the donor form; any other card is not a donation target.
      if (!recipient || recipient.activityType !== 'DONATION') throw new AppError('not_found');
      const money = tipBreakdown(body.amount_cents, deps.feePercent, body.cover_fee);
      return deps.payments.openCheckout({
        purpose: 'donation',
        subjectId: cardId,
        idempotencyKey,
        request: [body.amount_cents, body.cover_fee, body.donor_name, body.email, body.donor_code],
        amountCents: money.amountCents,
        feeCents: money.feeCents,
        totalCents: money.totalCents,
        coverFee: body.cover_fee,
        description: `One-off donation from ${body.donor_name}`,
        providerDescription: `Donation to ${recipient.publicName}`,
        successUrl: (paymentId) => `${deps.publicUrl}/payment/walletto-result?payment=${paymentId}`,
        cancelUrl: (paymentId) => `${deps.publicUrl}/payment/${cardId}/canceled?payment=${paymentId}`,
        metadata: { card_id: cardId },
        onCreated: (tx, payment) =>
          repo.insertDonation(tx, {
            paymentId: payment.id,
            cardId,
            userId: recipient.userId,
            kind: 'one_off',
            donorName: body.donor_name,
            donorEmail: body.email,
            donorCode: body.donor_code,
            amountCents: payment.amountCents,
            createdAt: payment.createdAt,
          }),
      });
    },

    /** The recipient's donations that reached them, newest first. */
    async list(userId: string, clientId: string): Promise<Donation[]> {
      await requireOwnClient(db, userId, clientId);
      const rows = await repo.listReceivedDonations(db, userId, LIST_LIMIT);
      return rows.map(toDonation);
    },
  };
}
