import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../modules/ledger/ledger.service.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { FakeStripe } from './fake-stripe.ts';

const WEBHOOK_SECRET = 'whsec_tipcard_flow_secret';
const fake = new FakeStripe();
let t: TestApp;

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({
    env: {
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_tipcard_flow',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: `http://127.0.0.1:${fake.port}`,
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

/** Stripe's event for a paid Checkout Session, signed with the SDK's own test helper. */
function completed(session: Record<string, unknown>, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID()}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'checkout.session.completed',
    data: { object: { ...session, status: 'complete', payment_status: 'paid', payment_intent: 'pi_flow_1' } },
  });
  // The SDK checks the timestamp against the real clock, not the app's test clock.
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
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
    const session = [...fake.sessions.values()].at(-1)!;
    expect(session).toMatchObject({ amount_total: 1_050, currency: 'eur', client_reference_id: payment.id, metadata: { payment_id: payment.id } });

    const deliver = (event: { payload: string; signature: string }) =>
      t.call({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, payload: event.payload });
    const forged = await deliver(completed(session, 'whsec_someone_else'));
    expect(forged).toMatchObject({ status: 400, body: { code: 'invalid_webhook' } });

    const event = completed(session);
    expect((await deliver(event)).body.data.outcome).toBe('applied');
    expect((await deliver(event)).body.data.outcome).toBe('duplicate');
    const account = await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/account`, token: user.jwt });
    expect(account.body.data.account_balances).toEqual([
      { type: 'main', balance: 0 },
      { type: 'hold', balance: 1_000 },
    ]);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});
