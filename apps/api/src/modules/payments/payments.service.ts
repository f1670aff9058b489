import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '@tipcard/shared/constants';
import type { PublicPayment } from '@tipcard/shared/payments/schemas';
import { isUuid } from '@tipcard/shared/uuid';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import type { Partition } from '../../jobs/job.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Metrics } from '../../lib/metrics.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  lockBalances,
  postEntries,
  postEntry,
  type AccountRef,
  type Posting,
  type UserAccountRef,
} from '../ledger/ledger.service.ts';
import { markPayinPaid, recordPayins, showPayinState } from '../transactions/transactions.service.ts';
import { findDeletedAmong } from '../users/users.service.ts';
import {
  ProviderRefusedError,
  type PaymentProvider,
  type PaymentPurpose,
  type ProviderEvent,
  type ProviderName,
} from './payment-provider.ts';
import * as repo from './payments.repository.ts';
import { proportionalSplit } from './proportional-split.ts';
import type { AllocationPlan, PurposeHandler } from './purpose-handler.ts';

export type { ProviderEvent, ProviderName } from './payment-provider.ts';
export { payerRatingOf, type AllocationPlan, type PurposeHandler } from './purpose-handler.ts';

export type EventOutcome = 'applied' | 'ignored' | 'mismatch' | 'duplicate';

/** What a webhook answers: its event is recorded to be applied, or it was recorded before (decision 0060). */
export type WebhookOutcome = 'recorded' | 'duplicate';

export interface PaymentsDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Counts the provider events taken and how late each was applied (`lib/metrics.ts`). */
  metrics?: Pick<Metrics, 'paymentEvent'>;
  /** Providers that can receive webhooks; `active` opens the new checkouts. */
  providers: Partial<Record<ProviderName, PaymentProvider>>;
  active: ProviderName;
  publicUrl: string;
  /** How long a user's share stays on hold before it can be withdrawn. */
  holdHours: number;
  /** How long a payment may stay pending before the reconciliation job asks the provider about it. */
  reconcileAfterMinutes: number;
  /** How many recorded events, or due shares, one transaction applies at most (decision 0060). */
  batchSize: number;
  /** One handler per purpose that can be paid. */
  handlers: readonly PurposeHandler[];
  /** Per subject (a card, an invoice): checkouts opened in 10 minutes, and failed payments in an hour. */
  velocity: { perSubjectPer10Minutes: number; failedPerSubjectPerHour: number };
  /** After refunds or disputes changed what users kept of a payment, in that transaction (referral rewards). */
  onSharesAdjusted?: (tx: Transaction, userIds: string[], now: Date) => Promise<void>;
  /**
   * After a refund reached a credited payment's books, in that transaction (the payer's refund receipt and the
   * recipients' texts, docs/decisions/0042); called on every adjustment of a payment with refunds, so it must tell of
   * each refunded total once.
   */
  onRefunded?: (tx: Transaction, paymentId: string, now: Date) => Promise<void>;
  /** The payer's receipt link once the books hold the payment, else null (the receipts module, docs/decisions/0042). */
  receiptLinkOf?: (paymentId: string, locale: Locale) => Promise<string | null>;
}

/** What a purpose's module asks for when a payer starts paying. */
export interface CheckoutRequest {
  purpose: PaymentPurpose;
  subjectId: string;
  /** The payer's Idempotency-Key: the same key and request answer the first payment again. */
  idempotencyKey: string;
  /** Everything the payer chose; another request under the same key is refused. */
  request: unknown;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  coverFee: boolean;
  /** How the recipients' history names the payment. */
  description: string;
  /** What the provider's hosted page shows the payer, in their language. */
  providerDescription: string;
  /** The payer's language, for the provider's hosted page. */
  locale: Locale;
  /** Where the provider sends the payer back, given the payment's id. */
  successUrl(paymentId: string): string;
  cancelUrl(paymentId: string): string;
  metadata?: Record<string, string>;
  /** Saves the payer's method for later charges (a monthly donation's first payment), for a customer with this e-mail. */
  saveMethodFor?: string;
  /** The purpose's own record of the payment, written in the same transaction (e.g. a tip's message). */
  onCreated?(tx: Transaction, payment: repo.PaymentRow): Promise<void>;
}

/** A charge of a saved method without the payer (a monthly donation's later months). */
export interface SavedMethodChargeRequest {
  purpose: PaymentPurpose;
  subjectId: string;
  /** Names this charge: the same key answers the same payment and the same provider charge again. */
  idempotencyKey: string;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  coverFee: boolean;
  description: string;
  providerDescription: string;
  /** The provider that saved the method, and its customer and method. */
  provider: ProviderName;
  customerRef: string;
  methodRef: string;
  metadata?: Record<string, string>;
  onCreated?(tx: Transaction, payment: repo.PaymentRow): Promise<void>;
}

const PSP_CLEARING: AccountRef = { platform: 'psp_clearing' };
/** The purposes whose subject is a card: a tip to a person's, a team's or a venue's card. */
const CARD_PURPOSES: ReadonlySet<repo.PaymentRow['purpose']> = new Set(['tip', 'team_tip', 'venue_tip']);
const FEES: AccountRef = { platform: 'fees' };
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Providers close an unpaid checkout within a day (Stripe: 24 h); past two days nobody can still pay it. */
const RECONCILE_GIVE_UP_MS = 48 * HOUR;
/** The return page asks the provider itself only after the webhook has had this long to arrive. */
const RETURN_PAGE_ASKS_AFTER_MS = 3_000;
/** How long a claimed give-back waits before another worker may try it again (a killed worker, a provider down). */
const RETURN_LEASE_MS = 10 * MINUTE;
/** A recorded event that failed to apply on its own is tried again after a minute, then twice as long each time, up to an hour. */
const EVENT_RETRY_FIRST_MS = MINUTE;
const EVENT_RETRY_MAX_MS = HOUR;

function toPublicPayment(row: repo.PaymentRow, receiptUrl: string | null = null): PublicPayment {
  return {
    id: row.id,
    card_id: row.subjectId,
    status: row.status,
    amount_cents: row.amountCents,
    fee_cents: row.feeCents,
    total_cents: row.totalCents,
    cover_fee: row.coverFee,
    currency: 'EUR',
    checkout_url: row.checkoutUrl ?? '',
    created_at: row.createdAt.toISOString(),
    receipt_url: receiptUrl,
  };
}

/** The parts of a payment's money, flattened: each allocation's net, then each allocation's fee. */
const partsOf = (allocations: repo.AllocationRow[]) => [
  ...allocations.map((a) => a.netCents),
  ...allocations.map((a) => a.feeCents),
];
const takenBackOf = (payment: repo.PaymentRow) => Math.min(payment.totalCents, payment.refundedCents + payment.disputedCents);
/** The card a success event names, kept only when it looks like one (a brand word and 4 digits). */
const cardOf = (event: ProviderEvent) =>
  event.card && /^[a-z_]{1,20}$/.test(event.card.brand) && /^\d{4}$/.test(event.card.last4) ? event.card : null;
/** What a success event says was captured, as `markSucceeded` matches it against the stored payment. */
const captureOf = (providerName: ProviderName, event: ProviderEvent): repo.Capture => ({
  provider: providerName,
  providerRef: event.provider_ref,
  totalCents: event.amount_cents,
  currency: event.currency.toUpperCase(),
  payerRef: typeof event.payer_ref === 'string' && event.payer_ref ? event.payer_ref : null,
  card: cardOf(event),
  customerRef: event.saved?.customer_ref ?? null,
  methodRef: event.saved?.method_ref ?? null,
});
const isUserShare = (allocation: repo.AllocationRow): allocation is repo.AllocationRow & { userId: string } =>
  allocation.userId !== null;

/** The platform's fees on what a user received in [from, to), net of refunds, and the number of payments they came from. */
export function feesOfRecipient(db: Executor, userId: string, from: Date, to: Date) {
  return repo.feesOfRecipient(db, userId, from, to);
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;

/** Per user, the shares received from one subject's payments of a purpose in [from, to) (e.g. a team card's tips). */
export function sharesReceivedPerUser(
  db: Executor,
  filter: { purpose: PaymentPurpose; subjectId: string; from: Date; to: Date },
) {
  return repo.sumSharesPerUser(db, filter);
}

/** Per user, the shares of these (payment, user) pairs, net of what was taken back (a team's part of venue tips). */
export function sharesOfPairsPerUser(db: Executor, pairs: readonly { paymentId: string; userId: string }[]) {
  return repo.sumSharesOfPairs(db, pairs);
}

/**
 * Money from people without an account, for every purpose (DESIGN "Payments for many purposes"): checkouts, provider
 * events applied exactly once in effect, refunds and disputes reversed per share, the release of held shares and the
 * reconciliation of payments whose event never came. What a payment means is its purpose handler's business.
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const { db, clock, log } = deps;
  const handlers = new Map(deps.handlers.map((handler) => [handler.purpose, handler]));
  const handlerOf = (purpose: PaymentPurpose) => {
    const handler = handlers.get(purpose);
    if (!handler) throw new Error(`No handler for payments of purpose ${purpose}`);
    return handler;
  };
  const provider = (name: ProviderName) => {
    const found = deps.providers[name];
    if (!found) throw new AppError('not_found');
    return found;
  };

  /**
   * Card testing: someone trying stolen card numbers through one card's page, from many addresses. A subject that
   * opened too many checkouts lately, or saw too many failed payments this hour, takes no new one for a while
   * (its owner's guests with a retry of their own key still get their payment). Counted under a lock per subject,
   * so concurrent checkouts cannot all pass.
   */
  async function refuseCardTesting(tx: Transaction, input: CheckoutRequest, requestHash: string, now: Date) {
    await repo.lockSubjectCheckouts(tx, input.purpose, input.subjectId);
    const existing = await repo.findPaymentByKey(tx, input.purpose, input.subjectId, input.idempotencyKey);
    if (existing?.requestHash === requestHash) return;
    const { recent, failed } = await repo.checkoutVelocity(
      tx,
      input.purpose,
      input.subjectId,
      new Date(now.getTime() - 10 * MINUTE),
      new Date(now.getTime() - HOUR),
    );
    if (failed >= deps.velocity.failedPerSubjectPerHour)
      throw new AppError('too_many_requests', { headers: { 'retry-after': String(HOUR / 1000) } });
    if (recent >= deps.velocity.perSubjectPer10Minutes)
      throw new AppError('too_many_requests', { headers: { 'retry-after': String((10 * MINUTE) / 1000) } });
  }

  /**
   * Which successes must go back to their payer: a purpose that names no recipient (a team card whose team has no
   * member left), or a recipient who has deleted the account. All the recipients' accounts are locked (in ascending id
   * order, so two batches never deadlock) before their state is read: a deletion locks them too before it commits, so
   * either it waits and then sees these shares (and is refused), or this waits and then sees the deletion.
   */
  async function nobodyMayReceive(tx: Transaction, plansOfEach: AllocationPlan[][]): Promise<boolean[]> {
    const usersOf = plansOfEach.map((plans) => new Set(plans.flatMap((plan) => ('userId' in plan ? [plan.userId] : []))));
    const userIds = [...new Set(usersOf.flatMap((users) => [...users]))].sort();
    let deleted = new Set<string>();
    if (userIds.length > 0) {
      await lockBalances(
        tx,
        userIds.map((userId): UserAccountRef => ({ userId, kind: 'hold' })),
      );
      deleted = await findDeletedAmong(tx, userIds);
    }
    return plansOfEach.map((plans, index) => plans.length === 0 || [...usersOf[index]!].some((userId) => deleted.has(userId)));
  }

  /** Each payment's plans, as its purpose decides them: in sets where the purpose can (`allocateMany`), else one by one. */
  async function allocateAll(tx: Transaction, captured: readonly repo.PaymentRow[], now: Date) {
    const plansOf = new Map<string, AllocationPlan[]>();
    const byPurpose = new Map<PaymentPurpose, repo.PaymentRow[]>();
    for (const payment of captured) byPurpose.set(payment.purpose, [...(byPurpose.get(payment.purpose) ?? []), payment]);
    for (const [purpose, group] of byPurpose) {
      const handler = handlerOf(purpose);
      if (handler.allocateMany) {
        const plans = await handler.allocateMany(tx, group, now);
        group.forEach((payment, index) => plansOf.set(payment.id, plans[index]!));
      } else {
        for (const payment of group) plansOf.set(payment.id, await handler.allocate(tx, payment, now));
      }
    }
    return captured.map((payment) => plansOf.get(payment.id)!);
  }

  /**
   * Credits payments that just succeeded (decision 0060: a batch's in sets, each step once for all of them): per
   * payment one entry with a posting per share, and each recipient's history row. A payment nobody may receive is
   * credited to `returns_due` instead, whole, and queued to be given back (its purpose records no success: an invoice
   * stays as it is, a plan does not move on). Each payment must appear once.
   */
  async function creditMany(tx: Transaction, captured: readonly repo.PaymentRow[], now: Date) {
    if (captured.length === 0) return;
    const allocated = await allocateAll(tx, captured, now);
    const givenBack = await nobodyMayReceive(tx, allocated);
    const credits = captured.map((payment, index) => {
      const plans: AllocationPlan[] = givenBack[index]
        ? [{ platform: 'returns_due', netCents: payment.totalCents, feeCents: 0 }]
        : allocated[index]!;
      const sum = plans.reduce((total, plan) => total + plan.netCents + plan.feeCents, 0);
      if (sum !== payment.totalCents)
        throw new Error(`Allocations of payment ${payment.id} sum to ${sum}, not ${payment.totalCents}`);
      return { payment, plans, givenBack: givenBack[index]! };
    });
    const releaseDueAt = new Date(now.getTime() + deps.holdHours * HOUR);
    const inserted = await repo.insertAllocations(
      tx,
      credits.flatMap(({ payment, plans }) =>
        plans.map((plan, position) => ({
          paymentId: payment.id,
          position,
          netCents: plan.netCents,
          feeCents: plan.feeCents,
          ...('userId' in plan ? { userId: plan.userId, releaseDueAt } : { platformAccount: plan.platform }),
          createdAt: now,
        })),
      ),
    );
    const insertedAt = new Map(inserted.map((row) => [`${row.paymentId}:${row.position}`, row]));
    const allocationsOf = ({ payment, plans }: (typeof credits)[number]) =>
      plans.map((_, position) => insertedAt.get(`${payment.id}:${position}`)!);
    // Platform accounts last: every payment touches them, so they are held for the shortest time.
    await postEntries(
      tx,
      credits.map(({ payment, plans }) => {
        const fees = plans.reduce((total, plan) => total + plan.feeCents, 0);
        return {
          kind: `${payment.purpose}_received`,
          reference: `payment:${payment.id}:received`,
          postings: [
            ...plans
              .filter((plan) => plan.netCents > 0)
              .map((plan): Posting => ({ account: accountOf(plan), amountCents: plan.netCents })),
            { account: PSP_CLEARING, amountCents: -payment.totalCents },
            ...(fees > 0 ? [{ account: FEES, amountCents: fees }] : []),
          ],
        };
      }),
    );
    await recordPayins(
      tx,
      credits.flatMap((credit) =>
        allocationsOf(credit).flatMap((allocation, index) => {
          const plan = credit.plans[index]!;
          if (!isUserShare(allocation) || !('history' in plan)) return [];
          const { payment } = credit;
          return [
            {
              allocationId: allocation.id,
              paymentId: payment.id,
              userId: allocation.userId,
              cardId: CARD_PURPOSES.has(payment.purpose) ? payment.subjectId : null,
              netCents: allocation.netCents,
              feeCents: allocation.feeCents,
              ...plan.history,
            },
          ];
        }),
      ),
      now,
    );
    // The purposes' own records of the successes: together where a purpose can, else one by one below.
    const succeeded = new Map<
      PaymentPurpose,
      { payment: repo.PaymentRow; allocations: repo.AllocationRow[]; plans: AllocationPlan[] }[]
    >();
    for (const credit of credits) {
      if (credit.givenBack || !handlerOf(credit.payment.purpose).onSucceededMany) continue;
      const success = { payment: credit.payment, allocations: allocationsOf(credit), plans: credit.plans };
      succeeded.set(credit.payment.purpose, [...(succeeded.get(credit.payment.purpose) ?? []), success]);
    }
    for (const [purpose, successes] of succeeded) await handlerOf(purpose).onSucceededMany!(tx, successes, now);
    for (const credit of credits) {
      const { payment, plans } = credit;
      if (credit.givenBack) {
        log.warn(
          { paymentId: payment.id, purpose: payment.purpose },
          'a payment arrived for no one who may receive it: it is given back',
        );
        await repo.insertReturnOnce(tx, payment.id, now);
      } else if (!handlerOf(payment.purpose).onSucceededMany) {
        await handlerOf(payment.purpose).onSucceeded?.(tx, payment, allocationsOf(credit), now, plans);
      }
      // A refund or dispute that overtook the success is taken back at once.
      if (takenBackOf(payment) > 0) await adjust(tx, payment, now);
    }
  }

  const accountOf = (plan: AllocationPlan): AccountRef =>
    'userId' in plan ? { userId: plan.userId, kind: 'hold' } : { platform: plan.platform };

  /**
   * Brings a credited payment's books to what refunds and disputes now take back: each share gives up its proportional
   * part (largest remainder, so every cent is accounted for), or gets it back when a dispute is won. A user's share
   * comes from hold while held and from main once released; what main no longer has becomes the user's recorded debt,
   * and money given back repays that debt first.
   */
  async function adjust(tx: Transaction, payment: repo.PaymentRow, now: Date): Promise<boolean> {
    const allocations = await repo.findAllocationsForUpdate(tx, payment.id);
    if (allocations.length === 0) return false;
    const targets = proportionalSplit(takenBackOf(payment), partsOf(allocations));
    const n = allocations.length;
    const deltas = allocations.map((allocation, i) => ({
      allocation,
      net: targets[i]! - allocation.reversedNetCents,
      fee: targets[n + i]! - allocation.reversedFeeCents,
    }));
    if (deltas.every((d) => d.net === 0 && d.fee === 0)) return false;

    const userAccounts = allocations.filter(isUserShare).flatMap((a): UserAccountRef[] => [
      { userId: a.userId, kind: 'main' },
      { userId: a.userId, kind: 'hold' },
      { userId: a.userId, kind: 'debt' },
    ]);
    const userBalanceOf = await lockBalances(tx, userAccounts);
    // Balances as this entry leaves them, so two shares of one user draw on main and debt only once.
    const pending = new Map<string, number>();
    const keyOf = (account: AccountRef) => JSON.stringify(account);
    const balance = (account: UserAccountRef) => userBalanceOf(account) + (pending.get(keyOf(account)) ?? 0);
    const postings: Posting[] = [];
    const move = (account: AccountRef, amountCents: number) => {
      if (amountCents === 0) return;
      postings.push({ account, amountCents });
      pending.set(keyOf(account), (pending.get(keyOf(account)) ?? 0) + amountCents);
    };
    for (const { allocation, net, fee } of deltas) {
      move(FEES, -fee);
      if (!isUserShare(allocation)) {
        move({ platform: allocation.platformAccount! }, -net);
        continue;
      }
      const main: UserAccountRef = { userId: allocation.userId, kind: 'main' };
      const debt: UserAccountRef = { userId: allocation.userId, kind: 'debt' };
      if (!allocation.releasedAt) move({ userId: allocation.userId, kind: 'hold' }, -net);
      else if (net > 0) {
        const fromMain = Math.min(net, Math.max(0, balance(main)));
        move(main, -fromMain);
        move(debt, -(net - fromMain));
      } else if (net < 0) {
        const repaid = Math.min(-net, Math.max(0, -balance(debt)));
        move(debt, repaid);
        move(main, -net - repaid);
      }
    }
    const clearing = deltas.reduce((sum, d) => sum + d.net + d.fee, 0);
    move(PSP_CLEARING, clearing);
    const adjustments = payment.adjustments + 1;
    await postEntry(tx, {
      kind: `${payment.purpose}_adjusted`,
      reference: `payment:${payment.id}:adjustment:${adjustments}`,
      postings,
    });

    const updated: repo.AllocationRow[] = [];
    for (const { allocation, net, fee } of deltas) {
      const row =
        net === 0 && fee === 0
          ? allocation
          : await repo.updateAllocation(tx, allocation.id, {
              reversedNetCents: allocation.reversedNetCents + net,
              reversedFeeCents: allocation.reversedFeeCents + fee,
            });
      updated.push(row);
      if (isUserShare(row)) {
        await showPayinState(
          tx,
          {
            allocationId: row.id,
            refundedCents: row.reversedNetCents,
            fullyTakenBack: row.reversedNetCents + row.reversedFeeCents === row.netCents + row.feeCents,
            released: row.releasedAt !== null,
          },
          now,
        );
      }
    }
    const status = takenBackOf(payment) === payment.totalCents ? 'refunded' : 'succeeded';
    const saved = await repo.updatePayment(tx, payment.id, { adjustments, status }, now);
    await handlerOf(payment.purpose).onAdjusted?.(tx, saved, updated, now);
    const recipients = [...new Set(updated.filter(isUserShare).map((row) => row.userId))];
    if (recipients.length > 0) await deps.onSharesAdjusted?.(tx, recipients, now);
    if (saved.refundedCents > 0) await deps.onRefunded?.(tx, saved.id, now);
    return true;
  }

  /** One event's effect, inside the transaction that records the event as seen. */
  /** The payment already stored under a purpose, subject and key: the same request answers it, another is refused. */
  async function storedTwin(
    tx: Transaction,
    key: { purpose: PaymentPurpose; subjectId: string; idempotencyKey: string },
    requestHash: string,
  ) {
    const existing = (await repo.findPaymentByKey(tx, key.purpose, key.subjectId, key.idempotencyKey))!;
    if (existing.requestHash !== requestHash) throw new AppError('idempotency_key_reused');
    return existing;
  }

  async function applyInTransaction(tx: Transaction, providerName: ProviderName, event: ProviderEvent): Promise<EventOutcome> {
    const paymentId = isUuid(event.payment_id) ? event.payment_id : null;
    const eventRow = await repo.insertProviderEventOnce(tx, {
      provider: providerName,
      eventId: event.id,
      type: event.type,
      paymentId,
      outcome: 'applied',
    });
    if (!eventRow) {
      // A webhook recorded it and the workers have not applied it yet: whoever comes first applies it (a batch that
      // holds it is waited for, and then it is a duplicate).
      const recorded = await repo.lockRecordedEvent(tx, providerName, event.id);
      if (recorded.length === 0) return 'duplicate';
      const [applied] = await applyClaimed(tx, recorded);
      return applied!.outcome;
    }
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
    if (event.type === 'ignored') return 'ignored';
    const now = clock.now();
    if (event.type === 'payment.succeeded' && paymentId) {
      // The common case in one statement: a capture matching the stored payment, which is not yet credited. A capture
      // after a reported failure or cancel is still money received; after a full refund it nets to nothing.
      const captured = await repo.markSucceeded(tx, paymentId, captureOf(providerName, event), now);
      if (captured) {
        await creditMany(tx, [captured], now);
        return 'applied';
      }
    }
    return effectOnStored(tx, providerName, event, paymentId, now);
  }

  /** What an event does to the payment as stored, once a success did not capture it (see `effectOf`). */
  async function effectOnStored(
    tx: Transaction,
    providerName: ProviderName,
    event: ProviderEvent,
    paymentId: string | null,
    now: Date,
  ): Promise<Exclude<EventOutcome, 'duplicate'>> {
    if (event.type === 'ignored') return 'ignored';
    const payment = paymentId ? await repo.findPaymentForUpdate(tx, paymentId) : undefined;
    if (
      !payment ||
      payment.provider !== providerName ||
      (payment.providerRef !== null && payment.providerRef !== event.provider_ref)
    ) {
      return 'mismatch';
    }
    switch (event.type) {
      case 'payment.succeeded':
        // Not captured above: either it does not match what the payer was asked to pay, or it is credited already.
        return event.amount_cents !== payment.totalCents || event.currency.toUpperCase() !== payment.currency
          ? 'mismatch'
          : 'ignored';
      case 'payment.failed':
      case 'payment.canceled': {
        if (payment.status !== 'pending') return 'ignored';
        const closed = await repo.updatePayment(
          tx,
          payment.id,
          { status: event.type === 'payment.failed' ? 'failed' : 'canceled' },
          now,
        );
        await handlerOf(payment.purpose).onClosed?.(tx, closed, now);
        return 'applied';
      }
      case 'payment.refunded':
      case 'payment.chargeback':
      case 'payment.reinstated': {
        // A refund or dispute names a positive amount; a reinstatement may name none (it ends the dispute).
        const least = event.type === 'payment.reinstated' ? 0 : 1;
        if (
          event.amount_cents < least ||
          event.amount_cents > payment.totalCents ||
          event.currency.toUpperCase() !== payment.currency
        )
          return 'mismatch';
        const changes =
          event.type === 'payment.refunded'
            ? { refundedCents: Math.max(payment.refundedCents, event.amount_cents) }
            : { disputedCents: event.type === 'payment.chargeback' ? event.amount_cents : 0 };
        const next = { ...payment, ...changes };
        if (next.refundedCents === payment.refundedCents && next.disputedCents === payment.disputedCents) return 'ignored';
        const credited = payment.status === 'succeeded' || payment.status === 'refunded';
        // A refund that overtook the success: nothing is credited yet; a late success credits and takes it back at once,
        // and after a full refund the success is not credited at all.
        const fullyBeforeSuccess = !credited && takenBackOf(next) === payment.totalCents;
        const saved = await repo.updatePayment(
          tx,
          payment.id,
          { ...changes, ...(fullyBeforeSuccess ? { status: 'refunded' as const } : {}) },
          now,
        );
        if (!credited) return takenBackOf(next) === takenBackOf(payment) ? 'ignored' : 'applied';
        return (await adjust(tx, saved, now)) ? 'applied' : 'ignored';
      }
    }
  }

  /** Asks the provider about a pending payment and applies its answer through the same exactly-once path. */
  async function askProvider(payment: repo.PaymentRow): Promise<EventOutcome | null> {
    if (!payment.providerRef) return null;
    const event = await provider(payment.provider as ProviderName).fetchStatus(payment.providerRef);
    return event ? applyEvent(payment.provider as ProviderName, event) : null;
  }

  /** Once an event's effect is committed: its metrics, and the log of one that does not match what we stored. */
  function observe(providerName: ProviderName, event: ProviderEvent, outcome: EventOutcome) {
    // The lag is the provider's delivery (with its retries) plus our work until the books show it.
    deps.metrics?.paymentEvent(
      providerName,
      event.type,
      outcome,
      outcome === 'applied' ? (clock.now().getTime() - event.created_at) / 1000 : undefined,
    );
    if (outcome === 'mismatch') {
      log.error(
        { provider: providerName, eventId: event.id, type: event.type, paymentId: event.payment_id },
        'provider event does not match the stored payment: nothing credited',
      );
    }
  }

  /** Applies an event at once, in a transaction of its own (a provider's answer we asked for, a saved-method charge). */
  async function applyEvent(providerName: ProviderName, event: ProviderEvent): Promise<EventOutcome> {
    const outcome = await db.transaction((tx) => applyInTransaction(tx, providerName, event));
    observe(providerName, event, outcome);
    return outcome;
  }

  /**
   * The effects of claimed events in the caller's transaction, in their order, and their outcomes recorded. A run of
   * successes (each of another payment: a batch holds one event per payment, `claimRecordedEvents`) is applied in
   * sets (decision 0060): one capture for all, and the payments of purposes that allocate in sets credited together,
   * each step once for all of them; any other event, and the successes of other purposes, one at a time in order.
   */
  async function applyClaimed(tx: Transaction, claimed: repo.RecordedEvent[]) {
    type Applied = { id: string; provider: ProviderName; event: ProviderEvent; outcome: Exclude<EventOutcome, 'duplicate'> };
    const applied: Applied[] = [];
    let successes: (Omit<Applied, 'outcome'> & { paymentId: string })[] = [];
    const applySuccesses = async () => {
      if (successes.length === 0) return;
      const run = successes;
      successes = [];
      const now = clock.now();
      const captured = new Map(
        (
          await repo.markManySucceeded(
            tx,
            run.map((success) => ({ id: success.paymentId, capture: captureOf(success.provider, success.event) })),
            now,
          )
        ).map((row) => [row.id, row]),
      );
      let together: repo.PaymentRow[] = [];
      for (const success of run) {
        const payment = captured.get(success.paymentId);
        if (payment && handlerOf(payment.purpose).allocateMany) together.push(payment);
        else {
          await creditMany(tx, together, now);
          together = [];
          if (payment) await creditMany(tx, [payment], now);
        }
      }
      await creditMany(tx, together, now);
      for (const { paymentId, ...success } of run) {
        const outcome = captured.has(paymentId)
          ? 'applied'
          : await effectOnStored(tx, success.provider, success.event, paymentId, now);
        applied.push({ ...success, outcome });
      }
    };
    for (const row of claimed) {
      const event = row.payload as unknown as ProviderEvent;
      const provider = row.provider as ProviderName;
      const paymentId = isUuid(event.payment_id) ? event.payment_id : null;
      if (event.type === 'payment.succeeded' && paymentId) {
        if (successes.some((success) => success.paymentId === paymentId)) await applySuccesses();
        successes.push({ id: row.id, provider, event, paymentId });
        continue;
      }
      await applySuccesses();
      applied.push({ id: row.id, provider, event, outcome: await effectOf(tx, provider, event, paymentId) });
    }
    await applySuccesses();
    await repo.setRecordedOutcomes(tx, applied);
    return applied;
  }

  /**
   * Applies one recorded event in a transaction of its own, after its batch failed: the event that cannot be applied
   * is put off with a growing wait and reported, and holds back no other payment's events.
   */
  async function applyAlone(id: string, now: Date) {
    try {
      const applied = await db.transaction(async (tx) => applyClaimed(tx, await repo.claimRecordedEvent(tx, id)));
      for (const { provider, event, outcome } of applied) observe(provider, event, outcome);
    } catch (error) {
      const attempts = await repo.postponeRecordedEvent(db, id, now, EVENT_RETRY_FIRST_MS, EVENT_RETRY_MAX_MS);
      log.error({ err: error, eventRow: id, attempts }, 'a recorded provider event could not be applied; trying again later');
    }
  }

  const service = {
    /**
     * Opens a checkout for a payer. The subject and the Idempotency-Key name the payment: the same key and request
     * answer the first payment again, whatever the timing (a concurrent twin waits on the key's row); the same key with
     * another request is refused. The provider is called inside the transaction, so a failure leaves nothing.
     */
    async openCheckout(input: CheckoutRequest): Promise<PublicPayment> {
      const requestHash = createHash('sha256')
        .update(JSON.stringify([input.purpose, input.subjectId, input.request]))
        .digest('hex');
      const row = await db.transaction(async (tx) => {
        const now = clock.now();
        await refuseCardTesting(tx, input, requestHash, now);
        const inserted = await repo.insertPaymentOnce(tx, {
          purpose: input.purpose,
          subjectId: input.subjectId,
          amountCents: input.amountCents,
          feeCents: input.feeCents,
          totalCents: input.totalCents,
          coverFee: input.coverFee,
          provider: deps.active,
          idempotencyKey: input.idempotencyKey,
          requestHash,
          description: input.description,
          reconcileDueAt: new Date(now.getTime() + deps.reconcileAfterMinutes * MINUTE),
          createdAt: now,
          updatedAt: now,
        });
        if (!inserted) return storedTwin(tx, input, requestHash);
        await input.onCreated?.(tx, inserted);
        let checkout: { checkout_url: string; provider_ref: string };
        try {
          checkout = await provider(deps.active).createCheckout({
            purpose: input.purpose,
            locale: input.locale,
            amount_cents: input.totalCents,
            currency: 'EUR',
            description: input.providerDescription,
            success_url: input.successUrl(inserted.id),
            cancel_url: input.cancelUrl(inserted.id),
            // Named by the row: a retry after a failed call is a new row, so every parameter under one key is the same.
            idempotency_key: `checkout:${inserted.id}`,
            created_at: inserted.createdAt,
            metadata: { ...input.metadata, payment_id: inserted.id },
            ...(input.saveMethodFor !== undefined && { save_method_for: input.saveMethodFor }),
          });
        } catch (error) {
          log.error({ err: error, provider: deps.active }, 'checkout creation failed');
          throw new AppError('provider_unavailable');
        }
        return repo.updatePayment(
          tx,
          inserted.id,
          { providerRef: checkout.provider_ref, checkoutUrl: checkout.checkout_url },
          now,
        );
      });
      return toPublicPayment(row);
    },

    /**
     * Charges a saved method (DESIGN "Invoices and donations": monthly plans). The payment row is written first, in its
     * own transaction (the provider is called outside it: the sandbox writes its side in a transaction of its own);
     * the provider's answer is then applied through the same exactly-once path as its webhook. The same key answers
     * the same payment, and the provider is asked again with the same idempotency key, so a retry after a crash
     * charges once. Answers the payment as it stands (still pending when the provider could not be reached).
     */
    async chargeSavedMethod(input: SavedMethodChargeRequest): Promise<repo.PaymentRow> {
      const requestHash = createHash('sha256')
        .update(JSON.stringify([input.purpose, input.subjectId, input.idempotencyKey, input.totalCents]))
        .digest('hex');
      const payment = await db.transaction(async (tx) => {
        const now = clock.now();
        const inserted = await repo.insertPaymentOnce(tx, {
          purpose: input.purpose,
          subjectId: input.subjectId,
          amountCents: input.amountCents,
          feeCents: input.feeCents,
          totalCents: input.totalCents,
          coverFee: input.coverFee,
          provider: input.provider,
          idempotencyKey: input.idempotencyKey,
          requestHash,
          description: input.description,
          customerRef: input.customerRef,
          methodRef: input.methodRef,
          createdAt: now,
          updatedAt: now,
        });
        if (!inserted) return storedTwin(tx, input, requestHash);
        await input.onCreated?.(tx, inserted);
        return inserted;
      });
      if (payment.status !== 'pending') return payment;
      let charged: { provider_ref: string; event: ProviderEvent };
      try {
        charged = await provider(input.provider).chargeSavedMethod({
          customer_ref: input.customerRef,
          method_ref: input.methodRef,
          amount_cents: payment.totalCents,
          currency: 'EUR',
          description: input.providerDescription,
          idempotency_key: `charge:${payment.id}`,
          metadata: { ...input.metadata, payment_id: payment.id },
        });
      } catch (error) {
        if (!(error instanceof ProviderRefusedError)) {
          log.error({ err: error, provider: input.provider, paymentId: payment.id }, 'charging a saved method failed');
          return payment;
        }
        // Refused outright (a removed card or customer): it fails as a decline does, so its purpose moves on (a plan
        // retries, then lapses) instead of asking again after every lease.
        log.warn(
          { provider: input.provider, paymentId: payment.id, reason: error.message },
          'charging a saved method was refused',
        );
        await db.transaction(async (tx) => {
          const current = await repo.findPaymentForUpdate(tx, payment.id);
          if (current?.status !== 'pending') return;
          const now = clock.now();
          await handlerOf(current.purpose).onClosed?.(
            tx,
            await repo.updatePayment(tx, current.id, { status: 'failed' }, now),
            now,
          );
        });
        return (await repo.findPayment(db, payment.id))!;
      }
      const outcome = await db.transaction(async (tx) => {
        if (!payment.providerRef) await repo.updatePayment(tx, payment.id, { providerRef: charged.provider_ref }, clock.now());
        return applyInTransaction(tx, input.provider, charged.event);
      });
      if (outcome === 'mismatch')
        log.error({ provider: input.provider, paymentId: payment.id }, 'saved-method charge does not match the stored payment');
      return (await repo.findPayment(db, payment.id))!;
    },

    /**
     * A payment as its payer sees it on the return page. While it is still pending after the webhook had time to
     * arrive, the provider is asked directly, so a lost or late event never leaves a paid guest waiting.
     */
    /** With `receiptLocale`, the payer's receipt link in that language once there is one; without, none is looked up. */
    async getPublicPayment(paymentId: string, receiptLocale?: Locale): Promise<PublicPayment> {
      let row = await repo.findPayment(db, paymentId);
      if (!row) throw new AppError('not_found');
      if (row.status === 'pending' && clock.now().getTime() - row.createdAt.getTime() >= RETURN_PAGE_ASKS_AFTER_MS) {
        try {
          if (await askProvider(row)) row = (await repo.findPayment(db, paymentId))!;
        } catch (error) {
          // The page keeps polling; the reconciliation job asks again later.
          log.warn({ err: error, paymentId }, 'could not ask the provider about a pending payment');
        }
      }
      const credited = row.status === 'succeeded' || row.status === 'refunded';
      const receiptUrl = credited && receiptLocale ? await deps.receiptLinkOf?.(row.id, receiptLocale) : null;
      return toPublicPayment(row, receiptUrl ?? null);
    },

    /**
     * Verifies a webhook and records its event once (decision 0060): the provider is answered as soon as the event is
     * durable, and the workers apply it (`applyRecordedEvents`). Forged, altered or stale bodies record nothing.
     */
    async handleWebhook(
      providerName: ProviderName,
      rawBody: Buffer,
      headers: Record<string, string | string[] | undefined>,
    ): Promise<WebhookOutcome> {
      const event = await provider(providerName).parseWebhook(rawBody, headers);
      const recorded = await repo.recordProviderEventOnce(db, {
        provider: providerName,
        eventId: event.id,
        type: event.type,
        paymentId: isUuid(event.payment_id) ? event.payment_id : null,
        payload: event as unknown as Record<string, unknown>,
      });
      return recorded ? 'recorded' : 'duplicate';
    },

    /**
     * Applies a batch of recorded events in one transaction (the `payments.apply-events` job): their effects in the
     * order recorded, each payment's in its own order, and their outcomes with them, so a crash at any line leaves
     * each either applied or still recorded. A batch that fails (an event that cannot be applied, a deadlock with
     * another applier) is applied again one event per transaction. With `partition`, only that part's events. Answers
     * how many events it took.
     */
    async applyRecordedEvents(now: Date, partition?: Partition): Promise<number> {
      let claimed: repo.RecordedEvent[] = [];
      try {
        const applied = await db.transaction(async (tx) => {
          claimed = await repo.claimRecordedEvents(tx, now, deps.batchSize, partition);
          return applyClaimed(tx, claimed);
        });
        for (const { provider, event, outcome } of applied) observe(provider, event, outcome);
        return applied.length;
      } catch (error) {
        if (claimed.length === 0) throw error;
        log.warn({ err: error, events: claimed.length }, 'a batch of provider events failed; applying them one by one');
        for (const row of claimed) await applyAlone(row.id, now);
        return claimed.length;
      }
    },

    applyEvent,

    /**
     * Gives a payer back part or all of a payment through its provider. `refundKey` names this one refund: a retry with
     * the same key refunds once, and answers success even when the first attempt's refund already reached the books.
     * The books follow the provider's answer through the same exactly-once path as its webhook, so each share gives up
     * its proportional part whichever arrives first.
     */
    async refundPayment(paymentId: string, amountCents: number, refundKey: string): Promise<PublicPayment> {
      const payment = await repo.findPayment(db, paymentId);
      if (!payment) throw new AppError('not_found');
      if (!canBeRefunded(payment)) throw new AppError('payment_not_refundable');
      if (!Number.isInteger(amountCents) || amountCents <= 0 || amountCents > payment.totalCents) {
        throw new AppError('refund_too_large');
      }
      const settle = async () => {
        try {
          await askProvider(payment);
        } catch (error) {
          // The provider's webhook still brings the refund to the books.
          log.warn({ err: error, paymentId }, 'could not ask the provider about a refund');
        }
        return (await repo.findPayment(db, paymentId))!;
      };
      // What our books leave is not checked first: they may already show this very refund (a retry after a crash
      // between the provider's answer and the caller's commit), and only the provider knows its key.
      const refund = () => provider(payment.provider as ProviderName).refund(payment.providerRef!, amountCents, refundKey);
      try {
        await refund();
      } catch (error) {
        const now = await settle();
        if (amountCents <= refundableCents(now)) {
          log.error({ err: error, paymentId }, 'refund through the provider failed');
          throw new AppError('provider_unavailable');
        }
        // Too large by the books now: a concurrent refund took what was left, or this refund was made and only its
        // answer was lost. Asked again under the same key, the provider answers a refund it made as done and refuses
        // any other.
        try {
          await refund();
        } catch {
          throw new AppError('refund_too_large');
        }
      }
      return toPublicPayment(await settle());
    },

    /**
     * Voids the pending checkouts of these subjects (a deleted account's cards, invoices and plans), inside the caller's
     * transaction: they are canceled as if the payer had left, and their purposes close them. A payer who still
     * completes one at the provider is given back in full (`credit`).
     */
    async voidPendingCheckouts(tx: Transaction, purpose: PaymentPurpose, subjectIds: string[]): Promise<number> {
      if (subjectIds.length === 0) return 0;
      const now = clock.now();
      const pending = await repo.findPendingOfSubjectsForUpdate(tx, purpose, subjectIds);
      for (const payment of pending) {
        const closed = await repo.updatePayment(tx, payment.id, { status: 'canceled' }, now);
        await handlerOf(purpose).onClosed?.(tx, closed, now);
      }
      return pending.length;
    },

    /**
     * Gives back one payment nobody could receive (the `payments.give-back` job): what is left of it, through the
     * provider, under a key naming the payment and that amount, so a retry refunds once. Answers false when none is due.
     */
    async giveBackOne(now: Date): Promise<boolean> {
      const claimed = await db.transaction((tx) => repo.claimDueReturn(tx, now, new Date(now.getTime() + RETURN_LEASE_MS)));
      if (!claimed) return false;
      const payment = (await repo.findPayment(db, claimed.paymentId))!;
      const left = payment.totalCents - takenBackOf(payment);
      try {
        if (left > 0) await service.refundPayment(payment.id, left, `give-back:${payment.id}:${left}`);
        await db.transaction((tx) => repo.finishReturn(tx, payment.id, now));
      } catch (error) {
        // Due again when the lease ends (a refund or dispute that took part of it meanwhile: what is left then).
        log.warn(
          { err: error, paymentId: payment.id, attempt: claimed.attempts },
          'could not give a payment back; trying again later',
        );
      }
      return true;
    },

    /**
     * Releases a batch of users' shares whose hold has ended (the `payments.release` job), in one transaction: hold →
     * main, and their history rows PAID. Answers how many it released. Shares another worker holds are skipped, so
     * any number of workers may run it.
     */
    async releaseDueShares(now: Date): Promise<number> {
      return db.transaction(async (tx) => {
        const due = await repo.claimDueAllocations(tx, now, deps.batchSize);
        for (const share of due) {
          const amount = share.netCents - share.reversedNetCents;
          if (share.userId && amount > 0) {
            await postEntry(tx, {
              kind: 'share_released',
              reference: `allocation:${share.id}:released`,
              postings: [
                { account: { userId: share.userId, kind: 'hold' }, amountCents: -amount },
                { account: { userId: share.userId, kind: 'main' }, amountCents: amount },
              ],
            });
          }
          await markPayinPaid(tx, share.id, now);
        }
        return due.length;
      });
    },

    /**
     * Asks the provider about one payment pending past RECONCILE_AFTER_MINUTES (DESIGN "Reconciliation"); asks again
     * later with a growing wait while the payer has not paid, and stops once nobody can pay it any more. Answers false
     * when none is due.
     */
    async reconcileOneDuePayment(now: Date): Promise<boolean> {
      const claimed = await db.transaction(async (tx) => {
        const [due] = await repo.claimDueReconciliation(tx, now);
        if (!due) return undefined;
        const age = now.getTime() - due.createdAt.getTime();
        const nextWait = Math.max(deps.reconcileAfterMinutes * MINUTE, age);
        await repo.updatePayment(
          tx,
          due.id,
          { reconcileDueAt: age > RECONCILE_GIVE_UP_MS ? null : new Date(now.getTime() + nextWait) },
          now,
        );
        return due;
      });
      if (!claimed) return false;
      try {
        const outcome = await askProvider(claimed);
        if (outcome === 'applied') log.info({ paymentId: claimed.id }, 'reconciliation applied what the provider knew');
      } catch (error) {
        log.warn({ err: error, paymentId: claimed.id }, 'reconciliation could not reach the provider; asking again later');
      }
      return true;
    },
  };
  return service;
}

// Back office (issue 15): a payment with who received what, and the payments still pending (reconciliation).
export async function findPaymentWithShares(db: Executor, paymentId: string) {
  const payment = await repo.findPayment(db, paymentId);
  return payment ? { payment, shares: await repo.listAllocations(db, paymentId) } : undefined;
}
export const listPaymentsPendingSince = repo.listPendingSince;
/** Payments whose id lies in the range: a short reference's (`uuidPrefixRange`). */
export const findPaymentsInIdRange = repo.findPaymentsInIdRange;
/** The provider's events about one payment (its story on the back office's payment page). */
export const listEventsOfPayment = repo.listEventsOfPayment;
/** The user's money on hold, per time it is released to main (the balances answer's `hold_releases`). */
export const heldAmountsOfUser = repo.listHeldAmountsOfUser;

// Refunds asked for in the back office (ops) are decided against the payment, locked in the deciding transaction.
/** The payment, locked until the caller's transaction ends, so decisions about giving its money back queue up. */
export const lockPayment = (tx: Transaction, paymentId: string) => repo.findPaymentForUpdate(tx, paymentId);
/** Whether the payment was paid through a provider that can give its money back. */
export const canBeRefunded = (payment: repo.PaymentRow) =>
  (payment.status === 'succeeded' || payment.status === 'refunded') && payment.providerRef !== null;
/** What refunds can still give back of the payment: its total less what refunds and disputes took. */
export const refundableCents = (payment: repo.PaymentRow) => payment.totalCents - takenBackOf(payment);
export const countPaymentsPendingSince = repo.countPendingSince;
export const countPaymentsByStatus = repo.countByStatus;
