import type { Clock } from '../../lib/clock.ts';
import Stripe from 'stripe';
import {
  WebhookVerificationError,
  type CheckoutInput,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderEventType,
} from '../../modules/payments/payment-provider.ts';

export interface StripeProviderSettings {
  secretKey: string;
  webhookSecret: string;
  /** When we asked, for the events `fetchStatus` answers. */
  clock: Clock;
  /** Only for tests (a local fake of the Stripe API) or a proxy; production talks to api.stripe.com. */
  apiHost?: string;
  apiPort?: number;
  apiProtocol?: 'http' | 'https';
}

/** Signatures older (or newer) than this are refused: Stripe's default, replays of captured events die after it. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/**
 * From the payment's creation, not from the request: a retry under the same idempotency key then sends the same
 * `expires_at`. Stripe accepts 30 min to 24 h after the request, so a retry stays valid for half an hour.
 */
const CHECKOUT_LIFETIME_SECONDS = 60 * 60;
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

  /** Our event for a verified Stripe event; `ignored` for anything Tipcard does not act on. */
  async function toProviderEvent(event: Stripe.Event): Promise<ProviderEvent> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        // A completed session stays 'unpaid' while an async method (e.g. SEPA debit) processes: async_payment_* follows.
        if (session.payment_status !== 'paid') return ignored(event, session);
        return fromSession(event, 'payment.succeeded', session, cents(session.amount_total));
      }
      case 'checkout.session.async_payment_failed':
        return fromSession(event, 'payment.failed', event.data.object, 0);
      case 'checkout.session.expired':
        return fromSession(event, 'payment.canceled', event.data.object, 0);
      case 'charge.refunded': {
        const charge = event.data.object;
        // amount_refunded is the charge's refunded total so far, whichever of its refunds this event is about.
        return fromPaymentIntent(event, 'payment.refunded', idOf(charge.payment_intent), cents(charge.amount_refunded), charge.currency);
      }
      case 'charge.dispute.created':
      case 'charge.dispute.funds_withdrawn': {
        const dispute = event.data.object;
        // An inquiry (warning_* status) withdraws no funds; if it escalates, funds_withdrawn follows for the same dispute.
        if (dispute.status.startsWith('warning_')) return ignored(event);
        return fromDispute(event, 'payment.chargeback', dispute);
      }
      case 'charge.dispute.funds_reinstated':
        return fromDispute(event, 'payment.reinstated', event.data.object);
      case 'charge.dispute.closed':
        // Lost: the chargeback already took the money. Won: it comes back (funds_reinstated may say so too, same dispute).
        return event.data.object.status === 'won' ? fromDispute(event, 'payment.reinstated', event.data.object) : ignored(event);
      default:
        return ignored(event);
    }
  }

  function fromSession(event: Stripe.Event, type: ProviderEventType, session: Stripe.Checkout.Session, amountCents: number): ProviderEvent {
    const paymentId = session.metadata?.payment_id;
    if (!paymentId) return ignored(event, session);
    return {
      id: event.id,
      type,
      provider_ref: session.id,
      payment_id: text(paymentId),
      amount_cents: amountCents,
      ...(type === 'payment.succeeded' && { payer_ref: payerRefOf(session.payment_intent) }),
      currency: text(session.currency).toUpperCase(),
      created_at: event.created * 1000,
    };
  }

  /**
   * Refund and dispute events name a payment intent, but our provider_ref is the Checkout Session: one call finds the
   * session (at most one per payment intent), whose metadata carries our payment_id too. None: not our Checkout.
   */
  async function fromPaymentIntent(
    event: Stripe.Event,
    type: ProviderEventType,
    paymentIntentId: string | undefined,
    amountCents: number,
    currency: string,
    disputeRef?: string,
  ): Promise<ProviderEvent> {
    if (!paymentIntentId) return ignored(event);
    const session = (await stripe.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 })).data[0];
    const paymentId = session?.metadata?.payment_id;
    if (!session || !paymentId) return ignored(event);
    return {
      id: event.id,
      type,
      provider_ref: session.id,
      payment_id: paymentId,
      amount_cents: amountCents,
      ...(disputeRef !== undefined && { dispute_ref: disputeRef }),
      currency: text(currency).toUpperCase(),
      created_at: event.created * 1000,
    };
  }

  async function fromDispute(event: Stripe.Event, type: ProviderEventType, dispute: Stripe.Dispute): Promise<ProviderEvent> {
    // Disputes name their payment intent; older ones only their charge, which does.
    const paymentIntentId =
      idOf(dispute.payment_intent) ?? idOf(typeof dispute.charge === 'string' ? (await stripe.charges.retrieve(dispute.charge)).payment_intent : dispute.charge.payment_intent);
    return fromPaymentIntent(event, type, paymentIntentId, cents(dispute.amount), dispute.currency, text(dispute.id));
  }

  return {
    name: 'stripe',

    async createCheckout(input: CheckoutInput) {
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
          // Stripe copies this onto the payment intent (and its charges), so refunds and disputes trace back to us.
          payment_intent_data: { metadata, description: input.description },
          expires_at: Math.floor(input.created_at.getTime() / 1000) + CHECKOUT_LIFETIME_SECONDS,
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
      try {
        return await toProviderEvent(event);
      } catch (error) {
        // Stripe unreachable, rate limiting, our key refused: fail, so Stripe delivers the event again later.
        if (error instanceof Stripe.errors.StripeError && !(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        // A signed event of a shape we do not know, or naming objects Stripe does not know: retrying cannot help.
        return ignored(event);
      }
    },

    /**
     * The session's state as the event that would have told us so. Ids are per state (the refunded one per refunded
     * total), so the answer applies once beside the webhooks; created_at is when we asked.
     */
    async fetchStatus(providerRef) {
      const session = await stripe.checkout.sessions.retrieve(providerRef, { expand: ['payment_intent.latest_charge'] });
      const view = (type: ProviderEventType, state: string, amountCents: number): ProviderEvent => ({
        id: `${session.id}:${state}`,
        type,
        provider_ref: session.id,
        payment_id: session.metadata?.payment_id ?? '',
        amount_cents: amountCents,
        currency: (session.currency ?? '').toUpperCase(),
        created_at: settings.clock.now().getTime(),
      });
      if (session.status === 'expired') return view('payment.canceled', 'canceled', 0);
      if (session.status !== 'complete') return null;
      const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
      if (session.payment_status === 'paid') {
        const charge = typeof intent?.latest_charge === 'object' ? intent.latest_charge : null;
        const refunded = charge?.amount_refunded ?? 0;
        return refunded > 0
          ? view('payment.refunded', `refunded:${refunded}`, refunded)
          : { ...view('payment.succeeded', 'succeeded', session.amount_total ?? 0), payer_ref: payerRefOf(intent) };
      }
      // Complete but unpaid: an async method processing, or failed once its payment intent wants another method.
      return intent?.status === 'requires_payment_method' || intent?.status === 'canceled' ? view('payment.failed', 'failed', 0) : null;
    },

    async refund(providerRef, amountCents, refundKey) {
      if (!Number.isInteger(amountCents) || amountCents <= 0) throw new RangeError(`Invalid refund amount ${amountCents}`);
      if (!refundKey) throw new RangeError('A refund needs its refund key');
      const session = await stripe.checkout.sessions.retrieve(providerRef);
      const paymentIntentId = idOf(session.payment_intent);
      if (!paymentIntentId) throw new Error(`Checkout Session ${providerRef} has no payment to refund`);
      await stripe.refunds.create(
        { payment_intent: paymentIntentId, amount: amountCents, metadata: { payment_id: session.metadata?.payment_id ?? '', refund_key: refundKey } },
        // One key per refund: a retry refunds once (within Stripe's 24 h key window), another refund of the same amount is its own.
        { idempotencyKey: `tipcard-refund:${refundKey}` },
      );
    },
  };
}

/** A verified event Tipcard records and answers 200 to without acting on it, so Stripe does not deliver it again. */
function ignored(event: Stripe.Event, session?: Stripe.Checkout.Session): ProviderEvent {
  return {
    id: event.id,
    type: 'ignored',
    provider_ref: session?.id ?? '',
    payment_id: session?.metadata?.payment_id ?? '',
    amount_cents: 0,
    currency: (session?.currency ?? '').toUpperCase(),
    created_at: event.created * 1000,
  };
}

/** Amounts come from a signed but untyped body: anything but whole cents is a shape we do not know. */
function cents(value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw new TypeError(`Not an amount in cents: ${String(value)}`);
  return value as number;
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`Not a string: ${String(value)}`);
  return value;
}

/**
 * The card's fingerprint (the same for the same card number, across payments) when the payment intent comes with its
 * latest charge expanded; a session's webhook names only the intent's id, so there it is null.
 */
function payerRefOf(intent: string | Stripe.PaymentIntent | null): string | null {
  const charge = typeof intent === 'object' && intent !== null && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  return charge?.payment_method_details?.card?.fingerprint ?? null;
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
