import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { tipBreakdown, TIP_MAX_CENTS, TIP_MIN_CENTS, TIP_PRESETS_CENTS } from '@tipcard/shared/payments/fees';
import type { createPaymentBody, PublicCard, PublicPayment } from '@tipcard/shared/payments/schemas';
import type { z } from 'zod';
import type { Database, Transaction } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { addCardRating, findCardRecipient, findPublicCard } from '../cards/cards.service.ts';
import { recordTipReceived, reverseTip } from '../transactions/transactions.service.ts';
import type { PaymentProvider, ProviderEvent, ProviderName } from './payment-provider.ts';
import * as repo from './payments.repository.ts';

type CreatePayment = z.output<typeof createPaymentBody>;
export type EventOutcome = 'applied' | 'ignored' | 'mismatch' | 'duplicate';

export interface PaymentsDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Providers that can receive webhooks; `active` opens the new checkouts. */
  providers: Partial<Record<ProviderName, PaymentProvider>>;
  active: ProviderName;
  publicUrl: string;
  feePercent: number;
  holdHours: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toPublicPayment(row: repo.PaymentRow): PublicPayment {
  return {
    id: row.id,
    card_id: row.cardId,
    status: row.status,
    amount_cents: row.amountCents,
    fee_cents: row.feeCents,
    total_cents: row.totalCents,
    cover_fee: row.coverFee,
    currency: 'EUR',
    checkout_url: row.checkoutUrl ?? '',
    created_at: row.createdAt.toISOString(),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

export function createPaymentsService(deps: PaymentsDeps) {
  const { db, clock, log } = deps;
  const provider = (name: ProviderName) => {
    const found = deps.providers[name];
    if (!found) throw new AppError('not_found');
    return found;
  };

  /** One event's effect, inside the transaction that records the event as seen. */
  async function applyInTransaction(tx: Transaction, providerName: ProviderName, event: ProviderEvent): Promise<EventOutcome> {
    const paymentId = UUID.test(event.payment_id) ? event.payment_id : null;
    const eventRow = await repo.insertProviderEventOnce(tx, { provider: providerName, eventId: event.id, type: event.type, paymentId, outcome: 'applied' });
    if (!eventRow) return 'duplicate';
    const outcome = await effectOf(tx, providerName, event, paymentId);
    if (outcome !== 'applied') await repo.setProviderEventOutcome(tx, eventRow, outcome);
    return outcome;
  }

  async function effectOf(
    tx: Transaction,
    providerName: ProviderName,
    event: ProviderEvent,
    paymentId: string | null,
  ): Promise<Exclude<EventOutcome, 'duplicate'>> {
    const now = clock.now();
    if (event.type === 'payment.succeeded' && paymentId) {
      // The common case in one statement: a capture matching the stored payment, which is not yet credited. A capture
      // after a reported failure or cancel is still money received; after a refund it nets to nothing.
      const captured = await repo.markSucceeded(tx, paymentId, { provider: providerName, providerRef: event.provider_ref, totalCents: event.amount_cents, currency: event.currency.toUpperCase() }, now);
      if (captured) {
        if (captured.rating !== null) await addCardRating(tx, captured.cardId, captured.rating);
        await recordTipReceived(
          tx,
          {
            paymentId: captured.id,
            userId: captured.recipientUserId,
            cardId: captured.cardId,
            totalCents: captured.totalCents,
            feeCents: captured.feeCents,
            netCents: captured.netCents,
            message: captured.message,
            rating: captured.rating,
            description: captured.description,
          },
          now,
          new Date(now.getTime() + deps.holdHours * 3_600_000),
        );
        return 'applied';
      }
    }
    const payment = paymentId ? await repo.findPaymentForUpdate(tx, paymentId) : undefined;
    if (!payment || payment.provider !== providerName || (payment.providerRef !== null && payment.providerRef !== event.provider_ref)) {
      return 'mismatch';
    }
    switch (event.type) {
      case 'payment.succeeded':
        // Not captured above: either it does not match what the guest was asked to pay, or it is credited already.
        return event.amount_cents !== payment.totalCents || event.currency.toUpperCase() !== payment.currency ? 'mismatch' : 'ignored';
      case 'payment.failed':
      case 'payment.canceled': {
        if (payment.status !== 'pending') return 'ignored';
        await repo.updatePayment(tx, payment.id, { status: event.type === 'payment.failed' ? 'failed' : 'canceled' }, now);
        return 'applied';
      }
      case 'payment.refunded':
      case 'payment.chargeback': {
        if (event.amount_cents <= 0 || event.amount_cents > payment.totalCents || event.currency.toUpperCase() !== payment.currency) return 'mismatch';
        if (payment.status === 'refunded') return 'ignored';
        if (payment.status !== 'succeeded') {
          // The refund overtook the success: nothing was credited, and the late success will be ignored.
          await repo.updatePayment(tx, payment.id, { status: 'refunded' }, now);
          return 'applied';
        }
        await reverseTip(tx, payment.id, payment.totalCents, event.type === 'payment.refunded' ? 'refund' : 'chargeback', now);
        await repo.updatePayment(tx, payment.id, { status: 'refunded' }, now);
        return 'applied';
      }
    }
  }

  return {
    termsOfPayment: () => ({
      fee_percent: deps.feePercent,
      min_amount_cents: TIP_MIN_CENTS,
      max_amount_cents: TIP_MAX_CENTS,
      preset_amounts_cents: [...TIP_PRESETS_CENTS],
    }),

    async publicCard(cardId: string): Promise<PublicCard | null> {
      return findPublicCard(db, cardId, this.termsOfPayment());
    },

    /**
     * Opens a checkout for a guest's tip. The card and the Idempotency-Key name the payment: the same key and body
     * answer the first payment again, whatever the timing (a concurrent twin waits on the key's row); the same key
     * with another body is refused. The provider is called inside the transaction, so a failure leaves nothing.
     */
    async createPayment(cardId: string, body: CreatePayment, idempotencyKey: string): Promise<PublicPayment> {
      const recipient = await findCardRecipient(db, cardId);
      if (!recipient) throw new AppError('not_found');
      const tip = tipBreakdown(body.amount_cents, deps.feePercent, body.cover_fee);
      const requestHash = createHash('sha256')
        .update(JSON.stringify([cardId, body.amount_cents, body.cover_fee, body.rating ?? null, body.message || null]))
        .digest('hex');
      const row = await db.transaction(async (tx) => {
        const inserted = await repo.insertPaymentOnce(tx, {
          cardId,
          recipientUserId: recipient.userId,
          amountCents: tip.amountCents,
          feeCents: tip.feeCents,
          totalCents: tip.totalCents,
          netCents: tip.netCents,
          coverFee: body.cover_fee,
          provider: deps.active,
          idempotencyKey,
          requestHash,
          description: `Tip via ${recipient.title}`,
          message: body.message || null,
          rating: body.rating ?? null,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        });
        if (!inserted) {
          const existing = (await repo.findPaymentByKey(tx, cardId, idempotencyKey))!;
          if (existing.requestHash !== requestHash) throw new AppError('idempotency_key_reused');
          return existing;
        }
        let checkout: { checkout_url: string; provider_ref: string };
        try {
          checkout = await provider(deps.active).createCheckout({
            purpose: 'tip',
            amount_cents: tip.totalCents,
            currency: 'EUR',
            description: `Tip for ${recipient.publicName}`,
            success_url: `${deps.publicUrl}/payment/walletto-result?payment=${inserted.id}`,
            cancel_url: `${deps.publicUrl}/payment/${cardId}/canceled?payment=${inserted.id}`,
            idempotency_key: `tip:${cardId}:${idempotencyKey}`,
            metadata: { payment_id: inserted.id, card_id: cardId },
          });
        } catch (error) {
          log.error({ err: error, provider: deps.active }, 'checkout creation failed');
          throw new AppError('provider_unavailable');
        }
        return repo.updatePayment(tx, inserted.id, { providerRef: checkout.provider_ref, checkoutUrl: checkout.checkout_url }, clock.now());
      });
      return toPublicPayment(row);
    },

    async getPublicPayment(paymentId: string): Promise<PublicPayment> {
      const row = await repo.findPayment(db, paymentId);
      if (!row) throw new AppError('not_found');
      return toPublicPayment(row);
    },

    /** Verifies a webhook and applies its event exactly once in effect; forged, altered or stale bodies change nothing. */
    async handleWebhook(providerName: ProviderName, rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<EventOutcome> {
      const event = await provider(providerName).parseWebhook(rawBody, headers);
      return this.applyEvent(providerName, event);
    },

    async applyEvent(providerName: ProviderName, event: ProviderEvent): Promise<EventOutcome> {
      const outcome = await db.transaction((tx) => applyInTransaction(tx, providerName, event));
      if (outcome === 'mismatch') {
        log.error({ provider: providerName, eventId: event.id, type: event.type, paymentId: event.payment_id }, 'provider event does not match the stored payment: nothing credited');
      }
      return outcome;
    },
  };
}
