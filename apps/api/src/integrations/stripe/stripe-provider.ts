import type { Clock } from '../../lib/clock.ts';
import Stripe from 'stripe';
import {
  ProviderRefusedError,
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
        const succeeded = fromSession(event, 'payment.succeeded', session, cents(session.amount_total));
        if (succeeded.type !== 'payment.succeeded') return succeeded;
        // The session names its payment intent by id only: the card (a wallet's too) is on the intent's charge.
        const intent = await intentWithCharge(session.payment_intent);
        return {
          ...succeeded,
          payer_ref: payerRefOf(intent),
          card: cardOfIntent(intent),
          ...(session.metadata?.save_method === '1' && { saved: savedOf(session, intent) }),
        };
      }
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed': {
        // Checkout's own payment intents are told of by the session's events; only our off-session charges count here.
        const intent = event.data.object;
        if (intent.metadata?.off_session !== '1' || !intent.metadata.payment_id) return ignored(event);
        if (event.type === 'payment_intent.payment_failed')
          return fromOffSessionIntent(event.id, intent, 'payment.failed', event.created * 1000);
        return fromOffSessionIntent(event.id, (await intentWithCharge(intent))!, 'payment.succeeded', event.created * 1000);
      }
      case 'checkout.session.async_payment_failed':
        return fromSession(event, 'payment.failed', event.data.object, 0);
      case 'checkout.session.expired':
        return fromSession(event, 'payment.canceled', event.data.object, 0);
      case 'charge.refunded': {
        const charge = event.data.object;
        // amount_refunded is the charge's refunded total so far, whichever of its refunds this event is about.
        return fromPaymentIntent(
          event,
          'payment.refunded',
          idOf(charge.payment_intent),
          cents(charge.amount_refunded),
          charge.currency,
        );
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

  function fromSession(
    event: Stripe.Event,
    type: ProviderEventType,
    session: Stripe.Checkout.Session,
    amountCents: number,
  ): ProviderEvent {
    const paymentId = session.metadata?.payment_id;
    if (!paymentId) return ignored(event, session);
    return {
      id: event.id,
      type,
      provider_ref: session.id,
      payment_id: text(paymentId),
      amount_cents: amountCents,
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
    let paymentId = session?.metadata?.payment_id;
    let providerRef = session?.id;
    if (!session) {
      // An off-session charge of a saved method has no session: the payment intent is our reference.
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
      if (intent.metadata?.off_session === '1') [paymentId, providerRef] = [intent.metadata.payment_id, intent.id];
    }
    if (!providerRef || !paymentId) return ignored(event);
    return {
      id: event.id,
      type,
      provider_ref: providerRef,
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
      idOf(dispute.payment_intent) ??
      idOf(
        typeof dispute.charge === 'string'
          ? (await stripe.charges.retrieve(dispute.charge)).payment_intent
          : dispute.charge.payment_intent,
      );
    return fromPaymentIntent(event, type, paymentIntentId, cents(dispute.amount), dispute.currency, text(dispute.id));
  }

  /** The customer and method a paid save-mode session left behind (the method is on its payment intent). */
  function savedOf(
    session: Stripe.Checkout.Session,
    intent: Stripe.PaymentIntent | null,
  ): { customer_ref: string; method_ref: string } | null {
    const customer = idOf(session.customer);
    const method = idOf(intent?.payment_method);
    return customer && method ? { customer_ref: customer, method_ref: method } : null;
  }

  /** A payment intent with its latest charge, which carries the card's fingerprint: asked for when only its id is at hand. */
  async function intentWithCharge(intent: string | Stripe.PaymentIntent | null): Promise<Stripe.PaymentIntent | null> {
    if (!intent) return null;
    if (typeof intent === 'object' && typeof intent.latest_charge !== 'string') return intent;
    return stripe.paymentIntents.retrieve(typeof intent === 'string' ? intent : intent.id, { expand: ['latest_charge'] });
  }

  /** Our event for an off-session payment intent; `id` is Stripe's event id, or one per state when we asked. */
  function fromOffSessionIntent(
    id: string,
    intent: Stripe.PaymentIntent,
    type: 'payment.succeeded' | 'payment.failed',
    createdAt: number,
  ): ProviderEvent {
    return {
      id,
      type,
      provider_ref: intent.id,
      payment_id: intent.metadata.payment_id ?? '',
      amount_cents: type === 'payment.succeeded' ? cents(intent.amount_received) : 0,
      ...(type === 'payment.succeeded' && { payer_ref: payerRefOf(intent), card: cardOfIntent(intent) }),
      currency: text(intent.currency).toUpperCase(),
      created_at: createdAt,
    };
  }

  /** An off-session payment intent's state as the event that would have told us so (ids per state, like sessions). */
  async function fetchIntentStatus(intentId: string): Promise<ProviderEvent | null> {
    const intent = await stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] });
    const now = settings.clock.now().getTime();
    if (intent.status === 'succeeded') {
      const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      const refunded = charge?.amount_refunded ?? 0;
      if (refunded === 0) return fromOffSessionIntent(`${intent.id}:succeeded`, intent, 'payment.succeeded', now);
      return {
        id: `${intent.id}:refunded:${refunded}`,
        type: 'payment.refunded',
        provider_ref: intent.id,
        payment_id: intent.metadata.payment_id ?? '',
        amount_cents: refunded,
        currency: intent.currency.toUpperCase(),
        created_at: now,
      };
    }
    return intent.status === 'requires_payment_method' || intent.status === 'canceled'
      ? fromOffSessionIntent(`${intent.id}:failed`, intent, 'payment.failed', now)
      : null;
  }

  return {
    name: 'stripe',

    async createCheckout(input: CheckoutInput) {
      const saving = input.save_method_for !== undefined;
      const metadata = { ...input.metadata, purpose: input.purpose, ...(saving && { save_method: '1' }) };
      // Saving a method for off-session charges needs a customer to attach it to (same key: a retry finds the same one).
      const customer = saving
        ? await stripe.customers.create(
            { email: input.save_method_for!, metadata: { payment_id: input.metadata.payment_id } },
            { idempotencyKey: `${input.idempotency_key}:customer` },
          )
        : undefined;
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
          locale: input.locale,
          client_reference_id: input.metadata.payment_id,
          metadata,
          // Stripe copies this onto the payment intent (and its charges), so refunds and disputes trace back to us.
          payment_intent_data: {
            metadata,
            description: input.description,
            ...(saving && { setup_future_usage: 'off_session' as const }),
          },
          ...(customer && { customer: customer.id }),
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
        if (error instanceof Stripe.errors.StripeError && !(error instanceof Stripe.errors.StripeInvalidRequestError))
          throw error;
        // A signed event of a shape we do not know, or naming objects Stripe does not know: retrying cannot help.
        return ignored(event);
      }
    },

    /**
     * The session's state as the event that would have told us so. Ids are per state (the refunded one per refunded
     * total), so the answer applies once beside the webhooks; created_at is when we asked.
     */
    async fetchStatus(providerRef) {
      if (providerRef.startsWith('pi_')) return fetchIntentStatus(providerRef);
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
        if (refunded > 0) return view('payment.refunded', `refunded:${refunded}`, refunded);
        const succeeded = {
          ...view('payment.succeeded', 'succeeded', session.amount_total ?? 0),
          payer_ref: payerRefOf(intent),
          card: cardOfIntent(intent),
        };
        return session.metadata?.save_method === '1' ? { ...succeeded, saved: savedOf(session, intent) } : succeeded;
      }
      // Complete but unpaid: an async method processing, or failed once its payment intent wants another method.
      return intent?.status === 'requires_payment_method' || intent?.status === 'canceled'
        ? view('payment.failed', 'failed', 0)
        : null;
    },

    async chargeSavedMethod(input) {
      const metadata = { ...input.metadata, off_session: '1' };
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amount_cents,
            currency: input.currency.toLowerCase(),
            customer: input.customer_ref,
            payment_method: input.method_ref,
            off_session: true,
            confirm: true,
            description: input.description,
            metadata,
            // The charge carries the card's fingerprint, our payer reference.
            expand: ['latest_charge'],
          },
          { idempotencyKey: `tipcard-charge:${input.idempotency_key}` },
        );
        if (intent.status !== 'succeeded') throw new Error(`Off-session payment intent ${intent.id} is ${intent.status}`);
        return {
          provider_ref: intent.id,
          event: fromOffSessionIntent(`${intent.id}:succeeded`, intent, 'payment.succeeded', settings.clock.now().getTime()),
        };
      } catch (error) {
        // A decline answers 402 with the failed payment intent: an outcome, not an error. Anything else is thrown.
        // An invalid request (a removed customer or card) is refused for good; a connection or server fault may pass.
        const intent = error instanceof Stripe.errors.StripeCardError ? error.payment_intent : undefined;
        if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new ProviderRefusedError(error.message);
        if (!intent) throw error;
        return {
          provider_ref: intent.id,
          event: fromOffSessionIntent(`${intent.id}:failed`, intent, 'payment.failed', settings.clock.now().getTime()),
        };
      }
    },

    async refund(providerRef, amountCents, refundKey) {
      if (!Number.isInteger(amountCents) || amountCents <= 0) throw new RangeError(`Invalid refund amount ${amountCents}`);
      if (!refundKey) throw new RangeError('A refund needs its refund key');
      let paymentIntentId = providerRef;
      let paymentId = '';
      if (!providerRef.startsWith('pi_')) {
        const session = await stripe.checkout.sessions.retrieve(providerRef);
        paymentIntentId = idOf(session.payment_intent) ?? '';
        paymentId = session.metadata?.payment_id ?? '';
        if (!paymentIntentId) throw new Error(`Checkout Session ${providerRef} has no payment to refund`);
      }
      await stripe.refunds.create(
        { payment_intent: paymentIntentId, amount: amountCents, metadata: { payment_id: paymentId, refund_key: refundKey } },
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
 * The card's fingerprint (the same for the same card number, across payments; a wallet's card has its own) when the
 * payment intent comes with its latest charge expanded.
 */
function payerRefOf(intent: string | Stripe.PaymentIntent | null): string | null {
  const charge =
    typeof intent === 'object' && intent !== null && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  return charge?.payment_method_details?.card?.fingerprint ?? null;
}

/** The card's brand and last 4 digits from the intent's expanded latest charge, for the payer's receipt. */
function cardOfIntent(intent: string | Stripe.PaymentIntent | null): { brand: string; last4: string } | null {
  const charge =
    typeof intent === 'object' && intent !== null && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  return card?.brand && card.last4 ? { brand: card.brand, last4: card.last4 } : null;
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
