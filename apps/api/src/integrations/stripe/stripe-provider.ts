import Stripe from 'stripe';
import {
  WebhookVerificationError,
  type CheckoutInput,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderEventType,
  type ProviderPaymentStatus,
} from '../../modules/payments/payment-provider.ts';

export interface StripeProviderSettings {
  secretKey: string;
  webhookSecret: string;
  /** Only for tests (a local fake of the Stripe API) or a proxy; production talks to api.stripe.com. */
  apiHost?: string;
  apiPort?: number;
  apiProtocol?: 'http' | 'https';
}

/**
 * A verified Stripe event that Tipcard does not act on: a type we did not subscribe to, a checkout that is not
 * paid yet (async methods), or an object that is not one of our Checkout payments. The webhook route answers 2xx
 * and drops it, so Stripe does not retry. Never thrown for a forged event (that is `WebhookVerificationError`).
 */
export class UnsupportedWebhookEvent extends Error {
  constructor(
    readonly eventId: string,
    readonly eventType: string,
    reason = `Stripe event type ${eventType} is not handled`,
  ) {
    super(reason);
    this.name = 'UnsupportedWebhookEvent';
  }
}

/** Signatures older (or newer) than this are refused: Stripe's default, replays of captured events die after it. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Stripe accepts `expires_at` 30 min to 24 h after creation; we keep a minute of margin for clock skew. */
const CHECKOUT_MIN_LIFETIME_SECONDS = 31 * 60;
/**
 * `expires_at` is rounded up to this grid so a retry of the same checkout (same idempotency key) within the window
 * sends byte-identical parameters; Stripe refuses an idempotency key replayed with different parameters.
 */
const EXPIRY_GRID_SECONDS = 10 * 60;
/** Per attempt; with `maxNetworkRetries: 2` a guest waits at most ~3 attempts before we answer an error. */
const REQUEST_TIMEOUT_MS = 15_000;

export function createStripeProvider(settings: StripeProviderSettings): PaymentProvider {
  if (!settings.secretKey) throw new Error('Stripe secret key is missing');
  if (!settings.webhookSecret) throw new Error('Stripe webhook secret is missing');

  // API version: the one pinned by this SDK release (Stripe.API_VERSION). The webhook endpoint in the Dashboard
  // should use the same version so event payloads have the shapes typed here.
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: REQUEST_TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: 'Tipcard' },
    ...(settings.apiHost !== undefined && { host: settings.apiHost }),
    ...(settings.apiPort !== undefined && { port: settings.apiPort }),
    ...(settings.apiProtocol !== undefined && { protocol: settings.apiProtocol }),
  });

  /**
   * Refund and dispute events are about a charge / payment intent, but our provider_ref is the Checkout Session id.
   * We resolve it with one call: the session list filtered by payment intent (at most one session per intent). The
   * session's metadata also carries our payment_id, so no payment intent lookup is needed.
   */
  async function sessionForPaymentIntent(event: Stripe.Event, paymentIntentId: string): Promise<Stripe.Checkout.Session> {
    const sessions = await stripe.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 });
    const session = sessions.data[0];
    if (!session) throw new UnsupportedWebhookEvent(event.id, event.type, `No Checkout Session for ${paymentIntentId}`);
    return session;
  }

  function toEvent(
    event: Stripe.Event,
    type: ProviderEventType,
    session: Stripe.Checkout.Session,
    amountCents: number,
    currency: string,
    fallbackPaymentId?: string,
  ): ProviderEvent {
    const paymentId = session.metadata?.payment_id ?? session.client_reference_id ?? fallbackPaymentId;
    if (!paymentId) throw new UnsupportedWebhookEvent(event.id, event.type, `Checkout Session ${session.id} has no payment_id`);
    return {
      id: event.id,
      type,
      provider_ref: session.id,
      payment_id: paymentId,
      amount_cents: amountCents,
      currency: currency.toUpperCase(),
      created_at: event.created * 1000,
    };
  }

  function sessionEvent(event: Stripe.Event, type: ProviderEventType, session: Stripe.Checkout.Session): ProviderEvent {
    return toEvent(event, type, session, session.amount_total ?? 0, session.currency ?? 'eur');
  }

  return {
    name: 'stripe',

    async createCheckout(input: CheckoutInput) {
      const nowSeconds = Math.floor(Date.now() / 1000);
      const expiresAt = Math.ceil((nowSeconds + CHECKOUT_MIN_LIFETIME_SECONDS) / EXPIRY_GRID_SECONDS) * EXPIRY_GRID_SECONDS;
      const metadata = { ...input.metadata, purpose: input.purpose };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          // No payment method list: Stripe's dynamic payment methods (Dashboard settings) decide. Cards are on by
          // default and include Apple Pay and Google Pay wallets in Checkout. (`payment_method_types` was removed
          // from the SDK's create params in v23; `allowed_payment_method_types: ['card']` would filter to cards.)
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency.toLowerCase(),
                unit_amount: input.amount_cents,
                product_data: { name: input.description },
              },
            },
          ],
          success_url: input.success_url,
          cancel_url: input.cancel_url,
          client_reference_id: input.metadata.payment_id,
          metadata,
          // Copied onto the payment intent, so charges, refunds and disputes can be traced back to our payment.
          payment_intent_data: { metadata, description: input.description },
          expires_at: expiresAt,
        },
        { idempotencyKey: input.idempotency_key },
      );
      if (!session.url) throw new Error(`Stripe Checkout Session ${session.id} has no URL`);
      return { checkout_url: session.url, provider_ref: session.id };
    },

    async parseWebhook(rawBody, headers) {
      const signature = headerValue(headers, 'stripe-signature');
      if (!signature) throw new WebhookVerificationError('Missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        throw new WebhookVerificationError('Stripe webhook signature verification failed', { cause: error });
      }

      switch (event.type) {
        case 'checkout.session.completed': {
          const session = event.data.object;
          // 'unpaid' means an async method (e.g. SEPA debit) is still processing: wait for async_payment_*.
          if (session.payment_status !== 'paid') {
            throw new UnsupportedWebhookEvent(
              event.id,
              event.type,
              `Checkout Session ${session.id} is ${session.payment_status}`,
            );
          }
          return sessionEvent(event, 'payment.succeeded', session);
        }
        case 'checkout.session.async_payment_succeeded':
          return sessionEvent(event, 'payment.succeeded', event.data.object);
        case 'checkout.session.async_payment_failed':
          return sessionEvent(event, 'payment.failed', event.data.object);
        case 'checkout.session.expired':
          return sessionEvent(event, 'payment.canceled', event.data.object);
        case 'charge.refunded': {
          const charge = event.data.object;
          const paymentIntentId = idOf(charge.payment_intent);
          if (!paymentIntentId)
            throw new UnsupportedWebhookEvent(event.id, event.type, `Charge ${charge.id} has no payment intent`);
          const session = await sessionForPaymentIntent(event, paymentIntentId);
          // amount_refunded is the charge's cumulative refunded total, not the amount of the latest refund.
          return toEvent(event, 'payment.refunded', session, charge.amount_refunded, charge.currency, charge.metadata.payment_id);
        }
        case 'charge.dispute.created': {
          const dispute = event.data.object;
          let paymentIntentId = idOf(dispute.payment_intent);
          if (!paymentIntentId) {
            const charge = typeof dispute.charge === 'string' ? await stripe.charges.retrieve(dispute.charge) : dispute.charge;
            paymentIntentId = idOf(charge.payment_intent);
          }
          if (!paymentIntentId)
            throw new UnsupportedWebhookEvent(event.id, event.type, `Dispute ${dispute.id} has no payment intent`);
          const session = await sessionForPaymentIntent(event, paymentIntentId);
          return toEvent(event, 'payment.chargeback', session, dispute.amount, dispute.currency);
        }
        default:
          throw new UnsupportedWebhookEvent(event.id, event.type);
      }
    },

    /**
     * open → pending; expired → canceled; complete and paid → succeeded, or refunded as soon as any amount of the
     * charge was refunded (partial refunds included); complete but unpaid (async method) → pending, or failed when
     * the payment intent went back to requires_payment_method / canceled.
     */
    async fetchStatus(providerRef): Promise<ProviderPaymentStatus> {
      const session = await stripe.checkout.sessions.retrieve(providerRef);
      if (session.status === 'expired') return 'canceled';
      if (session.status !== 'complete') return 'pending';
      const paymentIntentId = idOf(session.payment_intent);
      if (!paymentIntentId) return session.payment_status === 'paid' ? 'succeeded' : 'pending';
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
      if (session.payment_status === 'paid') {
        const charge = intent.latest_charge;
        return typeof charge === 'object' && charge !== null && charge.amount_refunded > 0 ? 'refunded' : 'succeeded';
      }
      return intent.status === 'requires_payment_method' || intent.status === 'canceled' ? 'failed' : 'pending';
    },

    async refund(providerRef, amountCents) {
      if (!Number.isInteger(amountCents) || amountCents <= 0) throw new RangeError(`Invalid refund amount ${amountCents}`);
      const session = await stripe.checkout.sessions.retrieve(providerRef);
      const paymentIntentId = idOf(session.payment_intent);
      if (!paymentIntentId) throw new Error(`Checkout Session ${providerRef} has no payment to refund`);
      const paymentId = session.metadata?.payment_id;
      await stripe.refunds.create(
        { payment_intent: paymentIntentId, amount: amountCents, ...(paymentId && { metadata: { payment_id: paymentId } }) },
        // Same ref and amount → same refund: our retries never refund twice (within Stripe's 24 h key window).
        { idempotencyKey: `tipcard-refund:${providerRef}:${amountCents}` },
      );
    },
  };
}

function idOf(value: string | { id: string } | null | undefined): string | undefined {
  if (!value) return undefined;
  return typeof value === 'string' ? value : value.id;
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  // Stripe sends one signature header; several copies are not something we try to interpret.
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
