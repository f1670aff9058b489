import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Locale } from '@tipcard/shared/constants';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  ProviderRefusedError,
  WebhookVerificationError,
  type CheckoutInput,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderEventType,
} from '../../modules/payments/payment-provider.ts';
import * as repo from './sandbox.repository.ts';

export const SANDBOX_SIGNATURE_HEADER = 'tipcard-sandbox-signature';
const TOLERANCE_SECONDS = 300;
const CHECKOUT_LIFETIME_MS = 30 * 60_000;

/**
 * Documented test cards (README "Sandbox payments"); any other number is declined. Several succeed, so that payments
 * by different cards (different payers) can be tried.
 */
export const SANDBOX_TEST_CARDS = {
  '4242424242424242': 'succeeded',
  '5555555555554444': 'succeeded',
  '4000056655665556': 'succeeded',
  '4000000000000002': 'declined',
  '4000000000000119': 'timeout',
  '4000000000000341': 'succeeded',
  '4000000000009995': 'succeeded',
} as const;

/**
 * The simulated payers whose wallets (Apple Pay, Google Pay) the hosted page offers; the first one when the page posts
 * none. Each payer's wallet names the same payer every time, as a wallet's device card does at a real provider.
 */
export const SANDBOX_WALLET_PAYERS = ['1', '2', '3'] as const;
export type SandboxWalletPayer = (typeof SANDBOX_WALLET_PAYERS)[number];
const WALLET_METHODS = new Set(['apple_pay', 'google_pay']);

/**
 * What a card saved by a checkout does in later off-session charges (README "Sandbox payments"): most keep
 * succeeding; one starts failing after two of them (a card that expired or was blocked), one declines its first and
 * then recovers (funds that came back).
 */
export const SANDBOX_SAVED_CARD_BEHAVIOUR: Record<string, 'succeeds' | 'fails_after_two' | 'fails_once'> = {
  '4000000000000341': 'fails_after_two',
  '4000000000009995': 'fails_once',
};

/** Thrown for what the provider refuses outright (Stripe: an invalid request): nothing was charged. */
export class SandboxRefusal extends ProviderRefusedError {}

/** What the hosted page needs: the checkout, signed into its URL so the page can be shown without a lookup. */
export interface SandboxCheckout {
  ref: string;
  /** The payer's language: the hosted page speaks it. */
  locale: Locale;
  amount_cents: number;
  currency: string;
  description: string;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  expires_at: number;
  /** Saves the card for later off-session charges, for a customer with this e-mail. */
  save_method_for?: string;
}

export type SandboxOutcome = 'succeeded' | 'declined' | 'timeout' | 'canceled';

export interface SandboxSettings {
  db: Database;
  clock: Clock;
  publicUrl: string;
  /** Signs checkout URLs and webhook events, like a provider's webhook secret. */
  secret: string;
  /** How long the provider takes to send an event's first delivery, in ms. */
  deliveryDelayMs: number;
}

export type SandboxProvider = PaymentProvider & {
  openCheckout(token: string): SandboxCheckout | null;
  /**
   * `cardNumber`: the digits the guest typed, for a card payment; `walletPayer`: whose wallet paid, for a wallet
   * payment. Only a keyed hash of either is kept.
   */
  complete(
    checkout: SandboxCheckout,
    outcome: SandboxOutcome,
    method: string,
    options?: { deliverTwice?: boolean; cardNumber?: string; walletPayer?: SandboxWalletPayer },
  ): Promise<void>;
  signEvent(body: string, timestampSeconds?: number): string;
};

/** The webhook signature header's value, `t=…,v1=HMAC(t.body)`, as the sandbox's servers send it. */
export const signSandboxEvent = (secret: string, body: string, timestampSeconds: number) =>
  `t=${timestampSeconds},v1=${createHmac('sha256', `webhook:${secret}`).update(`${timestampSeconds}.${body}`).digest('hex')}`;

const base64url = (text: string) => Buffer.from(text).toString('base64url');
const constantTimeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Charges the guest has settled one way or the other; the hosted page cannot change them any more. */
const FINAL_STATUSES = new Set(['succeeded', 'failed', 'canceled', 'refunded']);

/**
 * The sandbox keeps nothing until the guest acts (our checkout creation runs inside our own transaction, which on the
 * embedded database holds its only connection), so the reference itself carries what `fetchStatus` needs to answer
 * for a checkout nobody acted on: its lifetime's end and our payment id.
 */
const refOf = (expiresAt: number, paymentId: string) =>
  `sbx_${randomBytes(6).toString('hex')}_${expiresAt.toString(36)}_${paymentId}`;
function untouchedCheckoutOf(providerRef: string) {
  const match = /^sbx_[0-9a-f]{12}_([0-9a-z]+)_(.+)$/.exec(providerRef);
  return match ? { expiresAt: parseInt(match[1]!, 36), paymentId: match[2]! } : undefined;
}

/** A test card number's brand by its first digits, as card networks number them. */
function cardBrandOf(digits: string): string {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  return 'card';
}

/**
 * The event that tells of a charge's state. Its id names the state (the refunded total for refunds), so the webhook
 * and `fetchStatus` describe one state with one id, and our exactly-once path applies it once whichever comes first.
 */
function eventOf(
  charge: Pick<repo.SandboxChargeRow, 'providerRef' | 'paymentId' | 'amountCents' | 'refundedCents' | 'currency'> & {
    payerRef?: string | null;
    cardBrand?: string | null;
    cardLast4?: string | null;
    customerRef?: string | null;
    methodRef?: string | null;
  },
  type: Exclude<ProviderEventType, 'payment.chargeback' | 'payment.reinstated' | 'ignored'>,
  createdAt: Date,
): ProviderEvent {
  const state = type.slice('payment.'.length);
  return {
    id: type === 'payment.refunded' ? `${charge.providerRef}:${state}:${charge.refundedCents}` : `${charge.providerRef}:${state}`,
    type,
    provider_ref: charge.providerRef,
    payment_id: charge.paymentId,
    amount_cents: type === 'payment.succeeded' ? charge.amountCents : type === 'payment.refunded' ? charge.refundedCents : 0,
    ...(type === 'payment.succeeded' && { payer_ref: charge.payerRef ?? null }),
    ...(type === 'payment.succeeded' &&
      charge.cardBrand &&
      charge.cardLast4 && { card: { brand: charge.cardBrand, last4: charge.cardLast4 } }),
    ...(type === 'payment.succeeded' &&
      charge.customerRef &&
      charge.methodRef && { saved: { customer_ref: charge.customerRef, method_ref: charge.methodRef } }),
    currency: charge.currency,
    created_at: createdAt.getTime(),
  };
}

/**
 * The built-in payment provider (DESIGN "Payments"): a hosted checkout served by this API with test cards and wallet
 * buttons, and HMAC-signed webhook events with timestamps. Events are written to `sandbox_events` in the transaction
 * that changes the charge; `createSandboxJobs` sends them and retries like a real provider's servers.
 */
export function createSandboxProvider(settings: SandboxSettings): SandboxProvider {
  const { db, clock } = settings;
  const hmac = (purpose: string, text: string) =>
    createHmac('sha256', `${purpose}:${settings.secret}`).update(text).digest('hex');
  const deliveries = (charge: Pick<repo.SandboxChargeRow, 'providerRef'>, event: ProviderEvent, times: number) => {
    const body = JSON.stringify(event);
    const dueAt = new Date(clock.now().getTime() + settings.deliveryDelayMs);
    return Array.from({ length: times }, () => ({ providerRef: charge.providerRef, body, dueAt }));
  };

  return {
    name: 'sandbox',

    async createCheckout(input: CheckoutInput) {
      const expiresAt = clock.now().getTime() + CHECKOUT_LIFETIME_MS;
      const checkout: SandboxCheckout = {
        ref: refOf(expiresAt, input.metadata.payment_id),
        locale: input.locale,
        amount_cents: input.amount_cents,
        currency: input.currency,
        description: input.description,
        success_url: input.success_url,
        cancel_url: input.cancel_url,
        metadata: input.metadata,
        expires_at: expiresAt,
        ...(input.save_method_for !== undefined && { save_method_for: input.save_method_for }),
      };
      const payload = base64url(JSON.stringify(checkout));
      const token = `${payload}.${hmac('checkout', payload)}`;
      return { checkout_url: `${settings.publicUrl}/api/sandbox/checkout?c=${token}`, provider_ref: checkout.ref };
    },

    openCheckout(token) {
      const [payload = '', signature = ''] = token.split('.');
      if (!constantTimeEqual(signature, hmac('checkout', payload))) return null;
      try {
        const checkout = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SandboxCheckout;
        return checkout.expires_at > clock.now().getTime() ? checkout : null;
      } catch {
        return null;
      }
    },

    /**
     * The guest's choice on the hosted page: the charge's new state and its event deliveries commit together, so a
     * charge the sandbox took is always told to us, whenever the process stops. A settled charge stays as it was.
     */
    async complete(checkout, outcome, method, options = {}) {
      const now = clock.now();
      // Like a provider's card fingerprint: stable per card, keyed so it cannot be reversed by hashing all card numbers.
      // A wallet pays with its own device card, so each simulated payer's wallet is a payer of its own.
      const digits = options.cardNumber?.replace(/\D/g, '');
      const named =
        method === 'card'
          ? digits
          : WALLET_METHODS.has(method)
            ? `${method}:${options.walletPayer ?? SANDBOX_WALLET_PAYERS[0]}`
            : undefined;
      const payerRef = named ? `sbx_payer_${hmac('payer', named).slice(0, 32)}` : null;
      // What a provider's charge tells of the card (Stripe: payment_method_details.card); a wallet's is its device's.
      const card = method === 'card' && digits ? { cardBrand: cardBrandOf(digits), cardLast4: digits.slice(-4) } : {};
      await db.transaction(async (tx) => {
        const status = outcome === 'declined' ? 'failed' : outcome === 'timeout' ? 'pending' : outcome;
        const existing = await repo.findCharge(tx, checkout.ref);
        // A paying checkout that saves the card creates the customer and its method, as Stripe does on completion.
        const saved =
          checkout.save_method_for !== undefined && outcome === 'succeeded' && !existing
            ? await repo.insertSavedMethod(tx, {
                methodRef: `sbx_pm_${randomBytes(8).toString('hex')}`,
                customerRef: `sbx_cus_${randomBytes(8).toString('hex')}`,
                email: checkout.save_method_for,
                behaviour: SANDBOX_SAVED_CARD_BEHAVIOUR[digits ?? ''] ?? 'succeeds',
                payerRef,
                ...card,
              })
            : undefined;
        let charge = await repo.insertChargeOnce(tx, {
          ...(saved && { customerRef: saved.customerRef, methodRef: saved.methodRef }),
          providerRef: checkout.ref,
          paymentId: checkout.metadata.payment_id ?? '',
          status,
          method,
          payerRef,
          ...card,
          amountCents: checkout.amount_cents,
          currency: checkout.currency,
          statusAt: now,
        });
        if (!charge) {
          // The page again (back button, a second tab): a settled charge stays as it was; a timed-out one may be retried.
          if (FINAL_STATUSES.has((await repo.lockCharge(tx, checkout.ref))!.status)) return;
          charge = await repo.setOutcome(tx, checkout.ref, {
            status,
            method,
            payerRef,
            cardBrand: card.cardBrand ?? null,
            cardLast4: card.cardLast4 ?? null,
            statusAt: now,
          });
        }
        if (outcome === 'timeout') return; // the network never answers: no event
        const type =
          outcome === 'succeeded' ? 'payment.succeeded' : outcome === 'declined' ? 'payment.failed' : 'payment.canceled';
        await repo.insertEvents(tx, deliveries(charge, eventOf(charge, type, now), options.deliverTwice ? 2 : 1));
      });
    },

    async chargeSavedMethod(input) {
      const now = clock.now();
      const requestHash = createHash('sha256')
        .update(JSON.stringify([input.customer_ref, input.method_ref, input.amount_cents, input.currency, input.metadata]))
        .digest('hex');
      return db.transaction(async (tx) => {
        // The method's row lock queues charges of one card, so its attempt count and an idempotency key are decided once.
        const method = await repo.lockSavedMethod(tx, input.method_ref);
        if (!method || method.customerRef !== input.customer_ref)
          throw new SandboxRefusal(`No such payment method for customer: ${input.method_ref}`);
        const earlier = await repo.findChargeByKey(tx, input.idempotency_key);
        if (earlier) {
          if (earlier.requestHash !== requestHash) throw new SandboxRefusal('Idempotency key reused with different parameters');
          return {
            provider_ref: earlier.providerRef,
            event: eventOf(earlier, earlier.status === 'failed' ? 'payment.failed' : 'payment.succeeded', earlier.statusAt),
          };
        }
        const attempt = method.offSessionAttempts + 1;
        await repo.countOffSessionAttempt(tx, method.methodRef, attempt);
        const declined =
          (method.behaviour === 'fails_after_two' && attempt > 2) || (method.behaviour === 'fails_once' && attempt === 1);
        const charge = (await repo.insertChargeOnce(tx, {
          providerRef: `sbx_pi_${randomBytes(12).toString('hex')}`,
          paymentId: input.metadata.payment_id,
          status: declined ? 'failed' : 'succeeded',
          method: 'card',
          payerRef: method.payerRef,
          cardBrand: method.cardBrand,
          cardLast4: method.cardLast4,
          amountCents: input.amount_cents,
          currency: input.currency,
          statusAt: now,
          customerRef: method.customerRef,
          methodRef: method.methodRef,
          idempotencyKey: input.idempotency_key,
          requestHash,
        }))!;
        const event = eventOf(charge, declined ? 'payment.failed' : 'payment.succeeded', now);
        await repo.insertEvents(tx, deliveries(charge, event, 1));
        return { provider_ref: charge.providerRef, event };
      });
    },

    signEvent: (body, timestampSeconds = Math.floor(clock.now().getTime() / 1000)) =>
      signSandboxEvent(settings.secret, body, timestampSeconds),

    async parseWebhook(rawBody, headers) {
      const header = headers[SANDBOX_SIGNATURE_HEADER];
      const match = typeof header === 'string' ? /^t=(\d+),v1=[0-9a-f]{64}$/.exec(header) : null;
      if (!match) throw new WebhookVerificationError('missing or malformed signature');
      const [signed = '', timestamp = '0'] = match;
      if (Math.abs(clock.now().getTime() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS)
        throw new WebhookVerificationError('stale event');
      if (!constantTimeEqual(signed, signSandboxEvent(settings.secret, rawBody.toString('utf8'), Number(timestamp)))) {
        throw new WebhookVerificationError('bad signature');
      }
      try {
        return JSON.parse(rawBody.toString('utf8')) as ProviderEvent;
      } catch {
        throw new WebhookVerificationError('body is not JSON');
      }
    },

    async fetchStatus(providerRef) {
      const charge = await repo.findCharge(db, providerRef);
      switch (charge?.status) {
        case undefined: {
          // Nobody acted on the checkout: it lapses at the end of its lifetime, as a provider's session expires.
          const untouched = untouchedCheckoutOf(providerRef);
          if (!untouched || untouched.expiresAt > clock.now().getTime()) return null;
          const lapsed = { providerRef, paymentId: untouched.paymentId, amountCents: 0, refundedCents: 0, currency: 'EUR' };
          return eventOf(lapsed, 'payment.canceled', new Date(untouched.expiresAt));
        }
        case 'pending':
          return null;
        case 'succeeded':
          return eventOf(charge, 'payment.succeeded', charge.statusAt);
        case 'failed':
          return eventOf(charge, 'payment.failed', charge.statusAt);
        case 'canceled':
          return eventOf(charge, 'payment.canceled', charge.statusAt);
        case 'refunded':
          return eventOf(charge, 'payment.refunded', charge.statusAt);
      }
    },

    /** A refund key names one refund: a retry with it refunds nothing more; the event carries the refunded total. */
    async refund(providerRef, amountCents, refundKey) {
      const now = clock.now();
      await db.transaction(async (tx) => {
        const charge = await repo.lockCharge(tx, providerRef);
        if (charge?.status !== 'succeeded' && charge?.status !== 'refunded')
          throw new Error(`sandbox charge ${providerRef} cannot be refunded`);
        if (charge.refundKeys.includes(refundKey)) return;
        if (!Number.isInteger(amountCents) || amountCents <= 0 || charge.refundedCents + amountCents > charge.amountCents) {
          throw new RangeError(
            `refund of ${amountCents} on ${providerRef} exceeds what is left of ${charge.amountCents - charge.refundedCents}`,
          );
        }
        const refunded = await repo.addRefund(tx, providerRef, amountCents, refundKey, now);
        await repo.insertEvents(tx, deliveries(refunded, eventOf(refunded, 'payment.refunded', now), 1));
      });
    },
  };
}
