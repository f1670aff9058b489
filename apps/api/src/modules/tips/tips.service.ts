import type { Locale } from '@tipcard/shared/constants';
import { formatAmount } from '@tipcard/shared/money/format';
import { tipBreakdown, TIP_MAX_CENTS, TIP_MIN_CENTS, TIP_PRESETS_CENTS } from '@tipcard/shared/payments/fees';
import {
  paymentReference,
  type GuestFormNotice,
  type GuestFormStart,
  type GuestSuccess,
} from '@tipcard/shared/payments/guest-form';
import type { createPaymentBody, PublicCard, PublicPayment } from '@tipcard/shared/payments/schemas';
import type { TipAnswerState } from '@tipcard/shared/transactions/schemas';
import type { PublicTeam } from '@tipcard/shared/teams/schemas';
import type { z } from 'zod';
import { isUuid } from '@tipcard/shared/uuid';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { guestPagePath, t } from '../../lib/i18n.ts';
import {
  addCardRatings,
  findCardFace,
  findCardRecipient,
  findCardThankYou,
  findPublicCard,
  listCardsOfUser,
} from '../cards/cards.service.ts';
import { donorOfPayment, nextChargeOfPayment } from '../donations/donations.service.ts';
import { payerRatingOf, type PaymentsService, type PurposeHandler } from '../payments/payments.service.ts';
import type { ReceiptsService } from '../receipts/receipts.service.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';
import { paymentOfPayin } from '../transactions/transactions.service.ts';
import { requireOwnClient } from '../users/users.service.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PublicCardCache, PublicCardRead } from './public-card-cache.ts';
import * as repo from './tips.repository.ts';

/** The public card cache, built by the composition root (services.ts) for this service. */
export { createPublicCardCache } from './public-card-cache.ts';

type CreateTip = z.output<typeof createPaymentBody>;

/**
 * What a tip to a personal card means to the money (the `tip` purpose): the card's owner receives the tip less the
 * fee (all of it when the guest covers the fee), on hold like every payment; the guest's rating counts on the card.
 */
export function createTipHandler(): PurposeHandler {
  const allocateMany: NonNullable<PurposeHandler['allocateMany']> = async (tx, payments) => {
    const found = new Map(
      (
        await repo.findTipsWithRecipients(
          tx,
          payments.map((payment) => payment.id),
        )
      ).map((tip) => [tip.paymentId, tip]),
    );
    return payments.map((payment) => {
      const tip = found.get(payment.id);
      if (!tip) throw new Error(`Tip ${payment.id} has no card to credit`);
      return [
        {
          userId: tip.userId,
          netCents: payment.totalCents - payment.feeCents,
          feeCents: payment.feeCents,
          history: { detail: { kind: 'tip', card: tip.title }, message: tip.message, rating: tip.rating },
        },
      ];
    });
  };
  return {
    purpose: 'tip',
    async allocate(tx, payment, now) {
      return (await allocateMany(tx, [payment], now))[0]!;
    },
    allocateMany,
    async onSucceededMany(tx, successes) {
      await addCardRatings(
        tx,
        successes.flatMap(({ payment, plans }) => {
          const rating = payerRatingOf(plans);
          return rating == null ? [] : [{ cardId: payment.subjectId, rating }];
        }),
      );
    },
  };
}

/** What the guest wrote with a tip (a personal or a team card's), for the purpose handler that credits it. */
export async function findTipNote(
  tx: Executor,
  paymentId: string,
): Promise<{ message: string | null; rating: number | null } | null> {
  const tip = await repo.findTip(tx, paymentId);
  return tip ? { message: tip.message, rating: tip.rating } : null;
}

/**
 * The team whose card this is, if any: its tips are the `team_tip` purpose, split among the members. The venue of a
 * venue card answers in the same shape (`venueOfCard`, decision 0058): the `venue_tip` purpose.
 */
export type TeamOfCard = (cardId: string) => Promise<PublicTeam | null>;

export type TipsService = ReturnType<typeof createTipsService>;

/**
 * A guest's tip to a card: what the guest sees of the card, and the checkout for the tip. The teams module tells
 * (through `teamOfCard`) which cards are team cards, so this module never depends on it.
 */
export function createTipsService(deps: {
  db: Database;
  clock: Clock;
  payments: PaymentsService;
  receipts: Pick<ReceiptsService, 'sendTo' | 'linkOf' | 'contactOf'>;
  messages: Pick<MessagingService, 'enqueueEmail'>;
  publicUrl: string;
  feePercent: number;
  teamOfCard?: TeamOfCard;
  venueOfCard?: TeamOfCard;
  /** The public card and its pages kept in memory (decision 0051). */
  publicCards: PublicCardCache;
}) {
  /** The card's payment, or null when there is none or it belongs to another card (a made-up or foreign link). */
  const paymentById = async (paymentId: string | null): Promise<PublicPayment | null> => {
    if (!paymentId || !isUuid(paymentId)) return null;
    try {
      return await deps.payments.getPublicPayment(paymentId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    }
  };
  const paymentOfCard = async (cardId: string, paymentId: string | null): Promise<PublicPayment | null> => {
    const payment = await paymentById(paymentId);
    return payment?.card_id === cardId ? payment : null;
  };
  const successOf = async (cardId: string, paymentId: string | null, locale: Locale): Promise<GuestSuccess | null> => {
    const payment = await paymentOfCard(cardId, paymentId);
    if (payment?.status !== 'succeeded') return null;
    return {
      id: payment.id,
      reference: paymentReference(payment.id),
      amount_cents: payment.amount_cents,
      total_cents: payment.total_cents,
      next_charge_at: (await nextChargeOfPayment(deps.db, payment.id))?.toISOString() ?? null,
      receipt_url: await deps.receipts.linkOf(payment.id, locale),
      thank_you: await findCardThankYou(deps.db, cardId),
    };
  };

  /**
   * The tip behind one of the user's received history rows, with its message and the guest's receipt address (which
   * never leaves the server). A team tip has a row per member who got a share: each of them may answer, once for all
   * (decision 0047). not_found for anything else: another user's row, a payout, a reward, an invoice or a donation.
   */
  const answerableTip = async (db: Executor, userId: string, clientId: string, transactionId: string) => {
    await requireOwnClient(db, userId, clientId);
    const paymentId = await paymentOfPayin(db, userId, transactionId);
    const tip = paymentId ? await repo.findTip(db, paymentId) : undefined;
    if (!tip) throw new AppError('not_found');
    const contact = await deps.receipts.contactOf(db, tip.paymentId);
    return { tip, contact };
  };
  const answerStateOf = (
    tip: repo.TipRow,
    contact: unknown,
    answer: { text: string; createdAt: Date } | undefined,
  ): TipAnswerState => ({
    can_answer: Boolean(tip.message && contact && !answer),
    answer: answer ? { text: answer.text, created_at: answer.createdAt.toISOString() } : null,
  });
  const termsOfPayment = () => ({
    fee_percent: deps.feePercent,
    min_amount_cents: TIP_MIN_CENTS,
    max_amount_cents: TIP_MAX_CENTS,
    preset_amounts_cents: [...TIP_PRESETS_CENTS],
  });
  /** The card as the database has it now; only a team card asks the teams module (a second round trip) for its team. */
  const loadPublicCard = async (cardId: string): Promise<PublicCard | null> => {
    const found = await findPublicCard(deps.db, cardId, termsOfPayment());
    if (!found) return null;
    if (!found.teamCard) return found.card;
    const team = await deps.teamOfCard?.(cardId);
    if (team) return { ...found.card, team };
    const venue = await deps.venueOfCard?.(cardId);
    return venue ? { ...found.card, venue } : found.card;
  };
  return {
    /**
     * The deletion of the owner's account (inside its transaction): the pending tips to their cards are voided. One that
     * is paid anyway is given back (payments: its recipient is deleted).
     */
    async voidTipsTo(tx: Transaction, userId: string): Promise<void> {
      const cards = await listCardsOfUser(tx, userId);
      await deps.payments.voidPendingCheckouts(
        tx,
        'tip',
        cards.map((card) => card.id),
      );
    },

    /** Whether the guest's message on this received tip can be answered, and the answer once given. */
    async answerState(userId: string, clientId: string, transactionId: string): Promise<TipAnswerState> {
      const { tip, contact } = await answerableTip(deps.db, userId, clientId, transactionId);
      return answerStateOf(tip, contact, await repo.findAnswer(deps.db, tip.paymentId));
    },

    /**
     * The recipient's one answer to the guest's message, e-mailed through the outbox in the same transaction, in the
     * language the guest gave their address in, from the service's address and signed with the card's public name:
     * neither side's address or phone is shown to the other. A second answer (even at the same moment) is a 409.
     */
    async answer(userId: string, clientId: string, transactionId: string, text: string): Promise<TipAnswerState> {
      return deps.db.transaction(async (tx) => {
        const { tip, contact } = await answerableTip(tx, userId, clientId, transactionId);
        if (!tip.message) throw new AppError('tip_answer_no_message');
        if (!contact) throw new AppError('tip_answer_no_email');
        const now = deps.clock.now();
        if (!(await repo.insertAnswerOnce(tx, { paymentId: tip.paymentId, userId, text, createdAt: now })))
          throw new AppError('tip_answer_sent');
        const face = await findCardFace(tx, tip.cardId);
        const vars = {
          name: face?.public_name ?? '',
          message: tip.message,
          answer: text,
          reference: paymentReference(tip.paymentId),
        };
        await deps.messages.enqueueEmail(tx, {
          to: contact.email,
          subject: t('receipts:answer_mail.subject', vars, contact.locale),
          text: t('receipts:answer_mail.text', vars, contact.locale),
        });
        return answerStateOf(tip, contact, { text, createdAt: now });
      });
    },

    termsOfPayment,
    paymentById,
    paymentOfCard,
    successOf,

    /**
     * What the form starts from after a payment that did not go through: the amount, fee choice, rating and message
     * the guest sent (the terms were accepted to send it), with the notice; null for another card's payment.
     */
    async retryOf(
      cardId: string,
      paymentId: string | null,
      notice: GuestFormNotice,
      presets: readonly number[],
      locale: Locale,
    ): Promise<GuestFormStart | null> {
      const payment = await paymentOfCard(cardId, paymentId);
      if (!payment || payment.status === 'succeeded') return null;
      const note = await repo.findTip(deps.db, payment.id);
      const preset = presets.includes(payment.amount_cents);
      return {
        preset_cents: preset ? payment.amount_cents : null,
        custom: preset ? '' : formatAmount(payment.amount_cents, locale).replace(/ /g, ''),
        cover_fee: payment.cover_fee,
        rating: note?.rating ?? null,
        message: note?.message ?? '',
        terms: true,
        notice,
        payment_id: payment.id,
        donor: await donorOfPayment(deps.db, payment.id),
        errors: {},
      };
    },

    /**
     * The receipt of this card's paid payment e-mailed (docs/decisions/0042), the address kept for its refund receipt;
     * not_found for anything else.
     */
    async sendReceipt(cardId: string, paymentId: string, email: string, locale: Locale): Promise<void> {
      const payment = await paymentOfCard(cardId, paymentId);
      if (payment?.status !== 'succeeded') throw new AppError('not_found');
      await deps.receipts.sendTo(payment.id, email, locale);
    },

    /** What a guest sees of the card (null: not found), with its answer's body, tag and rendered pages: from memory when kept. */
    publicCardRead(cardId: string): Promise<PublicCardRead> {
      return deps.publicCards.read(cardId, () => loadPublicCard(cardId));
    },

    async publicCard(cardId: string): Promise<PublicCard | null> {
      return (await this.publicCardRead(cardId)).card;
    },

    /** The card's form page in a language, rendered by `render` only when not kept (decision 0051). */
    formPage(read: PublicCardRead, locale: Locale, render: () => Promise<string | null>) {
      return deps.publicCards.page(read, locale, render);
    },

    /**
     * Opens a checkout for a guest's tip, in the guest's language; the same Idempotency-Key and body answer the same
     * payment.
     */
    async createTip(cardId: string, body: CreateTip, idempotencyKey: string, locale: Locale): Promise<PublicPayment> {
      const recipient = await findCardRecipient(deps.db, cardId);
      if (!recipient?.active) throw new AppError('not_found');
      const team = await deps.teamOfCard?.(cardId);
      const venue = team ? null : await deps.venueOfCard?.(cardId);
      const tip = tipBreakdown(body.amount_cents, deps.feePercent, body.cover_fee);
      const message = body.message || null;
      const rating = body.rating ?? null;
      return deps.payments.openCheckout({
        purpose: team ? 'team_tip' : venue ? 'venue_tip' : 'tip',
        subjectId: cardId,
        idempotencyKey,
        request: [body.amount_cents, body.cover_fee, rating, message],
        amountCents: tip.amountCents,
        feeCents: tip.feeCents,
        totalCents: tip.totalCents,
        coverFee: body.cover_fee,
        description: team ? `Team tip via ${team.title}` : venue ? `Venue tip via ${venue.title}` : `Tip via ${recipient.title}`,
        providerDescription: team
          ? t('checkout:description.team_tip', { team: team.title }, locale)
          : venue
            ? t('checkout:description.venue_tip', { venue: venue.title }, locale)
            : t('checkout:description.tip', { name: recipient.publicName }, locale),
        locale,
        successUrl: (paymentId) => `${deps.publicUrl}${guestPagePath(locale, `/payment/walletto-result?payment=${paymentId}`)}`,
        cancelUrl: (paymentId) => `${deps.publicUrl}${guestPagePath(locale, `/payment/${cardId}/canceled?payment=${paymentId}`)}`,
        metadata: { card_id: cardId },
        onCreated: (tx, payment) => repo.insertTip(tx, { paymentId: payment.id, cardId, message, rating }),
      });
    },
  };
}
