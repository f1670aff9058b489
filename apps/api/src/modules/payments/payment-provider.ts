import type { Locale } from '@tipcard/shared/constants';

/**
 * The seam between Tipcard and a payment service provider (DESIGN "Payments"). Guests never type card data on our
 * origin: `createCheckout` answers the provider's hosted page. Implementations: the built-in sandbox and Stripe.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(input: CheckoutInput): Promise<{ checkout_url: string; provider_ref: string }>;
  /**
   * Verifies the signature over the exact raw body and the timestamp (stale events are refused), then answers the
   * event. Throws `WebhookVerificationError` for anything forged, altered or stale.
   */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<ProviderEvent>;
  /**
   * The provider's current view of a checkout, for the return page and for reconciliation, as the event that would
   * have told us so (ids stable per state, so applying it twice or beside the webhook changes nothing), or null
   * while the guest has not paid yet.
   */
  fetchStatus(providerRef: string): Promise<ProviderEvent | null>;
  /**
   * Charges a method a checkout saved (`CheckoutInput.save_method_for`), the payer not present (Stripe: a PaymentIntent
   * with off_session and confirm). Answers the charge's reference and the event of its outcome (succeeded, or failed
   * when declined), the same event its webhook sends. The same idempotency key with the same parameters answers the
   * first charge again; with other parameters, or for a customer or method the provider does not know, it throws.
   */
  chargeSavedMethod(input: SavedMethodChargeInput): Promise<{ provider_ref: string; event: ProviderEvent }>;
  /** Refunds part or all of a charge; `refund_key` names this one refund (a retry with the same key refunds once). */
  refund(providerRef: string, amountCents: number, refundKey: string): Promise<void>;
}

export type ProviderName = 'sandbox' | 'stripe';

/** What a payment pays for (DESIGN "Payments for many purposes"); each purpose has one handler in its own module. */
export type PaymentPurpose = 'tip' | 'team_tip' | 'venue_tip' | 'card_order' | 'invoice' | 'donation';

export interface CheckoutInput {
  purpose: PaymentPurpose;
  /** The payer's language: the hosted page speaks it (Stripe Checkout's `locale`). */
  locale: Locale;
  amount_cents: number;
  currency: 'EUR';
  description: string;
  success_url: string;
  cancel_url: string;
  /** Forwarded to the provider, so our retry of the same payment never opens a second checkout. */
  idempotency_key: string;
  /**
   * When the payment was first recorded, the same on every retry: the checkout's expiry is derived from it, since a
   * retry under the same idempotency key must send exactly the parameters of the first attempt.
   */
  created_at: Date;
  /** Comes back in every event; `payment_id` is our reference. */
  metadata: { payment_id: string } & Record<string, string>;
  /**
   * Saves the payer's payment method for later charges without them (a monthly donation), for a customer with this
   * e-mail; the success event then names the customer and method (`saved`).
   */
  save_method_for?: string;
}

export interface SavedMethodChargeInput {
  customer_ref: string;
  method_ref: string;
  amount_cents: number;
  currency: 'EUR';
  description: string;
  idempotency_key: string;
  metadata: { payment_id: string } & Record<string, string>;
}

export type ProviderPaymentStatus = 'pending' | 'succeeded' | 'failed' | 'canceled' | 'refunded';

/**
 * `payment.refunded` carries the charge's refunded total so far (cumulative), so partial refunds, repeats and
 * out-of-order deliveries all converge on the same books. `payment.chargeback` and `payment.reinstated` carry the
 * disputed amount and name the dispute. `ignored` is an event we record and answer 200 to without acting on it.
 */
export type ProviderEventType =
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.canceled'
  | 'payment.refunded'
  | 'payment.chargeback'
  | 'payment.reinstated'
  | 'ignored';

/** One provider event in our terms. Events may arrive late, twice or out of order. */
export interface ProviderEvent {
  /** The provider's event id: processed at most once. */
  id: string;
  type: ProviderEventType;
  provider_ref: string;
  /** Our payment id from the checkout metadata. */
  payment_id: string;
  /**
   * succeeded: the charged amount; refunded: the total refunded on the charge so far; chargeback and reinstated: the
   * disputed amount; 0 for the others.
   */
  amount_cents: number;
  /**
   * succeeded: who paid, as the provider names them stably across payments (a keyed hash of the card, a card
   * fingerprint), never card data; absent or null when the provider gives nothing stable.
   */
  payer_ref?: string | null;
  /**
   * succeeded: the card's brand (`visa`, `mastercard`, …) and last 4 digits, for the payer's receipt; absent when the
   * provider names none.
   */
  card?: { brand: string; last4: string } | null;
  /** succeeded, for a checkout that saved the method: the provider's customer and payment method to charge later. */
  saved?: { customer_ref: string; method_ref: string } | null;
  /** The provider's dispute id, for chargeback and reinstated. */
  dispute_ref?: string;
  currency: string;
  /** When the provider created the event (ms since epoch). */
  created_at: number;
}

export class WebhookVerificationError extends Error {}

/**
 * What a provider refuses outright (Stripe: an invalid request such as a removed customer or card): nothing was
 * charged, and asking again would be refused again. Anything else thrown may be a passing fault.
 */
export class ProviderRefusedError extends Error {}
