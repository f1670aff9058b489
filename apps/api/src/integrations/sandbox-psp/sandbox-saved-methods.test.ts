import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { SandboxRefusal, type SandboxProvider } from './sandbox-provider.ts';

let t: TestApp;
let sandbox: SandboxProvider;
beforeAll(async () => {
  t = await createTestApp({ env: { SANDBOX_WEBHOOK_DELAY_MS: '60000' } });
  sandbox = t.app.services.sandbox!;
});
afterAll(() => t.close());

/** A checkout that saves the card, paid with `card`; answers the customer and method its success names. */
async function savedCard(card: string) {
  const paymentId = crypto.randomUUID();
  const { checkout_url: url } = await sandbox.createCheckout({
    purpose: 'donation',
    locale: 'en',
    amount_cents: 1_000,
    currency: 'EUR',
    description: 'Monthly donation',
    success_url: 'http://localhost/ok',
    cancel_url: 'http://localhost/no',
    idempotency_key: `checkout:${paymentId}`,
    created_at: t.clock.now(),
    metadata: { payment_id: paymentId },
    save_method_for: 'donor@example.lv',
  });
  const checkout = sandbox.openCheckout(new URL(url).searchParams.get('c')!)!;
  await sandbox.complete(checkout, 'succeeded', 'card', { cardNumber: card });
  const event = (await sandbox.fetchStatus(checkout.ref))!;
  expect(event.type).toBe('payment.succeeded');
  return event.saved!;
}

const charge = (saved: { customer_ref: string; method_ref: string }, key: string, amount = 1_000) =>
  sandbox.chargeSavedMethod({
    ...saved,
    amount_cents: amount,
    currency: 'EUR',
    description: 'Monthly donation',
    idempotency_key: key,
    metadata: { payment_id: `payment-${key}` },
  });

describe('the sandbox’s saved cards', () => {
  it('saves a card at a checkout that asks to, and charges it off-session with the outcome in its answer and its webhook', async () => {
    const saved = await savedCard('4242424242424242');
    expect(saved).toEqual({ customer_ref: expect.stringMatching(/^sbx_cus_/), method_ref: expect.stringMatching(/^sbx_pm_/) });
    const first = await charge(saved, 'k1');
    expect(first.event).toMatchObject({ type: 'payment.succeeded', amount_cents: 1_000, provider_ref: first.provider_ref });
    expect(await sandbox.fetchStatus(first.provider_ref)).toMatchObject({ id: first.event.id, type: 'payment.succeeded' });
  });

  it('refuses an unknown method, or a method with another customer, as Stripe does, charging nothing', async () => {
    const saved = await savedCard('4242424242424242');
    const other = await savedCard('5555555555554444');
    await expect(charge({ ...saved, method_ref: 'sbx_pm_nobody' }, 'k2')).rejects.toThrow(SandboxRefusal);
    await expect(charge({ customer_ref: other.customer_ref, method_ref: saved.method_ref }, 'k3')).rejects.toThrow(
      SandboxRefusal,
    );
    // Nothing was counted against the card: its next charge is still its first.
    const failing = await savedCard('4000000000009995');
    await expect(charge({ customer_ref: saved.customer_ref, method_ref: failing.method_ref }, 'k4')).rejects.toThrow(
      SandboxRefusal,
    );
    expect((await charge(failing, 'k5')).event.type).toBe('payment.failed');
  });

  it('honours idempotency keys: the same key answers the first charge, even at once; another amount under it is refused', async () => {
    const saved = await savedCard('4242424242424242');
    const answers = await Promise.all([charge(saved, 'same-key'), charge(saved, 'same-key'), charge(saved, 'same-key')]);
    expect(new Set(answers.map((answer) => answer.provider_ref)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.event.id)).size).toBe(1);
    await expect(charge(saved, 'same-key', 2_000)).rejects.toThrow(/Idempotency key reused/);
  });

  it('has a card that declines from its third off-session charge, and one that declines once and recovers', async () => {
    const failing = await savedCard('4000000000000341');
    const outcomes = [];
    for (const key of ['a', 'b', 'c', 'd']) outcomes.push((await charge(failing, `f-${key}`)).event.type);
    expect(outcomes).toEqual(['payment.succeeded', 'payment.succeeded', 'payment.failed', 'payment.failed']);
    const recovering = await savedCard('4000000000009995');
    const again = [];
    for (const key of ['a', 'b', 'c']) again.push((await charge(recovering, `r-${key}`)).event.type);
    expect(again).toEqual(['payment.failed', 'payment.succeeded', 'payment.succeeded']);
  });
});
