import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '@tipcard/shared/constants';
import {
  CARD_ORDER_MAX_ITEMS,
  CARD_ORDER_MAX_ITEMS_PER_USER,
  CARD_PRODUCTS,
  type CardOrder,
  type CardOrders,
  type CardProduct,
  type CardProductId,
  type cardOrderBody,
} from '@tipcard/shared/card-orders/schemas';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { appRoutePath, t } from '../../lib/i18n.ts';
import { findCardFace, findPrivateCardOfUser, paymentUrlOf, type CardsService } from '../cards/cards.service.ts';
import { DEFAULT_QR_COLOR, renderQrCode } from '../../lib/qr-code.ts';
import { findPaymentWithShares, type PaymentsService, type PurposeHandler } from '../payments/payments.service.ts';
import { lockUser, requireOwnClient } from '../users/users.service.ts';
import * as repo from './card-orders.repository.ts';
import { BLEED_MM, PRINT_SIZES, renderPrintFile } from './print-file.ts';

type OrderBody = z.output<typeof cardOrderBody>;

/** How long a claimed refund waits before another worker may try it again (a killed worker, a provider down). */
const REFUND_LEASE_MS = 10 * 60_000;

function toOrder(row: repo.CardOrderRow): CardOrder {
  return {
    id: row.id,
    card_id: row.cardId,
    product: row.product,
    quantity: row.quantity,
    status: row.status,
    free: row.free,
    total_cents: row.totalCents,
    currency: 'EUR',
    country: row.country,
    city: row.city,
    address: row.address,
    apartment: row.apartment,
    zip: row.zip,
    first_name: row.firstName,
    last_name: row.lastName,
    additional_info: row.additionalInfo,
    tracking_reference: row.trackingReference,
    checkout_url: row.status === 'awaiting_payment' ? row.checkoutUrl : null,
    created_at: row.createdAt.toISOString(),
    placed_at: row.placedAt?.toISOString() ?? null,
    shipped_at: row.shippedAt?.toISOString() ?? null,
  };
}

/**
 * What a card order's payment means to the money (purpose `card_order`): all of it is the platform's card sales; on
 * success the order is placed, a payment that will not be charged cancels the order (its items are free again), a
 * full refund cancels it too. A payment that succeeds for an order canceled meanwhile is given back in full by the
 * `card-orders.refund-canceled` job, unless it may still place the order (below).
 */
export function createCardOrderHandler(): PurposeHandler {
  return {
    purpose: 'card_order',
    async allocate(tx, payment) {
      const order = await repo.findOrder(tx, payment.subjectId);
      if (!order) throw new Error(`Card order payment ${payment.id} has no order`);
      return [{ platform: 'card_sales', netCents: payment.totalCents, feeCents: 0 }];
    },
    async onSucceeded(tx, payment, _allocations, now) {
      const order = await repo.findOrderForUpdate(tx, payment.subjectId);
      if (!order || order.paymentId !== payment.id) return;
      if (order.status === 'awaiting_payment') {
        await repo.updateOrder(tx, order.id, { status: 'placed', placedAt: now, updatedAt: now });
      } else if (order.status === 'canceled' && !order.placedAt) {
        // A capture after the checkout was reported closed is still money received for this order: it places the
        // order only if the back office did not cancel it and the user's items (counted under their lock, as new
        // orders are) leave room for it. Otherwise it is given back.
        await lockUser(tx, order.userId);
        const room =
          !order.canceledByOperator &&
          (await repo.orderedSoFar(tx, order.userId)).items + order.quantity <= CARD_ORDER_MAX_ITEMS_PER_USER;
        await repo.updateOrder(
          tx,
          order.id,
          room ? { status: 'placed', placedAt: now, canceledAt: null, updatedAt: now } : { refundDueAt: now, updatedAt: now },
        );
      }
    },
    async onClosed(tx, payment, now) {
      const order = await repo.findOrderForUpdate(tx, payment.subjectId);
      if (order?.status === 'awaiting_payment' && order.paymentId === payment.id) {
        await repo.updateOrder(tx, order.id, { status: 'canceled', canceledAt: now, updatedAt: now });
      }
    },
    async onAdjusted(tx, payment, _allocations, now) {
      const order = await repo.findOrderForUpdate(tx, payment.subjectId);
      if (order && payment.status === 'refunded' && order.status !== 'canceled') {
        await repo.updateOrder(tx, order.id, { status: 'canceled', canceledAt: now, updatedAt: now });
      }
    },
  };
}

/** The back office's moves (DESIGN "Card shop": the back office moves the statuses), each from the states it allows. */
const MOVES = {
  startProduction: { from: ['placed'], to: 'in_production', at: 'inProductionAt' },
  ship: { from: ['in_production'], to: 'shipped', at: 'shippedAt' },
  markDelivered: { from: ['shipped'], to: 'delivered', at: 'deliveredAt' },
} as const satisfies Record<
  string,
  { from: readonly repo.CardOrderStatus[]; to: repo.CardOrderStatus; at: keyof repo.CardOrderRow }
>;

const CANCELABLE: readonly repo.CardOrderStatus[] = ['awaiting_payment', 'placed', 'in_production'];

export type CardOrdersService = ReturnType<typeof createCardOrdersService>;

/** Runs inside a back-office move of an order (its audit record), with the order before and after. */
export type OnOrderChange = (tx: Executor, change: { before: repo.CardOrderRow; after: CardOrder }) => Promise<void>;

export function createCardOrdersService(deps: {
  db: Database;
  cards: Pick<CardsService, 'usableCard'>;
  clock: Clock;
  log: FastifyBaseLogger;
  payments: PaymentsService;
  publicUrl: string;
  unitPriceCents: number;
}) {
  const { db, clock } = deps;

  const products = (): CardProduct[] =>
    CARD_PRODUCTS.map((id) => ({
      id,
      width_mm: PRINT_SIZES[id].widthMm,
      height_mm: PRINT_SIZES[id].heightMm,
      bleed_mm: BLEED_MM,
      unit_price_cents: deps.unitPriceCents,
      currency: 'EUR' as const,
    }));

  /**
   * The card an order prints: the one asked for when the user may use it (their own, a team card they run, their
   * venue's card), else their own.
   */
  async function requireCard(userId: string, cardId?: string) {
    if (cardId) return deps.cards.usableCard(userId, cardId);
    const card = await findPrivateCardOfUser(db, userId);
    if (!card) throw new AppError('card_order_no_card');
    return card;
  }

  async function requireOwnOrder(userId: string, clientId: string, orderId: string) {
    await requireOwnClient(db, userId, clientId);
    const order = await repo.findOrder(db, orderId);
    if (!order || order.userId !== userId || order.clientId !== clientId) throw new AppError('not_found');
    return order;
  }

  async function printFileOf(card: { id: string; public_name: string }, product: CardProductId, quantity: number) {
    const paymentUrl = paymentUrlOf(deps.publicUrl, card.id);
    const qr = await renderQrCode(paymentUrl, DEFAULT_QR_COLOR, 'png');
    return renderPrintFile({ product, quantity, publicName: card.public_name, paymentUrl, qrPng: qr.body as Buffer });
  }

  /** What an order prints: its card as it is now (a team card renamed since prints its new name). */
  async function printOrder(order: repo.CardOrderRow) {
    const face = await findCardFace(db, order.cardId);
    return printFileOf({ id: order.cardId, public_name: face!.public_name }, order.product, order.quantity);
  }

  /** Inside the user's lock: the limits, then the order, free when the user has no free order that stands. */
  async function insertWithinLimits(
    userId: string,
    clientId: string,
    cardId: string,
    body: OrderBody,
    key: string | undefined,
    requestHash: string,
  ) {
    return db.transaction(async (tx) => {
      await lockUser(tx, userId);
      if (key) {
        const existing = await repo.findOrderByKey(tx, userId, key);
        if (existing) {
          if (existing.requestHash !== requestHash) throw new AppError('idempotency_key_reused');
          return { order: existing, created: false };
        }
      }
      const sofar = await repo.orderedSoFar(tx, userId);
      if (sofar.items + body.quantity > CARD_ORDER_MAX_ITEMS_PER_USER) throw new AppError('card_order_limit');
      const free = !sofar.hasFree;
      const now = clock.now();
      const unitPriceCents = free ? 0 : deps.unitPriceCents;
      const order = await repo.insertOrder(tx, {
        userId,
        clientId,
        cardId,
        product: body.product,
        quantity: body.quantity,
        free,
        unitPriceCents,
        totalCents: unitPriceCents * body.quantity,
        status: free ? 'placed' : 'awaiting_payment',
        country: body.country,
        city: body.city,
        address: body.address,
        apartment: body.apartment,
        zip: body.zip,
        firstName: body.first_name,
        lastName: body.last_name,
        additionalInfo: body.additional_info,
        idempotencyKey: key ?? null,
        requestHash,
        createdAt: now,
        updatedAt: now,
        placedAt: free ? now : null,
      });
      return { order, created: true };
    });
  }

  /** Opens the provider's checkout for a paid order; an order that cannot be paid is canceled, so its items are free again. */
  async function openCheckout(order: repo.CardOrderRow, locale: Locale): Promise<repo.CardOrderRow> {
    const orderUrl = (outcome: 'success' | 'canceled', paymentId: string) =>
      `${deps.publicUrl}${appRoutePath(locale, `/card-orders/payment/${outcome}?order=${order.id}&payment=${paymentId}`)}`;
    try {
      const payment = await deps.payments.openCheckout({
        purpose: 'card_order',
        subjectId: order.id,
        idempotencyKey: `card-order:${order.id}`,
        request: [order.id],
        amountCents: order.totalCents,
        feeCents: 0,
        totalCents: order.totalCents,
        coverFee: false,
        description: `Card order ${order.id.slice(0, 8)}`,
        providerDescription: t(
          'checkout:description.card_order',
          { items: t(`card-orders:products.${order.product}.quantity`, { count: order.quantity }, locale) },
          locale,
        ),
        locale,
        successUrl: (paymentId) => orderUrl('success', paymentId),
        cancelUrl: (paymentId) => orderUrl('canceled', paymentId),
        metadata: { card_order_id: order.id },
        onCreated: async (tx, payment) => {
          await repo.updateOrder(tx, order.id, { paymentId: payment.id });
        },
      });
      return db.transaction((tx) =>
        repo.updateOrder(tx, order.id, { checkoutUrl: payment.checkout_url, updatedAt: clock.now() }),
      );
    } catch (error) {
      await db.transaction(async (tx) => {
        const locked = await repo.findOrderForUpdate(tx, order.id);
        if (locked?.status === 'awaiting_payment')
          await repo.updateOrder(tx, order.id, { status: 'canceled', canceledAt: clock.now(), updatedAt: clock.now() });
      });
      throw error;
    }
  }

  async function move(
    orderId: string,
    name: keyof typeof MOVES,
    changes: Partial<repo.CardOrderRow> = {},
    onChanged?: OnOrderChange,
  ): Promise<CardOrder> {
    const rule = MOVES[name];
    return db.transaction(async (tx) => {
      const order = await repo.findOrderForUpdate(tx, orderId);
      if (!order) throw new AppError('not_found');
      if (!(rule.from as readonly string[]).includes(order.status)) throw new AppError('card_order_status');
      const now = clock.now();
      const after = toOrder(await repo.updateOrder(tx, orderId, { ...changes, status: rule.to, [rule.at]: now, updatedAt: now }));
      await onChanged?.(tx, { before: order, after });
      return after;
    });
  }

  /**
   * Gives a canceled order's payment back in full under the key `card-order:{id}:cancel` (a retry, or the job and the
   * cancel at once, refund once), then marks it done. A payment with nothing left to give (refunded already, or taken
   * back by a dispute) is done too; any other failure leaves it due for the job.
   */
  async function giveBack(order: repo.CardOrderRow) {
    try {
      const payment = order.paymentId ? (await findPaymentWithShares(db, order.paymentId))?.payment : undefined;
      const left = payment ? payment.totalCents - Math.min(payment.totalCents, payment.refundedCents + payment.disputedCents) : 0;
      if (payment?.status === 'succeeded' && left > 0)
        await deps.payments.refundPayment(payment.id, left, `card-order:${order.id}:cancel`);
    } catch (error) {
      if (!(error instanceof AppError && (error.code === 'refund_too_large' || error.code === 'payment_not_refundable'))) {
        deps.log.warn(
          { err: error, orderId: order.id },
          'could not give back a canceled card order’s payment; trying again later',
        );
        return;
      }
    }
    await db.transaction((tx) => repo.updateOrder(tx, order.id, { refundDueAt: null }));
  }

  return {
    products,

    /** The user's orders, newest first, and what the next order may be. */
    async list(userId: string, clientId: string): Promise<CardOrders> {
      await requireOwnClient(db, userId, clientId);
      const [rows, sofar] = await Promise.all([repo.listOrders(db, userId), repo.orderedSoFar(db, userId)]);
      return {
        orders: rows.map(toOrder),
        next_order_free: !sofar.hasFree,
        items_ordered: sofar.items,
        items_left: Math.max(0, CARD_ORDER_MAX_ITEMS_PER_USER - sofar.items),
        max_items_per_order: CARD_ORDER_MAX_ITEMS,
        unit_price_cents: deps.unitPriceCents,
      };
    },

    async get(userId: string, clientId: string, orderId: string): Promise<CardOrder> {
      return toOrder(await requireOwnOrder(userId, clientId, orderId));
    },

    /**
     * Places an order: 1–3 items, at most 10 per user in all, the first order free and placed at once, later ones
     * awaiting payment with a checkout. The user's row lock serialises a user's concurrent orders, so the limits hold;
     * the partial unique index on free orders is the last word on "first order free". With an Idempotency-Key a retry
     * answers the same order.
     */
    async create(userId: string, clientId: string, body: OrderBody, locale: Locale, idempotencyKey?: string): Promise<CardOrder> {
      await requireOwnClient(db, userId, clientId);
      if (body.quantity > CARD_ORDER_MAX_ITEMS) throw new AppError('card_order_too_many_items');
      const card = await requireCard(userId, body.card_id);
      const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
      let placed: { order: repo.CardOrderRow; created: boolean };
      try {
        placed = await insertWithinLimits(userId, clientId, card.id, body, idempotencyKey, requestHash);
      } catch (error) {
        if (isUniqueViolation(error, 'card_orders_user_idempotency_key')) {
          placed = await insertWithinLimits(userId, clientId, card.id, body, idempotencyKey, requestHash);
        } else throw error;
      }
      const { order } = placed;
      if (order.status === 'awaiting_payment' && !order.checkoutUrl) return toOrder(await openCheckout(order, locale));
      return toOrder(order);
    },

    /** The print file of an order as the user previews it. */
    async printPreview(userId: string, clientId: string, orderId: string): Promise<Buffer> {
      return printOrder(await requireOwnOrder(userId, clientId, orderId));
    },

    /** What an order of the product would print with the card, before ordering (the form's preview step). */
    async draftPreview(userId: string, clientId: string, product: CardProductId, cardId?: string): Promise<Buffer> {
      await requireOwnClient(db, userId, clientId);
      return printFileOf(await requireCard(userId, cardId), product, 1);
    },

    // The back office's operations: `onChanged` runs in the change's transaction (the operator's audit record).

    /** Orders of a status (every status when none), the oldest first: the back office's queue. */
    async listForOperators(status: repo.CardOrderStatus | undefined, limit = 200) {
      return (await repo.listOrdersByStatus(db, status, limit)).map((row) => ({ ...toOrder(row), user_id: row.userId }));
    },

    /** The print file the back office sends to the printer. */
    async printFile(orderId: string): Promise<Buffer> {
      const order = await repo.findOrder(db, orderId);
      if (!order) throw new AppError('not_found');
      return printOrder(order);
    },

    startProduction: (orderId: string, onChanged?: OnOrderChange) => move(orderId, 'startProduction', {}, onChanged),
    ship: (orderId: string, trackingReference: string, onChanged?: OnOrderChange) => {
      const reference = trackingReference.trim();
      if (!reference || reference.length > 100)
        throw new AppError('validation_failed', { validationErrors: { tracking_reference: ['Enter valid data'] } });
      return move(orderId, 'ship', { trackingReference: reference }, onChanged);
    },
    markDelivered: (orderId: string, onChanged?: OnOrderChange) => move(orderId, 'markDelivered', {}, onChanged),

    /**
     * Cancels an order not yet shipped, once: the order's row lock lets one call make the change and its audit record
     * (`onChanged`); a concurrent or later call finds it canceled and is refused. A paid order's payment is then given
     * back in full under one refund key, at once and, should that fail, by the `card-orders.refund-canceled` job; a
     * payment still open at the provider is given back when it succeeds.
     */
    async cancelOrder(orderId: string, onChanged?: OnOrderChange): Promise<CardOrder> {
      const canceled = await db.transaction(async (tx) => {
        const order = await repo.findOrderForUpdate(tx, orderId);
        if (!order) throw new AppError('not_found');
        if (!CANCELABLE.includes(order.status)) throw new AppError('card_order_status');
        const now = clock.now();
        const paid = order.paymentId !== null && order.status !== 'awaiting_payment';
        const row = await repo.updateOrder(tx, orderId, {
          status: 'canceled',
          canceledAt: now,
          canceledByOperator: true,
          updatedAt: now,
          ...(paid && { refundDueAt: now }),
        });
        await onChanged?.(tx, { before: order, after: toOrder(row) });
        return row;
      });
      if (canceled.refundDueAt) await giveBack(canceled);
      return toOrder(canceled);
    },

    /** The refund job's step: one canceled order's payment given back in full. Answers false when none is due. */
    async refundOneCanceled(now: Date): Promise<boolean> {
      const claimed = await db.transaction((tx) => repo.claimDueRefund(tx, now, new Date(now.getTime() + REFUND_LEASE_MS)));
      if (!claimed) return false;
      await giveBack(claimed);
      return true;
    },
  };
}

/** Back office search: orders whose id lies in the range (an order number, `uuidPrefixRange`). */
export const findCardOrdersInIdRange = repo.findOrdersInIdRange;
