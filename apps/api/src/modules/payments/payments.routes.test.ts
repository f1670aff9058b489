import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SIGNATURE_HEADER } from '../../integrations/sandbox-psp/sandbox-provider.ts';
import { sandboxRefOf, sandboxSigner } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';

let t: TestApp;
let sign: (body: string, timestampSeconds?: number) => string;
beforeAll(async () => {
  t = await createTestApp({ env: { SANDBOX_WEBHOOK_DELAY_MS: '0', HOLD_HOURS: '24' } });
  sign = sandboxSigner(t).signEvent;
});
afterAll(() => t.close());

const staffWithCard = () => signUpWithCard(t);

const pay = (cardId: string, payload: object, key: string | null = crypto.randomUUID(), ip = '10.1.0.1') =>
  t.call({
    method: 'POST',
    url: `/api/public/cards/${cardId}/payments`,
    payload,
    headers: key ? { 'idempotency-key': key } : {},
    remoteAddress: ip,
  });
const tipBody = { amount_cents: 500, cover_fee: false, terms_accepted: true };
const balances = async (user: { jwt: string; clientId: string }) =>
  Object.fromEntries(
    (
      await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/account`, token: user.jwt })
    ).body.data.account_balances.map((b: { type: string; balance: number }) => [b.type, b.balance]),
  );

/** The hosted checkout's path and query, for inject. */
const checkoutPath = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** The payment as its guest's return page reads it, once the workers have applied what the webhook recorded. */
async function publicPaymentAfterWorkers(paymentId: string) {
  await t.runJob('payments.apply-events');
  return t.call({ method: 'GET', url: `/api/public/payments/${paymentId}` });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not reached');
}

describe('the guest API', () => {
  it('shows a card to guests without personal data, and 404 for an unknown one', async () => {
    const staff = await staffWithCard();
    const card = await t.call({ method: 'GET', url: `/api/public/cards/${staff.cardId}` });
    expect(card.body.data).toMatchObject({
      public_name: 'Anna',
      fee_percent: 5,
      min_amount_cents: 100,
      max_amount_cents: 50_000,
      preset_amounts_cents: [300, 500, 1000, 2000],
    });
    expect(JSON.stringify(card.body)).not.toContain(staff.phone);
    expect((await t.call({ method: 'GET', url: `/api/public/cards/${crypto.randomUUID()}` })).status).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/public/cards/nope' })).status).toBe(404);
  });

  it("refuses bad payments with the spec's messages and stores nothing", async () => {
    const staff = await staffWithCard();
    const tooSmall = await pay(staff.cardId, { ...tipBody, amount_cents: 99 });
    expect(tooSmall).toMatchObject({
      status: 422,
      body: { validation_errors: { amount_cents: ['Enter an amount from €1.00 to €500.00'] } },
    });
    expect((await pay(staff.cardId, { ...tipBody, amount_cents: 50_001 })).body.errors).toEqual([
      'Enter an amount from €1.00 to €500.00',
    ]);
    expect((await pay(staff.cardId, { ...tipBody, amount_cents: 12.5 })).status).toBe(422);
    expect((await pay(staff.cardId, { ...tipBody, terms_accepted: false })).body.validation_errors).toHaveProperty(
      'terms_accepted',
    );
    expect((await pay(staff.cardId, { ...tipBody, rating: 6 })).status).toBe(422);
    expect((await pay(staff.cardId, { ...tipBody, message: 'x'.repeat(256) })).status).toBe(422);
    expect((await pay(staff.cardId, tipBody, null)).body.validation_errors).toHaveProperty('idempotency-key');
    expect((await pay(crypto.randomUUID(), tipBody)).status).toBe(404);
    const { body } = await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/transactions`, token: staff.jwt });
    expect(body.data.items).toEqual([]);
  });

  it('answers a repeated Idempotency-Key with the same payment, and another body under it with 422', async () => {
    const staff = await staffWithCard();
    const key = crypto.randomUUID();
    const first = await pay(staff.cardId, tipBody, key);
    const again = await pay(staff.cardId, tipBody, key);
    expect(first.status).toBe(201);
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
    expect((await pay(staff.cardId, { ...tipBody, amount_cents: 700 }, key)).body.code).toBe('idempotency_key_reused');
  });

  it('rate-limits payment creation per IP', async () => {
    const staff = await staffWithCard();
    const statuses = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await pay(staff.cardId, tipBody, crypto.randomUUID(), '10.9.9.9')).status);
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('the anti-bot check', () => {
  it('guards payment creation when a verifier is configured', async () => {
    const guarded = await createTestApp({ overrides: { humanVerifier: { verify: async (token) => token === 'human' } } });
    try {
      const owner = await signUpWithCard(guarded);
      const attempt = (headers: Record<string, string>) =>
        guarded.call({
          method: 'POST',
          url: `/api/public/cards/${owner.cardId}/payments`,
          headers: { 'idempotency-key': crypto.randomUUID(), ...headers },
          payload: tipBody,
        });
      expect((await attempt({})).body.code).toBe('bot_check_failed');
      expect((await attempt({ 'cf-turnstile-response': 'robot' })).body.code).toBe('bot_check_failed');
      expect((await attempt({ 'cf-turnstile-response': 'human' })).status).toBe(201);
    } finally {
      await guarded.close();
    }
  });
});

describe('the sandbox checkout', () => {
  it('takes a guest from checkout to a credited tip: card, then Apple Pay', async () => {
    const staff = await staffWithCard();
    for (const form of ['method=card&card_number=4242+4242+4242+4242&expiry=12%2F34&cvc=123', 'method=apple_pay']) {
      const payment = (await pay(staff.cardId, tipBody)).body.data;
      const path = checkoutPath(payment.checkout_url);
      const page = await t.call({ method: 'GET', url: path });
      expect(page.status).toBe(200);
      expect(page.body).toContain('Pay with Apple Pay');
      expect(page.body).toContain('€5.00');
      const paid = await t.call({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form,
      });
      expect(paid.status).toBe(303);
      expect(paid.headers.location).toBe(`${t.app.config.publicUrl}/en/payment/walletto-result?payment=${payment.id}`);
      await until(
        () => publicPaymentAfterWorkers(payment.id),
        (r) => r.body.data.status === 'succeeded',
      );
    }
    expect(await balances(staff)).toEqual({ main: 0, hold: 950 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('reports a declined card as failed and a cancel as canceled, crediting nothing', async () => {
    const staff = await staffWithCard();
    const declined = (await pay(staff.cardId, tipBody)).body.data;
    const declinedPath = checkoutPath(declined.checkout_url);
    await t.call({
      method: 'POST',
      url: declinedPath,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'method=card&card_number=4000000000000002',
    });
    await until(
      () => publicPaymentAfterWorkers(declined.id),
      (r) => r.body.data.status === 'failed',
    );
    const canceled = (await pay(staff.cardId, tipBody)).body.data;
    const back = await t.call({
      method: 'POST',
      url: checkoutPath(canceled.checkout_url).replace('/checkout?', '/checkout/cancel?'),
    });
    expect(back.headers.location).toBe(`${t.app.config.publicUrl}/en/payment/${staff.cardId}/canceled?payment=${canceled.id}`);
    await until(
      () => publicPaymentAfterWorkers(canceled.id),
      (r) => r.body.data.status === 'canceled',
    );
    expect(await balances(staff)).toEqual({ main: 0, hold: 0 });
  });

  it('leaves a timed-out payment pending and refuses a forged checkout link', async () => {
    const staff = await staffWithCard();
    const payment = (await pay(staff.cardId, tipBody)).body.data;
    const path = checkoutPath(payment.checkout_url);
    await t.call({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'method=card&card_number=4000000000000119',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await t.call({ method: 'GET', url: `/api/public/payments/${payment.id}` })).body.data.status).toBe('pending');
    // One hex digit of the signature changed (always to another digit: a fixed replacement would sometimes be the same).
    const forged = `${path.slice(0, -1)}${path.endsWith('0') ? '1' : '0'}`;
    expect((await t.call({ method: 'GET', url: forged })).status).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/sandbox/checkout?c=eyJmb3JnZWQiOnRydWV9.abc' })).status).toBe(404);
  });
});

describe('webhooks', () => {
  async function succeededEvent() {
    const staff = await staffWithCard();
    const payment = (await pay(staff.cardId, { ...tipBody, cover_fee: true })).body.data;
    const checkoutRef = sandboxRefOf(payment);
    const body = JSON.stringify({
      id: `evt_${crypto.randomUUID()}`,
      type: 'payment.succeeded',
      provider_ref: checkoutRef,
      payment_id: payment.id,
      amount_cents: payment.total_cents,
      currency: 'EUR',
      created_at: t.clock.now().getTime(),
    });
    return { staff, payment, body };
  }
  const deliver = (body: string, signature: string) =>
    t.call({
      method: 'POST',
      url: '/api/webhooks/sandbox',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
      payload: body,
    });

  it('apply a signed event once, whether it arrives 1,000 times in a row or 50 at once', async () => {
    const { staff, body } = await succeededEvent();
    const signature = sign(body);
    const outcomes: string[] = [];
    for (let i = 0; i < 1_000; i += 1) outcomes.push((await deliver(body, signature)).body.data.outcome);
    const burst = await Promise.all(Array.from({ length: 50 }, () => deliver(body, signature)));
    outcomes.push(...burst.map((r) => r.body.data.outcome));
    expect(outcomes.filter((o) => o === 'recorded')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(1_049);
    // Recorded, not applied yet: the workers credit it (decision 0060), once however often they look.
    expect(await balances(staff)).toEqual({ main: 0, hold: 0 });
    expect(await t.runJob('payments.apply-events')).toBe(1);
    expect(await t.runJob('payments.apply-events')).toBe(0);
    expect(await balances(staff)).toEqual({ main: 0, hold: 500 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  }, 180_000);

  it('refuse a bad signature, a stale timestamp or a body changed by one byte, with no effect', async () => {
    const { staff, body } = await succeededEvent();
    const signature = sign(body);
    const changed = body.replace('"amount_cents":525', '"amount_cents":526');
    expect(changed).not.toBe(body);
    for (const [payload, header] of [
      [body, signature.replace(/v1=./, (m) => (m.endsWith('0') ? 'v1=1' : 'v1=0'))],
      [body, sign(body, Math.floor(t.clock.now().getTime() / 1000) - 301)],
      [changed, signature],
      [body, ''],
    ] as const) {
      const response = await deliver(payload, header);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_webhook');
    }
    expect(await t.runJob('payments.apply-events')).toBe(0);
    expect(await balances(staff)).toEqual({ main: 0, hold: 0 });
  });
});
