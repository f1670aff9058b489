import { systemClock } from '../../lib/clock.ts';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locale } from '@tipcard/shared/constants';
import { WebhookVerificationError, type CheckoutInput, type PaymentProvider } from '../../modules/payments/payment-provider.ts';
import { FakeStripe, signedEvent } from './fake-stripe.ts';
import { createStripeProvider } from './stripe-provider.ts';

const SECRET_KEY = 'sk_test_tipcard_fake';
const WEBHOOK_SECRET = 'whsec_tipcard_test_secret';
const PAYMENT_ID = '0b5f1c2e-3d4a-4b6c-8d7e-9f0a1b2c3d4e';

function checkoutInput(overrides: Partial<CheckoutInput> = {}): CheckoutInput {
  return {
    purpose: 'tip',
    locale: 'en',
    amount_cents: 1500,
    currency: 'EUR',
    description: 'Tip for Anna',
    success_url: `https://tipcard.test/payment/walletto-result?payment=${PAYMENT_ID}`,
    cancel_url: 'https://tipcard.test/payment/card_1/canceled',
    idempotency_key: 'tip:card_1:key-0001',
    created_at: new Date(),
    metadata: { payment_id: PAYMENT_ID, card_id: 'card_1' },
    ...overrides,
  };
}

const fake = new FakeStripe();
const providerWith = (secretKey: string) =>
  createStripeProvider({
    secretKey,
    webhookSecret: WEBHOOK_SECRET,
    clock: systemClock,
    apiHost: '127.0.0.1',
    apiPort: fake.port,
    apiProtocol: 'http',
  });
let provider: PaymentProvider;

beforeAll(async () => {
  await fake.start();
  provider = providerWith(SECRET_KEY);
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

const parse = (type: string, object: object, options: Parameters<typeof signedEvent>[3] = {}) => {
  const { body, headers } = signedEvent(type, object, WEBHOOK_SECRET, options);
  return provider.parseWebhook(body, headers);
};
const posts = (path: string) => fake.requests.filter((request) => request.method === 'POST' && request.path === path);

/** A checkout opened through the provider and paid on Stripe's side. */
async function paidCheckout() {
  const { provider_ref } = await provider.createCheckout(checkoutInput());
  return fake.completeCheckout(provider_ref);
}

describe('createCheckout', () => {
  it('opens a payment-mode Checkout Session whose payment intent carries our metadata, expiring an hour after the payment was created', async () => {
    const createdAt = new Date(Date.now() - 5 * 60_000);
    const result = await provider.createCheckout(checkoutInput({ created_at: createdAt }));

    const [request] = posts('/v1/checkout/sessions');
    expect(request!.headers['idempotency-key']).toBe('tip:card_1:key-0001');
    expect(request!.body.get('payment_intent_data[metadata][payment_id]')).toBe(PAYMENT_ID);
    expect([...request!.body.keys()].some((key) => key.startsWith('payment_method_types'))).toBe(false);
    expect(result).toEqual({
      checkout_url: `https://checkout.stripe.com/c/pay/${result.provider_ref}`,
      provider_ref: expect.stringMatching(/^cs_test_/),
    });
    expect(fake.sessions.get(result.provider_ref)).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 1500,
      currency: 'eur',
      client_reference_id: PAYMENT_ID,
      metadata: { payment_id: PAYMENT_ID, card_id: 'card_1', purpose: 'tip' },
      expires_at: Math.floor(createdAt.getTime() / 1000) + 3600,
    });
  });

  it("opens the hosted page in the payer's language; Stripe refuses a language it does not speak", async () => {
    const result = await provider.createCheckout(checkoutInput({ locale: 'lv', description: 'Dzeramnauda: Anna' }));
    expect(posts('/v1/checkout/sessions')[0]!.body.get('locale')).toBe('lv');
    expect(fake.sessions.get(result.provider_ref)).toMatchObject({ locale: 'lv' });
    await expect(
      provider.createCheckout(checkoutInput({ locale: 'xx' as Locale, idempotency_key: 'tip:card_1:key-0002' })),
    ).rejects.toThrow(/Invalid locale/);
  });

  it('sends the parameters of the first attempt when the same payment is retried minutes later, so Stripe replays that session', async () => {
    const input = checkoutInput({ created_at: new Date(Date.now() - 20 * 60_000) });
    const first = await provider.createCheckout(input);
    const second = await provider.createCheckout(input);

    const [a, b] = posts('/v1/checkout/sessions');
    expect(b!.body.toString()).toBe(a!.body.toString());
    expect(second).toEqual(first);
    expect(fake.sessions.size).toBe(1);
  });

  it('surfaces Stripe refusing an idempotency key reused with other parameters', async () => {
    await provider.createCheckout(checkoutInput());
    const error = await provider.createCheckout(checkoutInput({ amount_cents: 2000 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });
});

describe('parseWebhook: checkout events', () => {
  it("maps a paid checkout.session.completed to payment.succeeded, naming the payer by the card of its payment intent's charge", async () => {
    const session = await paidCheckout();
    fake.requests.length = 0;

    await expect(parse('checkout.session.completed', session, { id: 'evt_paid', created: 1_760_000_000 })).resolves.toEqual({
      id: 'evt_paid',
      type: 'payment.succeeded',
      provider_ref: session.id,
      payment_id: PAYMENT_ID,
      amount_cents: 1500,
      payer_ref: fake.chargeOf(session.id).payment_method_details!.card!.fingerprint,
      // The card's brand and last digits, for the payer's receipt (docs/decisions/0042).
      card: { brand: 'visa', last4: '4242' },
      currency: 'EUR',
      created_at: 1_760_000_000_000,
    });
    // The session names its payment intent by id only: one call reads the intent with its charge.
    expect(fake.requests.map((request) => [request.method, request.path, request.query.get('expand[0]')])).toEqual([
      ['GET', `/v1/payment_intents/${session.payment_intent}`, 'latest_charge'],
    ]);
  });

  it('ignores a completed session still processing an async payment; async_payment_succeeded then credits it', async () => {
    const { provider_ref } = await provider.createCheckout(checkoutInput());
    const processing = fake.completeCheckout(provider_ref, 'unpaid');

    await expect(parse('checkout.session.completed', processing)).resolves.toMatchObject({
      type: 'ignored',
      provider_ref,
      payment_id: PAYMENT_ID,
      amount_cents: 0,
    });
    await expect(
      parse('checkout.session.async_payment_succeeded', { ...processing, payment_status: 'paid' }),
    ).resolves.toMatchObject({
      type: 'payment.succeeded',
      amount_cents: 1500,
    });
    fake.failAsyncPayment(provider_ref);
    await expect(parse('checkout.session.async_payment_failed', processing)).resolves.toMatchObject({
      type: 'payment.failed',
      payment_id: PAYMENT_ID,
      amount_cents: 0,
    });
  });

  it('maps checkout.session.expired to payment.canceled', async () => {
    const { provider_ref } = await provider.createCheckout(checkoutInput());
    await expect(parse('checkout.session.expired', fake.expireCheckout(provider_ref))).resolves.toMatchObject({
      type: 'payment.canceled',
      provider_ref,
      payment_id: PAYMENT_ID,
      amount_cents: 0,
    });
  });

  it('accepts the signature header under any casing', async () => {
    const { body, headers } = signedEvent('checkout.session.completed', await paidCheckout(), WEBHOOK_SECRET);
    await expect(provider.parseWebhook(body, { 'Stripe-Signature': headers['stripe-signature'] })).resolves.toMatchObject({
      type: 'payment.succeeded',
    });
  });
});

describe('parseWebhook: refunds and disputes', () => {
  it('answers the charge’s cumulative refunded total, whatever the order the refund events arrive in', async () => {
    const session = await paidCheckout();
    await provider.refund(session.id, 500, 'refund-1');
    const afterFirst = fake.chargeOf(session.id);
    await provider.refund(session.id, 300, 'refund-2');
    const afterSecond = fake.chargeOf(session.id);

    await expect(parse('charge.refunded', afterSecond, { id: 'evt_refund_2' })).resolves.toMatchObject({
      id: 'evt_refund_2',
      type: 'payment.refunded',
      provider_ref: session.id,
      payment_id: PAYMENT_ID,
      amount_cents: 800,
      currency: 'EUR',
    });
    await expect(parse('charge.refunded', afterFirst)).resolves.toMatchObject({ type: 'payment.refunded', amount_cents: 500 });
  });

  it('maps a dispute to payment.chargeback and a won one to payment.reinstated, naming the dispute; a lost one is ignored', async () => {
    const session = await paidCheckout();
    const dispute = fake.openDispute(session.id, { amount: 1200 });
    const expected = {
      provider_ref: session.id,
      payment_id: PAYMENT_ID,
      amount_cents: 1200,
      dispute_ref: dispute.id,
      currency: 'EUR',
    };

    await expect(parse('charge.dispute.created', dispute)).resolves.toMatchObject({ type: 'payment.chargeback', ...expected });
    await expect(parse('charge.dispute.funds_withdrawn', dispute)).resolves.toMatchObject({
      type: 'payment.chargeback',
      ...expected,
    });
    await expect(parse('charge.dispute.funds_reinstated', dispute)).resolves.toMatchObject({
      type: 'payment.reinstated',
      ...expected,
    });
    await expect(parse('charge.dispute.closed', fake.closeDispute(dispute.id, 'won'))).resolves.toMatchObject({
      type: 'payment.reinstated',
      ...expected,
    });
    await expect(parse('charge.dispute.closed', fake.closeDispute(dispute.id, 'lost'))).resolves.toMatchObject({
      type: 'ignored',
    });
  });

  it('ignores an inquiry, which withdraws no funds', async () => {
    const inquiry = fake.openDispute((await paidCheckout()).id, { inquiry: true });
    await expect(parse('charge.dispute.created', inquiry)).resolves.toMatchObject({ type: 'ignored', amount_cents: 0 });
  });

  it('looks the charge up when a dispute does not name its payment intent', async () => {
    const session = await paidCheckout();
    const dispute = { ...fake.openDispute(session.id), payment_intent: null };
    fake.requests.length = 0;

    await expect(parse('charge.dispute.created', dispute)).resolves.toMatchObject({
      type: 'payment.chargeback',
      provider_ref: session.id,
    });
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v1/charges/${dispute.charge as string}`,
      'GET /v1/checkout/sessions',
    ]);
  });

  it('ignores a refund of a charge that did not come from our Checkout', async () => {
    const charge = fake.chargeOf((await paidCheckout()).id);
    await expect(
      parse('charge.refunded', { ...charge, payment_intent: 'pi_elsewhere', amount_refunded: 100 }),
    ).resolves.toMatchObject({ type: 'ignored' });
  });
});

describe('parseWebhook: events we do not act on', () => {
  it.each([
    ['payment_intent.succeeded', { id: 'pi_1', object: 'payment_intent', status: 'succeeded', metadata: {} }],
    ['charge.succeeded', { id: 'ch_1', object: 'charge', amount: 1500, metadata: {} }],
    ['customer.created', { id: 'cus_1', object: 'customer' }],
    ['charge.refunded', { id: 'ch_1', object: 'charge', amount_refunded: 'lots', payment_intent: 'pi_1' }],
    ['charge.dispute.created', { id: 'du_1', object: 'dispute' }],
    [
      'checkout.session.completed',
      { id: 'cs_1', object: 'checkout.session', payment_status: 'paid', amount_total: null, metadata: {} },
    ],
  ])('answers a verified %s (here %j) as ignored', async (type, object) => {
    await expect(parse(type, object, { id: 'evt_other' })).resolves.toMatchObject({
      id: 'evt_other',
      type: 'ignored',
      amount_cents: 0,
    });
  });

  it('fails instead when Stripe cannot be asked, so that Stripe delivers the event again', async () => {
    const session = await paidCheckout();
    const { body, headers } = signedEvent(
      'charge.refunded',
      { ...fake.chargeOf(session.id), amount_refunded: 100 },
      WEBHOOK_SECRET,
    );
    await expect(providerWith('sk_live_not_for_the_fake').parseWebhook(body, headers)).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
  });
});

describe('parseWebhook: forged, altered and stale events', () => {
  const session = {
    id: 'cs_test_paid',
    object: 'checkout.session',
    payment_status: 'paid',
    amount_total: 1500,
    currency: 'eur',
    metadata: { payment_id: PAYMENT_ID },
  };
  const verify = (options: Parameters<typeof signedEvent>[3] & { secret?: string }, alter = (body: Buffer) => body) => {
    const { body, headers } = signedEvent('checkout.session.completed', session, options.secret ?? WEBHOOK_SECRET, options);
    return provider.parseWebhook(alter(body), headers);
  };

  it('refuses a signature made with another secret', async () => {
    await expect(verify({ secret: 'whsec_attacker' })).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('refuses a payload altered by one byte after signing', async () => {
    const alter = (body: Buffer) => {
      const altered = Buffer.from(body);
      altered[altered.indexOf('1500')] = '9'.charCodeAt(0);
      return altered;
    };
    await expect(verify({}, alter)).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('refuses a signature 10 minutes old and accepts one 4 minutes old (5 minute tolerance)', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verify({ timestamp: now - 10 * 60 })).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(verify({ timestamp: now - 4 * 60 })).resolves.toMatchObject({ type: 'payment.succeeded' });
  });

  it('refuses an event without a signature header, with several, or with garbage', async () => {
    const { body, headers } = signedEvent('checkout.session.completed', session, WEBHOOK_SECRET);
    const signature = headers['stripe-signature'];
    for (const bad of [
      {},
      { 'stripe-signature': '' },
      { 'stripe-signature': [signature, signature] },
      { 'stripe-signature': 't=1,v1=abc' },
    ]) {
      await expect(provider.parseWebhook(body, bad)).rejects.toBeInstanceOf(WebhookVerificationError);
    }
  });
});

describe('fetchStatus', () => {
  it('answers nothing while open, and the canceled event once expired', async () => {
    const { provider_ref } = await provider.createCheckout(checkoutInput());
    await expect(provider.fetchStatus(provider_ref)).resolves.toBeNull();

    fake.expireCheckout(provider_ref);
    await expect(provider.fetchStatus(provider_ref)).resolves.toMatchObject({
      id: `${provider_ref}:canceled`,
      type: 'payment.canceled',
      provider_ref,
      payment_id: PAYMENT_ID,
      amount_cents: 0,
    });
  });

  it('answers the succeeded event with a stable id, then the refunded one with the cumulative amount, in one call each', async () => {
    const session = await paidCheckout();
    fake.requests.length = 0;
    const succeeded = await provider.fetchStatus(session.id);
    expect(succeeded).toMatchObject({
      id: `${session.id}:succeeded`,
      type: 'payment.succeeded',
      payment_id: PAYMENT_ID,
      amount_cents: 1500,
      currency: 'EUR',
    });
    expect(fake.requests).toHaveLength(1);
    await expect(provider.fetchStatus(session.id)).resolves.toMatchObject({ id: succeeded!.id });

    await provider.refund(session.id, 400, 'refund-a');
    await expect(provider.fetchStatus(session.id)).resolves.toMatchObject({
      id: `${session.id}:refunded:400`,
      type: 'payment.refunded',
      amount_cents: 400,
    });
    await provider.refund(session.id, 400, 'refund-b');
    await expect(provider.fetchStatus(session.id)).resolves.toMatchObject({
      id: `${session.id}:refunded:800`,
      amount_cents: 800,
    });
  });

  it('names the payer of a succeeded payment by its charge’s card fingerprint, the same for the same card or wallet, webhook or not', async () => {
    const payerOf = async (cardNumber: string, wallet?: 'apple_pay' | 'google_pay') => {
      const { provider_ref } = await provider.createCheckout(checkoutInput({ idempotency_key: crypto.randomUUID() }));
      const session = fake.completeCheckout(provider_ref, 'paid', cardNumber, wallet);
      const card = fake.chargeOf(provider_ref).payment_method_details?.card;
      expect(card?.wallet?.type ?? null).toBe(wallet ?? null);
      const succeeded = await provider.fetchStatus(provider_ref);
      expect(succeeded?.payer_ref).toBe(card?.fingerprint);
      expect((await parse('checkout.session.completed', session)).payer_ref).toBe(card?.fingerprint);
      return succeeded?.payer_ref;
    };
    const first = await payerOf('4242424242424242');
    expect(first).toMatch(/^[\w-]{16}$/);
    expect(await payerOf('4242424242424242')).toBe(first);
    expect(await payerOf('5555555555554444')).not.toBe(first);
    const apple = await payerOf('4242424242424242', 'apple_pay');
    expect(apple).toMatch(/^[\w-]{16}$/);
    expect(await payerOf('4242424242424242', 'apple_pay')).toBe(apple);
    expect(new Set([first, apple, await payerOf('4242424242424242', 'google_pay')]).size).toBe(3);
  });

  it('names the payer of an off-session charge by its card, answered by the charge and by its webhook', async () => {
    const { provider_ref } = await provider.createCheckout(
      checkoutInput({ idempotency_key: crypto.randomUUID(), save_method_for: 'donor@example.lv' }),
    );
    const session = fake.completeCheckout(provider_ref, 'paid', '5555555555554444');
    const fingerprint = fake.chargeOf(provider_ref).payment_method_details!.card!.fingerprint;
    const saved = (await parse('checkout.session.completed', session)).saved!;
    expect(saved).toEqual({
      customer_ref: session.customer,
      method_ref: fake.paymentIntents.get(session.payment_intent as string)!.payment_method,
    });
    const charged = await provider.chargeSavedMethod({
      ...saved,
      amount_cents: 700,
      currency: 'EUR',
      description: 'Monthly',
      idempotency_key: crypto.randomUUID(),
      metadata: { payment_id: PAYMENT_ID },
    });
    expect(charged.event).toMatchObject({ type: 'payment.succeeded', amount_cents: 700, payer_ref: fingerprint });
    const intent = fake.paymentIntents.get(charged.provider_ref)!;
    expect(typeof intent.latest_charge).toBe('string');
    expect(await parse('payment_intent.succeeded', intent)).toMatchObject({ type: 'payment.succeeded', payer_ref: fingerprint });
  });

  it('answers nothing while an async payment processes and the failed event once it failed', async () => {
    const { provider_ref } = await provider.createCheckout(checkoutInput());
    fake.completeCheckout(provider_ref, 'unpaid');
    await expect(provider.fetchStatus(provider_ref)).resolves.toBeNull();

    fake.failAsyncPayment(provider_ref);
    await expect(provider.fetchStatus(provider_ref)).resolves.toMatchObject({
      id: `${provider_ref}:failed`,
      type: 'payment.failed',
      amount_cents: 0,
    });
  });

  it('surfaces Stripe API errors', async () => {
    await expect(provider.fetchStatus('cs_test_missing')).rejects.toThrow(/No such object/);
  });
});

describe('refund', () => {
  it('makes two refunds of the same amount under two refund keys, and one when the same refund is retried', async () => {
    const session = await paidCheckout();

    await provider.refund(session.id, 500, 'refund-1');
    await provider.refund(session.id, 500, 'refund-1');
    await provider.refund(session.id, 500, 'refund-2');

    expect(fake.refunds.size).toBe(2);
    expect(fake.chargeOf(session.id).amount_refunded).toBe(1000);
    const [first, retry, second] = posts('/v1/refunds');
    expect(first!.headers['idempotency-key']).toBe('tipcard-refund:refund-1');
    expect(retry!.headers['idempotency-key']).toBe('tipcard-refund:refund-1');
    expect(second!.headers['idempotency-key']).toBe('tipcard-refund:refund-2');
    expect(first!.body.get('payment_intent')).toBe(session.payment_intent);
    expect(first!.body.get('metadata[payment_id]')).toBe(PAYMENT_ID);
    expect(first!.body.get('metadata[refund_key]')).toBe('refund-1');
  });

  it('refuses to refund a session that has no payment, a non-positive amount or a refund without key', async () => {
    const { provider_ref } = await provider.createCheckout(checkoutInput());

    await expect(provider.refund(provider_ref, 500, 'refund-1')).rejects.toThrow(/no payment/);
    await expect(provider.refund(provider_ref, 0, 'refund-1')).rejects.toBeInstanceOf(RangeError);
    await expect(provider.refund(provider_ref, 500, '')).rejects.toBeInstanceOf(RangeError);
    expect(posts('/v1/refunds')).toHaveLength(0);
  });
});

describe('the fake refuses what Stripe refuses', () => {
  const call = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    fetch(`http://127.0.0.1:${fake.port}${path}`, {
      method: init.method ?? 'POST',
      headers: {
        authorization: `Bearer ${SECRET_KEY}`,
        'stripe-version': Stripe.API_VERSION,
        'content-type': 'application/x-www-form-urlencoded',
        ...init.headers,
      },
      ...(init.body !== undefined && { body: init.body }),
    }).then(async (response) => ({
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as { error?: Record<string, string> },
    }));
  const session =
    'mode=payment&line_items[0][quantity]=1&line_items[0][price_data][currency]=eur&line_items[0][price_data][unit_amount]=100&line_items[0][price_data][product_data][name]=Tip';

  it('requires a test secret key, the SDK’s Stripe-Version and a form-encoded body', async () => {
    await expect(call('/v1/checkout/sessions', { body: session, headers: { authorization: '' } })).resolves.toMatchObject({
      status: 401,
    });
    await expect(
      call('/v1/checkout/sessions', { body: session, headers: { authorization: 'Bearer sk_live_123' } }),
    ).resolves.toMatchObject({ status: 401 });
    await expect(
      call('/v1/checkout/sessions', { body: session, headers: { 'stripe-version': '2020-08-27' } }),
    ).resolves.toMatchObject({ status: 400 });
    await expect(
      call('/v1/checkout/sessions', { body: '{"mode":"payment"}', headers: { 'content-type': 'application/json' } }),
    ).resolves.toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_request_error' } },
    });
    await expect(call('/v1/checkout/sessions', { body: session })).resolves.toMatchObject({
      status: 200,
      body: { object: 'checkout.session' },
    });
  });

  it('refuses unknown and missing parameters the way Stripe words them', async () => {
    await expect(call('/v1/checkout/sessions', { body: `${session}&payment_method_types[0]=card` })).resolves.toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_request_error', code: 'parameter_unknown', param: 'payment_method_types' } },
    });
    await expect(
      call('/v1/checkout/sessions', { body: session.replace('&line_items[0][price_data][currency]=eur', '') }),
    ).resolves.toMatchObject({
      status: 400,
      body: { error: { code: 'parameter_missing', param: 'line_items[0][price_data][currency]' } },
    });
    await expect(call('/v1/refunds', { body: 'payment_intent=pi_1&amount=ten' })).resolves.toMatchObject({
      status: 400,
      body: { error: { code: 'parameter_invalid_integer', param: 'amount' } },
    });
    await expect(call('/v1/checkout/sessions/cs_x?expand[0]=line_items&bogus=1', { method: 'GET' })).resolves.toMatchObject({
      status: 400,
      body: { error: { code: 'parameter_unknown' } },
    });
  });

  it('replays an idempotent request with the same parameters and refuses the key with other ones', async () => {
    const headers = { 'idempotency-key': 'same-key' };
    const first = await call('/v1/checkout/sessions', { body: session, headers });
    const replay = await call('/v1/checkout/sessions', { body: session, headers });
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await expect(call('/v1/checkout/sessions', { body: session.replace('=100', '=200'), headers })).resolves.toMatchObject({
      status: 400,
      body: { error: { type: 'idempotency_error' } },
    });
  });
});
