import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebhookVerificationError, type CheckoutInput, type PaymentProvider } from '../../modules/payments/payment-provider.ts';
import { FakeStripe } from './fake-stripe.ts';
import { UnsupportedWebhookEvent, createStripeProvider } from './stripe-provider.ts';

const SECRET_KEY = 'sk_test_tipcard_fake';
const WEBHOOK_SECRET = 'whsec_tipcard_test_secret';

type StripeObject = Record<string, any>;

function checkoutInput(overrides: Partial<CheckoutInput> = {}): CheckoutInput {
  return {
    purpose: 'tip',
    amount_cents: 1500,
    currency: 'EUR',
    description: 'Tip for Anna',
    success_url: 'https://tipcard.test/payment/card_1/success?payment=pay_1',
    cancel_url: 'https://tipcard.test/payment/card_1?canceled=1',
    idempotency_key: 'checkout-pay_1',
    metadata: { payment_id: 'pay_1', card_id: 'card_1' },
    ...overrides,
  };
}

const EVENT_CREATED = 1_760_000_000;

function eventPayload(type: string, object: StripeObject, id = 'evt_test_1'): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: EVENT_CREATED,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
}

function signed(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
  });
  return { body: Buffer.from(payload, 'utf8'), headers: { 'stripe-signature': header } };
}

function paidSession(overrides: StripeObject = {}): StripeObject {
  return {
    id: 'cs_test_paid',
    object: 'checkout.session',
    mode: 'payment',
    amount_total: 1500,
    currency: 'eur',
    client_reference_id: 'pay_1',
    metadata: { payment_id: 'pay_1', card_id: 'card_1', purpose: 'tip' },
    status: 'complete',
    payment_status: 'paid',
    payment_intent: 'pi_test_1',
    url: null,
    ...overrides,
  };
}

function charge(overrides: StripeObject = {}): StripeObject {
  return {
    id: 'ch_test_1',
    object: 'charge',
    amount: 1500,
    amount_refunded: 0,
    currency: 'eur',
    payment_intent: 'pi_test_1',
    metadata: {},
    refunded: false,
    ...overrides,
  };
}

const fake = new FakeStripe();
let provider: PaymentProvider;

beforeAll(async () => {
  await fake.start();
  provider = createStripeProvider({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiHost: '127.0.0.1',
    apiPort: fake.port,
    apiProtocol: 'http',
  });
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());
afterEach(() => vi.useRealTimers());

describe('createCheckout', () => {
  it('creates a payment-mode Checkout Session with our amount, URLs, metadata and idempotency key', async () => {
    const result = await provider.createCheckout(checkoutInput());

    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/checkout/sessions');
    expect(request.headers['idempotency-key']).toBe('checkout-pay_1');
    expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    const body = request.body;
    expect(body.get('mode')).toBe('payment');
    expect(body.get('line_items[0][quantity]')).toBe('1');
    expect(body.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(body.get('line_items[0][price_data][unit_amount]')).toBe('1500');
    expect(body.get('line_items[0][price_data][product_data][name]')).toBe('Tip for Anna');
    expect(body.get('success_url')).toBe('https://tipcard.test/payment/card_1/success?payment=pay_1');
    expect(body.get('cancel_url')).toBe('https://tipcard.test/payment/card_1?canceled=1');
    expect(body.get('client_reference_id')).toBe('pay_1');
    expect(body.get('metadata[payment_id]')).toBe('pay_1');
    expect(body.get('metadata[card_id]')).toBe('card_1');
    expect(body.get('payment_intent_data[metadata][payment_id]')).toBe('pay_1');
    expect([...body.keys()].some((key) => key.startsWith('payment_method_types'))).toBe(false);

    const now = Math.floor(Date.now() / 1000);
    const expiresAt = Number(body.get('expires_at'));
    expect(expiresAt - now).toBeGreaterThanOrEqual(30 * 60);
    expect(expiresAt - now).toBeLessThanOrEqual(45 * 60);

    expect(result).toEqual({
      checkout_url: `https://checkout.stripe.com/c/pay/${result.provider_ref}`,
      provider_ref: expect.stringMatching(/^cs_test_/),
    });
    expect(fake.sessions.has(result.provider_ref)).toBe(true);
  });

  it('sends identical parameters when the same checkout is retried a few minutes later', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-02T10:00:05Z'));
    await provider.createCheckout(checkoutInput());
    vi.setSystemTime(new Date('2026-11-02T10:04:00Z'));
    await provider.createCheckout(checkoutInput());

    const [first, second] = fake.requests;
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(second!.body.toString()).toBe(first!.body.toString());
    expect(Number(first!.body.get('expires_at'))).toBe(Date.parse('2026-11-02T10:40:00Z') / 1000);
  });

  it('surfaces Stripe API errors', async () => {
    await expect(provider.fetchStatus('cs_test_missing')).rejects.toThrow(/No such object/);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('parseWebhook: verified events', () => {
  it('maps a paid checkout.session.completed to payment.succeeded', async () => {
    const { body, headers } = signed(eventPayload('checkout.session.completed', paidSession()));

    await expect(provider.parseWebhook(body, headers)).resolves.toEqual({
      id: 'evt_test_1',
      type: 'payment.succeeded',
      provider_ref: 'cs_test_paid',
      payment_id: 'pay_1',
      amount_cents: 1500,
      currency: 'EUR',
      created_at: EVENT_CREATED * 1000,
    });
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['checkout.session.async_payment_succeeded', 'payment.succeeded'],
    ['checkout.session.async_payment_failed', 'payment.failed'],
    ['checkout.session.expired', 'payment.canceled'],
  ])('maps %s to %s', async (stripeType, ourType) => {
    const session = paidSession({ payment_status: stripeType.endsWith('succeeded') ? 'paid' : 'unpaid' });
    const { body, headers } = signed(eventPayload(stripeType, session, 'evt_test_2'));

    const event = await provider.parseWebhook(body, headers);

    expect(event).toMatchObject({
      id: 'evt_test_2',
      type: ourType,
      provider_ref: 'cs_test_paid',
      payment_id: 'pay_1',
      amount_cents: 1500,
    });
  });

  it('leaves a completed but not yet paid (async) checkout to the later async_payment_* event', async () => {
    const { body, headers } = signed(eventPayload('checkout.session.completed', paidSession({ payment_status: 'unpaid' })));

    await expect(provider.parseWebhook(body, headers)).rejects.toBeInstanceOf(UnsupportedWebhookEvent);
  });

  it('accepts the header under any casing (raw Node headers are lower-case, others may not be)', async () => {
    const { body, headers } = signed(eventPayload('checkout.session.completed', paidSession()));

    await expect(provider.parseWebhook(body, { 'Stripe-Signature': headers['stripe-signature'] })).resolves.toMatchObject({
      type: 'payment.succeeded',
    });
  });
});

describe('parseWebhook: forged, altered and stale events', () => {
  const payload = eventPayload('checkout.session.completed', paidSession());

  it('refuses a signature made with another secret', async () => {
    const { body, headers } = signed(payload, { secret: 'whsec_attacker' });
    await expect(provider.parseWebhook(body, headers)).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('refuses a payload altered by one byte after signing', async () => {
    const { body, headers } = signed(payload);
    const altered = Buffer.from(body);
    const index = altered.indexOf('1500');
    altered[index] = '9'.charCodeAt(0);
    await expect(provider.parseWebhook(altered, headers)).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('refuses a correctly signed event whose timestamp is 10 minutes old', async () => {
    const { body, headers } = signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 });
    await expect(provider.parseWebhook(body, headers)).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('accepts a signature 4 minutes old (inside the 5 minute tolerance)', async () => {
    const { body, headers } = signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 4 * 60 });
    await expect(provider.parseWebhook(body, headers)).resolves.toMatchObject({ type: 'payment.succeeded' });
  });

  it('refuses an event without a signature header, or with several', async () => {
    const { body, headers } = signed(payload);
    await expect(provider.parseWebhook(body, {})).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(provider.parseWebhook(body, { 'stripe-signature': '' })).rejects.toBeInstanceOf(WebhookVerificationError);
    const twice = [headers['stripe-signature'], headers['stripe-signature']];
    await expect(provider.parseWebhook(body, { 'stripe-signature': twice })).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('refuses a garbage signature header', async () => {
    const { body } = signed(payload);
    await expect(provider.parseWebhook(body, { 'stripe-signature': 't=1,v1=abc' })).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
  });
});

describe('parseWebhook: refunds, disputes and other events', () => {
  beforeEach(() => {
    fake.sessions.set('cs_test_paid', paidSession());
  });

  it('maps charge.refunded to payment.refunded, resolving the Checkout Session from the payment intent', async () => {
    const refunded = charge({ amount_refunded: 500, refunded: false });
    const { body, headers } = signed(eventPayload('charge.refunded', refunded, 'evt_refund_1'));

    await expect(provider.parseWebhook(body, headers)).resolves.toEqual({
      id: 'evt_refund_1',
      type: 'payment.refunded',
      provider_ref: 'cs_test_paid',
      payment_id: 'pay_1',
      amount_cents: 500,
      currency: 'EUR',
      created_at: EVENT_CREATED * 1000,
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/v1/checkout/sessions' });
    expect(fake.requests[0]!.query.get('payment_intent')).toBe('pi_test_1');
  });

  it('maps charge.dispute.created to payment.chargeback with the disputed amount', async () => {
    const dispute = {
      id: 'dp_test_1',
      object: 'dispute',
      amount: 1500,
      currency: 'eur',
      charge: 'ch_test_1',
      payment_intent: 'pi_test_1',
      metadata: {},
    };
    const { body, headers } = signed(eventPayload('charge.dispute.created', dispute, 'evt_dispute_1'));

    await expect(provider.parseWebhook(body, headers)).resolves.toEqual({
      id: 'evt_dispute_1',
      type: 'payment.chargeback',
      provider_ref: 'cs_test_paid',
      payment_id: 'pay_1',
      amount_cents: 1500,
      currency: 'EUR',
      created_at: EVENT_CREATED * 1000,
    });
  });

  it('looks the charge up when a dispute does not name its payment intent', async () => {
    fake.charges.set('ch_test_1', charge());
    const dispute = {
      id: 'dp_test_2',
      object: 'dispute',
      amount: 700,
      currency: 'eur',
      charge: 'ch_test_1',
      payment_intent: null,
      metadata: {},
    };
    const { body, headers } = signed(eventPayload('charge.dispute.created', dispute, 'evt_dispute_2'));

    await expect(provider.parseWebhook(body, headers)).resolves.toMatchObject({
      type: 'payment.chargeback',
      provider_ref: 'cs_test_paid',
      amount_cents: 700,
    });
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/charges/ch_test_1',
      'GET /v1/checkout/sessions',
    ]);
  });

  it('treats a refund of a charge that did not come from our Checkout as unsupported', async () => {
    const { body, headers } = signed(
      eventPayload('charge.refunded', charge({ payment_intent: 'pi_elsewhere', amount_refunded: 100 })),
    );

    await expect(provider.parseWebhook(body, headers)).rejects.toBeInstanceOf(UnsupportedWebhookEvent);
  });

  it('throws UnsupportedWebhookEvent (not a verification error) for a verified event of another type', async () => {
    const { body, headers } = signed(eventPayload('customer.created', { id: 'cus_1', object: 'customer' }, 'evt_other'));

    const error = await provider.parseWebhook(body, headers).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedWebhookEvent);
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ eventId: 'evt_other', eventType: 'customer.created' });
  });
});

describe('fetchStatus', () => {
  it('answers pending for an open session and canceled for an expired one', async () => {
    fake.sessions.set('cs_open', paidSession({ id: 'cs_open', status: 'open', payment_status: 'unpaid', payment_intent: null }));
    fake.sessions.set(
      'cs_expired',
      paidSession({ id: 'cs_expired', status: 'expired', payment_status: 'unpaid', payment_intent: null }),
    );

    await expect(provider.fetchStatus('cs_open')).resolves.toBe('pending');
    await expect(provider.fetchStatus('cs_expired')).resolves.toBe('canceled');
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/checkout/sessions/cs_open',
      'GET /v1/checkout/sessions/cs_expired',
    ]);
  });

  it('answers succeeded for a paid session, refunded once its charge has refunds', async () => {
    fake.sessions.set('cs_test_paid', paidSession());
    fake.paymentIntents.set('pi_test_1', {
      id: 'pi_test_1',
      object: 'payment_intent',
      status: 'succeeded',
      latest_charge: 'ch_test_1',
    });
    fake.charges.set('ch_test_1', charge());

    await expect(provider.fetchStatus('cs_test_paid')).resolves.toBe('succeeded');
    const intentRequest = fake.requests.find((request) => request.path === '/v1/payment_intents/pi_test_1');
    expect([...intentRequest!.query.values()]).toContain('latest_charge');

    fake.charges.set('ch_test_1', charge({ amount_refunded: 1500, refunded: true }));
    await expect(provider.fetchStatus('cs_test_paid')).resolves.toBe('refunded');
  });

  it('answers pending while an async payment processes and failed once it failed', async () => {
    fake.sessions.set('cs_async', paidSession({ id: 'cs_async', payment_status: 'unpaid', payment_intent: 'pi_async' }));
    fake.paymentIntents.set('pi_async', { id: 'pi_async', object: 'payment_intent', status: 'processing', latest_charge: null });

    await expect(provider.fetchStatus('cs_async')).resolves.toBe('pending');
    fake.paymentIntents.set('pi_async', {
      id: 'pi_async',
      object: 'payment_intent',
      status: 'requires_payment_method',
      latest_charge: null,
    });
    await expect(provider.fetchStatus('cs_async')).resolves.toBe('failed');
  });
});

describe('refund', () => {
  it('refunds the payment intent behind the session with an idempotency key derived from ref and amount', async () => {
    fake.sessions.set('cs_test_paid', paidSession());

    await provider.refund('cs_test_paid', 500);
    await provider.refund('cs_test_paid', 500);

    const refunds = fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1/refunds');
    expect(refunds).toHaveLength(2);
    const [first, second] = refunds;
    expect(first!.body.get('payment_intent')).toBe('pi_test_1');
    expect(first!.body.get('amount')).toBe('500');
    expect(first!.body.get('metadata[payment_id]')).toBe('pay_1');
    expect(first!.headers['idempotency-key']).toBe('tipcard-refund:cs_test_paid:500');
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
  });

  it('refuses to refund a session that has no payment, or a non-positive amount', async () => {
    fake.sessions.set('cs_open', paidSession({ id: 'cs_open', status: 'open', payment_status: 'unpaid', payment_intent: null }));

    await expect(provider.refund('cs_open', 500)).rejects.toThrow(/no payment/);
    await expect(provider.refund('cs_test_paid', 0)).rejects.toBeInstanceOf(RangeError);
    expect(fake.requests.some((request) => request.path === '/v1/refunds')).toBe(false);
  });
});
