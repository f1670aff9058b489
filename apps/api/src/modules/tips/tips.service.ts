import { tipBreakdown, TIP_MAX_CENTS, TIP_MIN_CENTS, TIP_PRESETS_CENTS } from '@tipcard/shared/payments/fees';
import type { createPaymentBody, PublicCard, PublicPayment } from '@tipcard/shared/payments/schemas';
import type { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { addCardRating, findCardRecipient, findPublicCard } from '../cards/cards.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { PurposeHandler } from '../payments/purpose-handler.ts';
import * as repo from './tips.repository.ts';

type CreateTip = z.output<typeof createPaymentBody>;

/**
 * What a tip to a personal card means to the money (the `tip` purpose): the card's owner receives the tip less the
 * fee (all of it when the guest covers the fee), on hold like every payment; the guest's rating counts on the card.
 */
export function createTipHandler(): PurposeHandler {
  return {
    purpose: 'tip',
    async allocate(tx, payment) {
      const tip = await repo.findTip(tx, payment.id);
      const recipient = tip ? await findCardRecipient(tx, tip.cardId) : null;
      if (!tip || !recipient) throw new Error(`Tip ${payment.id} has no card to credit`);
      return [
        {
          userId: recipient.userId,
          netCents: payment.totalCents - payment.feeCents,
          feeCents: payment.feeCents,
          history: { description: payment.description, message: tip.message, rating: tip.rating },
        },
      ];
    },
    async onSucceeded(tx, payment) {
      const tip = await repo.findTip(tx, payment.id);
      if (tip?.rating != null) await addCardRating(tx, tip.cardId, tip.rating);
    },
  };
}

export type TipsService = ReturnType<typeof createTipsService>;

/** A guest's tip to a card: what the guest sees of the card, and the checkout for the tip. */
export function createTipsService(deps: { db: Executor; payments: PaymentsService; publicUrl: string; feePercent: number }) {
  const termsOfPayment = () => ({
    fee_percent: deps.feePercent,
    min_amount_cents: TIP_MIN_CENTS,
    max_amount_cents: TIP_MAX_CENTS,
    preset_amounts_cents: [...TIP_PRESETS_CENTS],
  });
  return {
    termsOfPayment,

    publicCard(cardId: string): Promise<PublicCard | null> {
      return findPublicCard(deps.db, cardId, termsOfPayment());
    },

    /** Opens a checkout for a guest's tip; the same Idempotency-Key and body answer the same payment. */
    async createTip(cardId: string, body: CreateTip, idempotencyKey: string): Promise<PublicPayment> {
      const recipient = await findCardRecipient(deps.db, cardId);
      if (!recipient) throw new AppError('not_found');
      const tip = tipBreakdown(body.amount_cents, deps.feePercent, body.cover_fee);
      const message = body.message || null;
      const rating = body.rating ?? null;
      return deps.payments.openCheckout({
        purpose: 'tip',
        subjectId: cardId,
        idempotencyKey,
        request: [body.amount_cents, body.cover_fee, rating, message],
        amountCents: tip.amountCents,
        feeCents: tip.feeCents,
        totalCents: tip.totalCents,
        coverFee: body.cover_fee,
        description: `Tip via ${recipient.title}`,
        providerDescription: `Tip for ${recipient.publicName}`,
        successUrl: (paymentId) => `${deps.publicUrl}/payment/walletto-result?payment=${paymentId}`,
        cancelUrl: (paymentId) => `${deps.publicUrl}/payment/${cardId}/canceled?payment=${paymentId}`,
        metadata: { card_id: cardId },
        onCreated: (tx, payment) => repo.insertTip(tx, { paymentId: payment.id, cardId, message, rating }),
      });
    },
  };
}
