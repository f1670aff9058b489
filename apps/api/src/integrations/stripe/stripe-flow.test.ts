import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, providerEvents } from '../../db/schema/payments.ts';
import { checkLedgerInvariants } from '../../modules/transactions/transactions.service.ts';
import { appliedOutcomeOf } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { FakeStripe, signedEvent } from './fake-stripe.ts';
import { createStripeProvider } from './stripe-provider.ts';
import { systemClock } from '../../lib/clock.ts';

const SECRET_KEY = 'sk_test_tipcard_flow';
const WEBHOOK_SECRET = 'whsec_tipcard_flow_secret';
const fake = new FakeStripe();
let t: TestApp;

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({
    env: {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: `http://127.0.0.1:${fake.port}`,
    },
    // Stripe (and the fake) check a checkout's expiry against the real clock, so the app must use it too.
    overrides: { clock: systemClock },
  });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

/** Posts a Stripe event to the app's webhook route, with the content type Stripe sends. */
function deliver(type: string, object: object, options: { secret?: string; timestamp?: number } = {}) {
  const { payload, headers } = signedEvent(type, object, options.secret ?? WEBHOOK_SECRET, options);
  return t.call({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    payload,
  });
}

describe('the Stripe provider in the app', () => {
  it('opens a Checkout Session for a tip and credits it once on the verified event; a forged event changes nothing', async () => {
    const user = await signUpWithCard(t);
    const created = await t.call({
      method: 'POST',
      url: `/api/public/cards/${user.cardId}/payments`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { amount_cents: 1_000, cover_fee: true, terms_accepted: true },
    });
    expect(created.status).toBe(201);
    const payment = created.body.data;
    expect(payment.checkout_url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const session = fake.completeCheckout(payment.checkout_url.split('/').at(-1));
    expect(session).toMatchObject({
      amount_total: 1_050,
      currency: 'eur',
      client_reference_id: payment.id,
      metadata: { payment_id: payment.id },
    });

    await expect(deliver('checkout.session.completed', session, { secret: 'whsec_someone_else' })).resolves.toMatchObject({
      status: 400,
      body: { code: 'invalid_webhook' },
    });
    const event = signedEvent('checkout.session.completed', session, WEBHOOK_SECRET);
    const post = () =>
      t.call({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'content-type': 'application/json', ...event.headers },
        payload: event.payload,
      });
    expect((await post()).body.data.outcome).toBe('recorded');
    expect((await post()).body.data.outcome).toBe('duplicate');
    expect(await appliedOutcomeOf(t, JSON.parse(event.payload).id, 'stripe')).toBe('applied');
    // The payer is named by the charge's card fingerprint, read from Stripe when the event names only the intent.
    const [stored] = await t.app.db.select({ payerRef: payments.payerRef }).from(payments).where(eq(payments.id, payment.id));
    expect(stored!.payerRef).toBe(fake.chargeOf(session.id).payment_method_details!.card!.fingerprint);
    const account = await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/account`, token: user.jwt });
    expect(account.body.data.account_balances).toEqual([
      { type: 'main', balance: 0 },
      { type: 'hold', balance: 1_000 },
    ]);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('answers 200 to every kind of verified event, acted on or not, and 400 only to unverified ones', async () => {
    // A checkout of a payment this app does not hold: the route's answer must not depend on the money core's verdict.
    const stripe = createStripeProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      clock: systemClock,
      apiHost: '127.0.0.1',
      apiPort: fake.port,
      apiProtocol: 'http',
    });
    const checkout = (key: string) =>
      stripe.createCheckout({
        purpose: 'tip',
        locale: 'en',
        amount_cents: 1_000,
        currency: 'EUR',
        description: 'Tip',
        success_url: 'https://tipcard.test/ok',
        cancel_url: 'https://tipcard.test/canceled',
        idempotency_key: key,
        created_at: new Date(),
        metadata: { payment_id: crypto.randomUUID() },
      });
    const paid = fake.completeCheckout((await checkout('flow-paid')).provider_ref);
    const processing = fake.completeCheckout((await checkout('flow-processing')).provider_ref, 'unpaid');
    const expired = fake.expireCheckout((await checkout('flow-expired')).provider_ref);
    await stripe.refund(paid.id, 300, 'flow-refund');
    const charge = fake.chargeOf(paid.id);
    const dispute = fake.openDispute(paid.id);
    const intent = fake.paymentIntents.get(paid.payment_intent as string)!;

    const events: [string, object][] = [
      ['checkout.session.completed', paid],
      ['checkout.session.completed', processing],
      ['checkout.session.async_payment_succeeded', { ...processing, payment_status: 'paid' }],
      ['checkout.session.async_payment_failed', processing],
      ['checkout.session.expired', expired],
      ['payment_intent.succeeded', intent],
      ['charge.succeeded', charge],
      ['charge.refunded', charge],
      ['customer.created', { id: 'cus_flow', object: 'customer' }],
      ['charge.dispute.created', dispute],
      ['charge.dispute.funds_withdrawn', dispute],
      ['charge.dispute.funds_reinstated', dispute],
      ['charge.dispute.closed', fake.closeDispute(dispute.id, 'won')],
      ['charge.dispute.closed', fake.closeDispute(dispute.id, 'lost')],
      ['charge.refunded', { id: 'ch_unknown_shape', object: 'charge', amount_refunded: 'lots' }],
    ];
    for (const [type, object] of events) {
      const response = await deliver(type, object);
      expect({ type, status: response.status, received: response.body.data?.received }).toEqual({
        type,
        status: 200,
        received: true,
      });
    }

    const stale = await deliver('checkout.session.completed', paid, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale).toMatchObject({ status: 400, body: { code: 'invalid_webhook' } });
    // Every recorded one comes to an outcome when applied (none of them is this app's payment), none left waiting.
    expect(await t.runJob('payments.apply-events')).toBe(events.length);
    expect(await t.app.db.select().from(providerEvents).where(isNull(providerEvents.outcome))).toEqual([]);
  });
});
