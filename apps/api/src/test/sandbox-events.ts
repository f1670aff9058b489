import { and, eq } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import { providerEvents } from '../db/schema/payments.ts';
import { createSandboxProvider, SANDBOX_SIGNATURE_HEADER } from '../integrations/sandbox-psp/sandbox-provider.ts';
import type { ProviderEvent } from '../modules/payments/payments.service.ts';
import { drainJob } from './jobs.ts';
import type { TestApp } from './test-app.ts';

interface OpenPayment {
  id: string;
  total_cents: number;
  checkout_url: string;
}

/** Signs like the app's own sandbox provider (same secret), as its servers would. */
export const sandboxSigner = (t: TestApp) =>
  createSandboxProvider({
    db: t.app.db,
    clock: t.clock,
    publicUrl: t.app.config.publicUrl,
    secret: t.app.config.jwtSecret,
    deliveryDelayMs: 0,
  });

/** The sandbox's reference of a payment, read from its signed checkout link. */
export function sandboxRefOf(payment: OpenPayment): string {
  const token = new URL(payment.checkout_url).searchParams.get('c')!;
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).ref as string;
}

type SandboxEventType = 'payment.succeeded' | 'payment.failed' | 'payment.refunded' | 'payment.chargeback' | 'payment.reinstated';

/** A provider event about a payment as the sandbox sends it: a new id and the payment's total unless given. */
export function sandboxEventOf(
  t: TestApp,
  payment: OpenPayment,
  type: SandboxEventType,
  /** The event's id (the same on each delivery of one event) and amount. */
  event: { id?: string; amountCents?: number } = {},
): ProviderEvent {
  return {
    id: event.id ?? `evt_${crypto.randomUUID()}`,
    type,
    provider_ref: sandboxRefOf(payment),
    payment_id: payment.id,
    amount_cents: event.amountCents ?? payment.total_cents,
    currency: 'EUR',
    created_at: t.clock.now().getTime(),
  } as ProviderEvent;
}

/** Delivers a signed event to the webhook route as the sandbox's servers do; answers what the route said. */
export async function recordSandboxEvent(t: TestApp, event: ProviderEvent): Promise<'recorded' | 'duplicate'> {
  const body = JSON.stringify(event);
  const response = await t.call({
    method: 'POST',
    url: '/api/webhooks/sandbox',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandboxSigner(t).signEvent(body) },
    payload: body,
  });
  expect(response.status).toBe(200);
  return response.body.data.outcome as 'recorded' | 'duplicate';
}

/** A signed provider event about a payment, delivered to the webhook route like the sandbox does; answers the outcome. */
export async function deliverSandboxEvent(
  t: TestApp,
  payment: OpenPayment,
  type: Exclude<SandboxEventType, 'payment.reinstated'>,
  event: { id?: string; amountCents?: number } = {},
) {
  const delivered = sandboxEventOf(t, payment, type, event);
  if ((await recordSandboxEvent(t, delivered)) === 'duplicate') return 'duplicate';
  return appliedOutcomeOf(t, delivered.id);
}

/**
 * Applies the recorded events as the workers would, and answers what this one came to: applied, ignored or mismatch
 * (decision 0060: the webhook only records it).
 */
export async function appliedOutcomeOf(t: TestApp, eventId: string, provider = 'sandbox'): Promise<string> {
  // Another caller's run may hold this event in its batch: its outcome shows once that batch commits.
  return vi.waitFor(
    async () => {
      await t.runJob('payments.apply-events');
      const [row] = await t.app.db
        .select({ outcome: providerEvents.outcome })
        .from(providerEvents)
        .where(and(eq(providerEvents.provider, provider), eq(providerEvents.eventId, eventId)));
      if (!row) return 'not recorded';
      expect(row.outcome).not.toBeNull();
      return row.outcome!;
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** Sends what the sandbox's servers have due at `at` to the webhook, and applies the recorded events as the workers would. */
export async function deliverDueSandboxEvents(t: TestApp, at: () => Date = () => t.clock.now()) {
  for (const job of t.app.services.sandboxJobs) await drainJob(job, at);
  await t.runJob('payments.apply-events');
}

/** A guest's payment to the card, opened at the test clock's time; not paid yet. */
export async function openPayment(
  t: TestApp,
  cardId: string,
  cents: number,
  extra: { message?: string; rating?: number; cover_fee?: boolean } = {},
) {
  const created = await t.call({
    method: 'POST',
    url: `/api/public/cards/${cardId}/payments`,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { amount_cents: cents, cover_fee: false, terms_accepted: true, ...extra },
  });
  expect(created.status).toBe(201);
  return created.body.data as OpenPayment & { amount_cents: number; fee_cents: number };
}

/** The guest submits the sandbox's hosted page (by default the succeeding test card); the sandbox then sends its event. */
export async function payAtSandboxCheckout(t: TestApp, payment: OpenPayment, form = 'method=card&card_number=4242424242424242') {
  const url = new URL(payment.checkout_url);
  const paid = await t.call({
    method: 'POST',
    url: `${url.pathname}${url.search}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form,
  });
  expect(paid.status).toBe(303);
  return paid;
}

/** A guest's tip to the card, paid and confirmed by the provider's signed event, at the test clock's time. */
export async function receiveTip(
  t: TestApp,
  cardId: string,
  cents: number,
  extra: { message?: string; rating?: number; cover_fee?: boolean } = {},
) {
  const payment = await openPayment(t, cardId, cents, extra);
  expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');
  return payment;
}

/**
 * Delivers what the sandbox has due now and waits until the payment is applied. The app's own sandbox sender may
 * have claimed the event first and still be delivering it: a drain that finds nothing due is not a payment applied.
 */
export async function settleSandboxPayment(t: TestApp, paymentId: string) {
  await deliverDueSandboxEvents(t);
  await vi.waitFor(
    async () => {
      // The app's sender's delivery may be recorded only now: applied as the workers would.
      await t.runJob('payments.apply-events');
      expect((await t.app.services.payments.getPublicPayment(paymentId)).status).not.toBe('pending');
    },
    { timeout: 10_000 },
  );
}
