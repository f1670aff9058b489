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
  /** The provider's current view of a checkout, for the return page and for reconciliation. */
  fetchStatus(providerRef: string): Promise<ProviderPaymentStatus>;
  refund(providerRef: string, amountCents: number): Promise<void>;
}

export type ProviderName = 'sandbox' | 'stripe';

export interface CheckoutInput {
  purpose: 'tip';
  amount_cents: number;
  currency: 'EUR';
  description: string;
  success_url: string;
  cancel_url: string;
  /** Forwarded to the provider, so our retry of the same payment never opens a second checkout. */
  idempotency_key: string;
  /** Comes back in every event; `payment_id` is our reference. */
  metadata: { payment_id: string } & Record<string, string>;
}

export type ProviderPaymentStatus = 'pending' | 'succeeded' | 'failed' | 'canceled' | 'refunded';

export type ProviderEventType = 'payment.succeeded' | 'payment.failed' | 'payment.canceled' | 'payment.refunded' | 'payment.chargeback';

/** One provider event in our terms. Events may arrive late, twice or out of order. */
export interface ProviderEvent {
  /** The provider's event id: processed at most once. */
  id: string;
  type: ProviderEventType;
  provider_ref: string;
  /** Our payment id from the checkout metadata. */
  payment_id: string;
  /** Charged amount for succeeded; refunded or disputed amount for refunds and chargebacks. */
  amount_cents: number;
  currency: string;
  /** When the provider created the event (ms since epoch). */
  created_at: number;
}

export class WebhookVerificationError extends Error {}
