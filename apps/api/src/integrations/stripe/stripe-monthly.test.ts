import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationPlans, donations } from '../../db/schema/donations.ts';
import { systemClock } from '../../lib/clock.ts';
import { checkLedgerInvariants } from '../../modules/transactions/transactions.service.ts';
import { appliedOutcomeOf } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { FakeStripe, signedEvent } from './fake-stripe.ts';
import { createStripeProvider } from './stripe-provider.ts';

const WEBHOOK_SECRET = 'whsec_tipcard_monthly_secret';
const fake = new FakeStripe();
let t: TestApp;

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({
    env: {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_tipcard_monthly',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: `http://127.0.0.1:${fake.port}`,
      FEE_PERCENT: '5',
    },
    // Stripe (and the fake) check a checkout's expiry against the real clock; the charge job is given its time directly.
    overrides: { clock: systemClock },
  });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

/** Posts a Stripe event to the webhook route and applies it as the workers would; answers what it came to. */
const deliver = async (type: string, object: object) => {
  const { payload, headers } = signedEvent(type, object, WEBHOOK_SECRET);
  const recorded = await t.call({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', ...headers },
    payload,
  });
  expect(recorded.body.data.outcome).toBe('recorded');
  return appliedOutcomeOf(t, JSON.parse(payload).id, 'stripe');
};
const planOf = async (id: string) => (await t.app.db.select().from(donationPlans).where(eq(donationPlans.id, id)))[0]!;
const giftsOf = (planId: string) =>
  t.app.db.select().from(donations).where(eq(donations.planId, planId)).orderBy(donations.createdAt);
/** Runs the charge job as if its clock read a minute after `when`. */
const chargeJobAt = async (when: Date) => {
  const job = t.app.services.jobs.find((candidate) => candidate.name === 'donations.charge')!;
  while (await job.runOne(new Date(when.getTime() + 60_000)));
};

describe('monthly donations through Stripe', () => {
  it('saves the card with a customer at Checkout, then charges it off-session once per attempt, declines retried, refunds by payment intent', async () => {
    const charity = await signUpWithCard(t, { activity_type: 'DONATION', public_name: 'Patversme' });
    const started = await t.call({
      method: 'POST',
      url: `/api/public/cards/${charity.cardId}/donations`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: {
        donor_name: 'Jānis',
        email: 'janis@example.lv',
        donor_code: '010190-12345',
        amount_cents: 1_000,
        cover_fee: false,
        monthly: true,
        locale: 'lv',
        terms_accepted: true,
      },
    });
    expect(started.status).toBe(201);
    const sessionId = (started.body.data.checkout_url as string).split('/').at(-1)!;
    const sessionRequest = fake.requests.find(
      (request) => request.path === '/v1/checkout/sessions' && request.method === 'POST',
    )!;
    expect(sessionRequest.body.get('payment_intent_data[setup_future_usage]')).toBe('off_session');
    expect(sessionRequest.body.get('customer')).toMatch(/^cus_/);

    const session = fake.completeCheckout(sessionId);
    expect(await deliver('checkout.session.completed', session)).toBe('applied');
    const [first] = await t.app.db.select().from(donations).where(eq(donations.paymentId, started.body.data.id));
    const plan = await planOf(first!.planId!);
    expect(plan).toMatchObject({
      status: 'active',
      period: 1,
      provider: 'stripe',
      customerRef: sessionRequest.body.get('customer'),
    });
    expect(plan.methodRef).toBe(fake.paymentIntents.get(fake.sessions.get(sessionId)!.payment_intent as string)!.payment_method);

    await chargeJobAt(plan.nextChargeAt!);
    const intentRequests = () =>
      fake.requests.filter((request) => request.path === '/v1/payment_intents' && request.method === 'POST');
    expect(intentRequests()).toHaveLength(1);
    expect(Object.fromEntries(intentRequests()[0]!.body)).toMatchObject({
      off_session: 'true',
      confirm: 'true',
      customer: plan.customerRef,
      payment_method: plan.methodRef,
      amount: '1000',
    });
    expect(intentRequests()[0]!.headers['idempotency-key']).toMatch(/^tipcard-charge:charge:/);
    const month1 = (await giftsOf(plan.id)).find((gift) => gift.period === 1)!;
    expect(month1.status).toBe('succeeded');

    // Stripe's own event about the same charge changes nothing more.
    const intent = [...fake.paymentIntents.values()].find((candidate) => candidate.metadata.payment_id === month1.paymentId)!;
    expect(await deliver('payment_intent.succeeded', intent)).toBe('ignored');

    fake.decliningMethods.add(plan.methodRef!);
    const second = await planOf(plan.id);
    await chargeJobAt(second.nextChargeAt!);
    const declined = await planOf(plan.id);
    expect(declined).toMatchObject({ period: 2, failures: 1, status: 'active' });
    fake.decliningMethods.delete(plan.methodRef!);
    await chargeJobAt(declined.nextChargeAt!);
    expect(await planOf(plan.id)).toMatchObject({ period: 3, failures: 0 });
    expect((await giftsOf(plan.id)).map((gift) => [gift.period, gift.status])).toEqual([
      [0, 'succeeded'],
      [1, 'succeeded'],
      [2, 'failed'],
      [2, 'succeeded'],
    ]);

    await t.app.services.payments.refundPayment(month1.paymentId, 1_000, 'monthly-refund');
    expect((await giftsOf(plan.id)).find((gift) => gift.paymentId === month1.paymentId)!.status).toBe('refunded');
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('is refused by Stripe for an unknown customer or a card of another customer, charging nothing', async () => {
    const stripe = createStripeProvider({
      secretKey: 'sk_test_tipcard_monthly',
      webhookSecret: WEBHOOK_SECRET,
      clock: systemClock,
      apiHost: '127.0.0.1',
      apiPort: fake.port,
      apiProtocol: 'http',
    });
    const charge = (customer: string, method: string) =>
      stripe.chargeSavedMethod({
        customer_ref: customer,
        method_ref: method,
        amount_cents: 500,
        currency: 'EUR',
        description: 'x',
        idempotency_key: crypto.randomUUID(),
        metadata: { payment_id: crypto.randomUUID() },
      });
    await expect(charge('cus_nobody', 'pm_nobody')).rejects.toThrow(/No such customer/);
    const [someCustomer] = [...fake.customers.keys()];
    const [someMethod, saved] = [...fake.savedMethods.entries()][0]!;
    expect(saved.customer).toBe(someCustomer);
    await expect(charge(someCustomer!, 'pm_nobody')).rejects.toThrow(/No such payment_method/);
    const sdk = new Stripe('sk_test_tipcard_monthly', {
      host: '127.0.0.1',
      port: fake.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const other = await sdk.customers.create({ email: 'other@example.lv' });
    await expect(charge(other.id, someMethod)).rejects.toThrow(/does not belong/);
  });
});
