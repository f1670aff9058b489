import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sandboxCharges } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  WebhookVerificationError,
  type CheckoutInput,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderEventType,
  type ProviderPaymentStatus,
} from '../../modules/payments/payment-provider.ts';

export const SANDBOX_SIGNATURE_HEADER = 'tipcard-sandbox-signature';
const TOLERANCE_SECONDS = 300;
const CHECKOUT_LIFETIME_MS = 30 * 60_000;

/** Documented test cards (README "Sandbox payments"); any other number is declined. */
export const SANDBOX_TEST_CARDS = {
  '4242424242424242': 'succeeded',
  '4000000000000002': 'declined',
  '4000000000000119': 'timeout',
} as const;

/** What the hosted page needs: the checkout, signed into its URL so the sandbox keeps nothing until the guest acts. */
export interface SandboxCheckout {
  ref: string;
  amount_cents: number;
  currency: string;
  description: string;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  expires_at: number;
}

export type SandboxOutcome = 'succeeded' | 'declined' | 'timeout' | 'canceled';

export interface SandboxSettings {
  db: Database;
  clock: Clock;
  publicUrl: string;
  /** Signs checkout URLs and webhook events, like a provider's webhook secret. */
  secret: string;
  /** Sends a signed event to our webhook endpoint, like the provider's servers would. */
  deliver: (body: string, headers: Record<string, string>) => Promise<number>;
  /** How long the provider takes to send its event, in ms. */
  deliveryDelayMs: number;
}

export type SandboxProvider = PaymentProvider & {
  openCheckout(token: string): SandboxCheckout | null;
  complete(checkout: SandboxCheckout, outcome: SandboxOutcome, method: string, options?: { deliverTwice?: boolean }): Promise<void>;
  signEvent(body: string, timestampSeconds?: number): string;
};

const base64url = (text: string) => Buffer.from(text).toString('base64url');
const equalHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The built-in payment provider (DESIGN "Payments"): a hosted checkout served by this API with test cards and wallet
 * buttons, HMAC-signed webhook events with timestamps, delivered after a delay and retried like a real provider's.
 */
export function createSandboxProvider(settings: SandboxSettings): SandboxProvider {
  const { db, clock } = settings;
  const hmac = (purpose: string, text: string) => createHmac('sha256', `${purpose}:${settings.secret}`).update(text).digest('hex');

  const signEvent = (body: string, timestampSeconds = Math.floor(clock.now().getTime() / 1000)) =>
    `t=${timestampSeconds},v1=${hmac('webhook', `${timestampSeconds}.${body}`)}`;

  async function deliverWithRetries(body: string) {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      try {
        const status = await settings.deliver(body, { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signEvent(body) });
        if (status < 500) return;
      } catch {
        // A provider retries what did not arrive; so does the sandbox.
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }

  function schedule(event: ProviderEvent, times: number) {
    const body = JSON.stringify(event);
    const timer = setTimeout(() => {
      void (async () => {
        for (let i = 0; i < times; i += 1) await deliverWithRetries(body);
      })();
    }, settings.deliveryDelayMs);
    timer.unref();
  }

  async function recordCharge(charge: typeof sandboxCharges.$inferInsert) {
    await db
      .insert(sandboxCharges)
      .values(charge)
      .onConflictDoUpdate({ target: sandboxCharges.providerRef, set: { status: charge.status, method: charge.method } });
  }

  const findCharge = async (providerRef: string) => (await db.select().from(sandboxCharges).where(eq(sandboxCharges.providerRef, providerRef)))[0];

  return {
    name: 'sandbox',

    async createCheckout(input: CheckoutInput) {
      const checkout: SandboxCheckout = {
        ref: `sbx_${randomUUID()}`,
        amount_cents: input.amount_cents,
        currency: input.currency,
        description: input.description,
        success_url: input.success_url,
        cancel_url: input.cancel_url,
        metadata: input.metadata,
        expires_at: clock.now().getTime() + CHECKOUT_LIFETIME_MS,
      };
      const payload = base64url(JSON.stringify(checkout));
      const token = `${payload}.${hmac('checkout', payload)}`;
      return { checkout_url: `${settings.publicUrl}/api/sandbox/checkout?c=${token}`, provider_ref: checkout.ref };
    },

    openCheckout(token) {
      const [payload = '', signature = ''] = token.split('.');
      if (!equalHex(signature, hmac('checkout', payload))) return null;
      try {
        const checkout = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SandboxCheckout;
        return checkout.expires_at > clock.now().getTime() ? checkout : null;
      } catch {
        return null;
      }
    },

    /** The guest's choice on the hosted page: record it on the sandbox's side and send the event(s). */
    async complete(checkout, outcome, method, options = {}) {
      const status: ProviderPaymentStatus = outcome === 'declined' ? 'failed' : outcome === 'timeout' ? 'pending' : outcome;
      const paymentId = checkout.metadata.payment_id ?? '';
      await recordCharge({ providerRef: checkout.ref, paymentId, status, method, amountCents: checkout.amount_cents });
      if (outcome === 'timeout') return; // the network never answers: no event
      const type: ProviderEventType = outcome === 'succeeded' ? 'payment.succeeded' : outcome === 'declined' ? 'payment.failed' : 'payment.canceled';
      schedule(
        {
          id: `evt_${randomUUID()}`,
          type,
          provider_ref: checkout.ref,
          payment_id: paymentId,
          amount_cents: checkout.amount_cents,
          currency: checkout.currency,
          created_at: clock.now().getTime(),
        },
        options.deliverTwice ? 2 : 1,
      );
    },

    signEvent,

    async parseWebhook(rawBody, headers) {
      const header = headers[SANDBOX_SIGNATURE_HEADER];
      const match = typeof header === 'string' ? /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) : null;
      if (!match) throw new WebhookVerificationError('missing or malformed signature');
      const [, timestamp = '0', signature = ''] = match;
      if (Math.abs(clock.now().getTime() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) throw new WebhookVerificationError('stale event');
      if (!equalHex(signature, hmac('webhook', `${timestamp}.${rawBody.toString('utf8')}`))) {
        throw new WebhookVerificationError('bad signature');
      }
      try {
        return JSON.parse(rawBody.toString('utf8')) as ProviderEvent;
      } catch {
        throw new WebhookVerificationError('body is not JSON');
      }
    },

    async fetchStatus(providerRef) {
      return (await findCharge(providerRef))?.status ?? 'pending';
    },

    async refund(providerRef, amountCents) {
      const charge = await findCharge(providerRef);
      if (charge?.status !== 'succeeded') throw new Error(`sandbox charge ${providerRef} cannot be refunded`);
      await recordCharge({ ...charge, status: 'refunded' });
      schedule(
        {
          id: `evt_${randomUUID()}`,
          type: 'payment.refunded',
          provider_ref: providerRef,
          payment_id: charge.paymentId,
          amount_cents: amountCents,
          currency: 'EUR',
          created_at: clock.now().getTime(),
        },
        1,
      );
    },
  };
}
