import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPayment, payAtSandboxCheckout, sandboxRefOf, sandboxSigner } from '../../test/sandbox-events.ts';
import { createTestApp, createTestClock, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import fc from 'fast-check';
import { cardProblem } from './sandbox-checkout.routes.ts';
import { createSandboxProvider, SANDBOX_TEST_CARDS } from './sandbox-provider.ts';
import { eventsOf } from './sandbox.repository.ts';

/**
 * Events fall due 10 s after the guest pays. Test clocks stand still, so the app's own sender never finds them due;
 * each test runs the delivery job itself with an explicit `now`, within the webhook's 5-minute signature tolerance.
 */
const DELAY_MS = 10_000;
const env = { SANDBOX_WEBHOOK_DELAY_MS: String(DELAY_MS), HOLD_HOURS: '24' };

const balances = async (t: TestApp, user: { jwt: string; clientId: string }) =>
  Object.fromEntries(
    (
      await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/account`, token: user.jwt })
    ).body.data.account_balances.map((b: { type: string; balance: number }) => [b.type, b.balance]),
  );
const statusOf = async (t: TestApp, paymentId: string) =>
  (await t.call({ method: 'GET', url: `/api/public/payments/${paymentId}` })).body.data.status;
const after = (t: TestApp, ms: number) => new Date(t.clock.now().getTime() + ms);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env });
});
afterAll(() => t.close());

describe('sandbox webhook delivery', () => {
  it('sends an event written before a restart once the new process runs the job, crediting it once', async () => {
    const database = await createTestDatabase();
    try {
      const before = await createTestApp({ env, overrides: { database } });
      const staff = await signUpWithCard(before);
      const payment = await openPayment(before, staff.cardId, 500);
      await payAtSandboxCheckout(before, payment);
      await before.close(); // the process stops before the delivery was due

      const restarted = await createTestApp({ env, overrides: { database } });
      try {
        expect(await statusOf(restarted, payment.id)).toBe('pending');
        const [job] = restarted.app.services.sandboxJobs;
        expect(await job!.runOne(after(restarted, DELAY_MS - 1))).toBe(false);
        expect(await job!.runOne(after(restarted, DELAY_MS))).toBe(true);
        expect(await job!.runOne(after(restarted, DELAY_MS))).toBe(false);
        expect(await restarted.runJob('payments.apply-events')).toBe(1);
        expect(await statusOf(restarted, payment.id)).toBe('succeeded');
        expect(await balances(restarted, staff)).toEqual({ main: 0, hold: payment.amount_cents - payment.fee_cents });
      } finally {
        await restarted.close();
      }
    } finally {
      await database.close();
    }
  });

  it('retries attempts that never reach us with growing waits and delivers on the 4th', async () => {
    const failing = await createTestApp({ env: { ...env, SANDBOX_WEBHOOK_FAIL_FIRST: '3' } });
    try {
      const staff = await signUpWithCard(failing);
      const payment = await openPayment(failing, staff.cardId, 500);
      await payAtSandboxCheckout(failing, payment);
      const [job] = failing.app.services.sandboxJobs;
      const [row] = await eventsOf(failing.app.db, sandboxRefOf(payment));
      expect(row).toMatchObject({ attempts: 0, dueAt: after(failing, DELAY_MS) });

      let now = after(failing, DELAY_MS);
      for (const [attempt, wait] of [
        [1, 500],
        [2, 1_000],
        [3, 2_000],
      ] as const) {
        expect(await job!.runOne(now)).toBe(true);
        const [failed] = await eventsOf(failing.app.db, sandboxRefOf(payment));
        expect(failed).toMatchObject({
          attempts: attempt,
          deliveredAt: null,
          lastStatus: null,
          dueAt: new Date(now.getTime() + wait),
        });
        expect(failed!.lastError).toContain('SANDBOX_WEBHOOK_FAIL_FIRST');
        // Nothing reached the webhook route: the payment is still pending.
        expect(await statusOf(failing, payment.id)).toBe('pending');
        expect(await job!.runOne(new Date(now.getTime() + wait - 1))).toBe(false);
        now = new Date(now.getTime() + wait);
      }
      expect(await job!.runOne(now)).toBe(true);
      const [delivered] = await eventsOf(failing.app.db, sandboxRefOf(payment));
      expect(delivered).toMatchObject({ attempts: 4, deliveredAt: now, dueAt: null, lastStatus: 200, lastError: null });
      expect(await job!.runOne(after(failing, 86_400_000))).toBe(false);
      expect(await failing.runJob('payments.apply-events')).toBe(1);
      expect(await statusOf(failing, payment.id)).toBe('succeeded');
      expect(await balances(failing, staff)).toEqual({ main: 0, hold: payment.amount_cents - payment.fee_cents });
    } finally {
      await failing.close();
    }
  });

  it('sends each event once with two workers at it, and the "deliver twice" box sends its event twice', async () => {
    const staff = await signUpWithCard(t);
    const payments = [];
    for (let i = 0; i < 6; i += 1) {
      const payment = await openPayment(t, staff.cardId, 300 + 100 * i);
      await payAtSandboxCheckout(
        t,
        payment,
        i === 0 ? 'method=card&card_number=4242424242424242&deliver_twice=1' : 'method=apple_pay',
      );
      payments.push(payment);
    }
    const now = after(t, DELAY_MS);
    const drain = async (job: { runOne(now: Date): Promise<boolean | number> }) => {
      let sent = 0;
      while (await job.runOne(now)) sent += 1;
      return sent;
    };
    const [a, b] = await Promise.all([t.app.services.sandboxJobs, t.app.services.sandboxJobs].map(([job]) => drain(job!)));
    expect(a! + b!).toBe(7);

    const rows = (await Promise.all(payments.map((payment) => eventsOf(t.app.db, sandboxRefOf(payment))))).flat();
    expect(rows).toHaveLength(7);
    // Each row was claimed once, so sent once, and answered 2xx.
    expect(rows.every((row) => row.attempts === 1 && row.deliveredAt !== null && row.lastStatus === 200)).toBe(true);
    const twice = await eventsOf(t.app.db, sandboxRefOf(payments[0]!));
    expect(twice.map((row) => row.body)).toEqual([twice[0]!.body, twice[0]!.body]);
    // Seven deliveries, six events recorded: the second copy is answered as a duplicate.
    expect(await t.runJob('payments.apply-events')).toBe(6);
    for (const payment of payments) expect(await statusOf(t, payment.id)).toBe('succeeded');
    const nets = payments.reduce((sum, payment) => sum + payment.amount_cents - payment.fee_cents, 0);
    expect(await balances(t, staff)).toEqual({ main: 0, hold: nets });
  });
});

describe('the sandbox provider', () => {
  // Its own clock, so moving time here never makes the app's sender deliver these events.
  const clock = createTestClock();
  const provider = (secret = t.app.config.jwtSecret) =>
    createSandboxProvider({ db: t.app.db, clock, publicUrl: t.app.config.publicUrl, secret, deliveryDelayMs: DELAY_MS });
  const checkout = async (sandbox = provider()) => {
    const paymentId = crypto.randomUUID();
    const { checkout_url: url, provider_ref: ref } = await sandbox.createCheckout({
      purpose: 'tip',
      locale: 'en',
      amount_cents: 1_000,
      currency: 'EUR',
      created_at: clock.now(),
      description: 'Tip for Anna',
      success_url: 'https://example.test/ok',
      cancel_url: 'https://example.test/back',
      idempotency_key: crypto.randomUUID(),
      metadata: { payment_id: paymentId },
    });
    return { sandbox, ref, paymentId, page: sandbox.openCheckout(new URL(url).searchParams.get('c')!)! };
  };
  const bodies = async (ref: string) => (await eventsOf(t.app.db, ref)).map((row) => JSON.parse(row.body));

  it('answers fetchStatus with the event of the current state, under the id its webhook carries', async () => {
    const paid = await checkout();
    expect(await paid.sandbox.fetchStatus(paid.ref)).toBeNull();
    await paid.sandbox.complete(paid.page, 'succeeded', 'card', { cardNumber: '4242424242424242' });
    const succeeded = await paid.sandbox.fetchStatus(paid.ref);
    expect(succeeded).toEqual({
      id: `${paid.ref}:succeeded`,
      type: 'payment.succeeded',
      provider_ref: paid.ref,
      payment_id: paid.paymentId,
      amount_cents: 1_000,
      payer_ref: expect.stringMatching(/^sbx_payer_[0-9a-f]{32}$/),
      // What the payer's receipt names (docs/decisions/0042), as a provider's charge does.
      card: { brand: 'visa', last4: '4242' },
      currency: 'EUR',
      created_at: clock.now().getTime(),
    });
    expect(await bodies(paid.ref)).toEqual([succeeded]);
    // The page submitted again cannot change a settled charge, nor send another event.
    await paid.sandbox.complete(paid.page, 'canceled', 'none');
    expect((await paid.sandbox.fetchStatus(paid.ref))?.type).toBe('payment.succeeded');
    expect(await bodies(paid.ref)).toHaveLength(1);

    const declined = await checkout();
    await declined.sandbox.complete(declined.page, 'declined', 'card');
    expect(await declined.sandbox.fetchStatus(declined.ref)).toMatchObject({
      id: `${declined.ref}:failed`,
      type: 'payment.failed',
      amount_cents: 0,
    });
    const canceled = await checkout();
    await canceled.sandbox.complete(canceled.page, 'canceled', 'none');
    expect(await canceled.sandbox.fetchStatus(canceled.ref)).toMatchObject({
      id: `${canceled.ref}:canceled`,
      type: 'payment.canceled',
    });

    const timedOut = await checkout();
    await timedOut.sandbox.complete(timedOut.page, 'timeout', 'card');
    const untouched = await checkout();
    clock.advance(30 * 60_000 - 1);
    expect(await untouched.sandbox.fetchStatus(untouched.ref)).toBeNull();
    clock.advance(1);
    // A checkout nobody acted on lapses with its lifetime; a card that never answered stays pending.
    expect(await untouched.sandbox.fetchStatus(untouched.ref)).toEqual({
      id: `${untouched.ref}:canceled`,
      type: 'payment.canceled',
      provider_ref: untouched.ref,
      payment_id: untouched.paymentId,
      amount_cents: 0,
      currency: 'EUR',
      created_at: clock.now().getTime(),
    });
    expect(await timedOut.sandbox.fetchStatus(timedOut.ref)).toBeNull();
    expect(await bodies(timedOut.ref)).toEqual([]);
    expect(await provider().fetchStatus('sbx_unknown')).toBeNull();
  });

  it("names the payer by a keyed hash of the card or of the wallet's simulated payer, the same for the same one", async () => {
    const payerOf = async (
      method: string,
      options: { cardNumber?: string; walletPayer?: '1' | '2' | '3' } = {},
      sandbox = provider(),
    ) => {
      const paid = await checkout(sandbox);
      await paid.sandbox.complete(paid.page, 'succeeded', method, options);
      const [event] = await bodies(paid.ref);
      expect(await paid.sandbox.fetchStatus(paid.ref)).toEqual(event);
      return event.payer_ref as string | null;
    };
    const first = await payerOf('card', { cardNumber: '4242 4242 4242 4242' });
    expect(first).toMatch(/^sbx_payer_[0-9a-f]{32}$/);
    expect(first).not.toContain('4242');
    expect(await payerOf('card', { cardNumber: '4242424242424242' })).toBe(first);
    const other = await payerOf('card', { cardNumber: '5555555555554444' });
    expect(other).toMatch(/^sbx_payer_/);
    expect(other).not.toBe(first);
    // Another server secret gives other references: without the secret, hashing every card number finds nothing.
    expect(await payerOf('card', { cardNumber: '4242424242424242' }, provider('another-secret'))).not.toBe(first);
    // A wallet names its simulated payer (the first when the page posts none), the same one every time.
    const apple = await payerOf('apple_pay');
    expect(apple).toMatch(/^sbx_payer_[0-9a-f]{32}$/);
    expect(await payerOf('apple_pay', { walletPayer: '1' })).toBe(apple);
    const wallets = [
      apple,
      await payerOf('apple_pay', { walletPayer: '2' }),
      await payerOf('google_pay'),
      await payerOf('google_pay', { walletPayer: '3' }),
    ];
    expect(new Set([...wallets, first, other]).size).toBe(6);
  });

  it('refunds once per refund key and reports the refunded total', async () => {
    const { sandbox, ref, page } = await checkout();
    await expect(sandbox.refund(ref, 100, 'r1')).rejects.toThrow(/cannot be refunded/);
    await sandbox.complete(page, 'succeeded', 'google_pay');
    await sandbox.refund(ref, 300, 'r1');
    await sandbox.refund(ref, 300, 'r1'); // our retry of the same refund
    expect(await sandbox.fetchStatus(ref)).toMatchObject({
      id: `${ref}:refunded:300`,
      type: 'payment.refunded',
      amount_cents: 300,
    });
    await sandbox.refund(ref, 300, 'r2');
    await expect(sandbox.refund(ref, 401, 'r3')).rejects.toBeInstanceOf(RangeError);
    await sandbox.refund(ref, 400, 'r3');
    expect(await sandbox.fetchStatus(ref)).toMatchObject({ id: `${ref}:refunded:1000`, amount_cents: 1_000 });
    const refunds = (await bodies(ref)).filter((event) => event.type === 'payment.refunded');
    expect(refunds.map((event) => [event.id, event.amount_cents])).toEqual([
      [`${ref}:refunded:300`, 300],
      [`${ref}:refunded:600`, 600],
      [`${ref}:refunded:1000`, 1_000],
    ]);
  });
});

describe('refunding a payment from our side', () => {
  /** A paid 10 EUR tip, credited at once by asking the sandbox (as the return page does), so hold has 950. */
  async function paidTip() {
    const staff = await signUpWithCard(t);
    const payment = await openPayment(t, staff.cardId, 1_000);
    await payAtSandboxCheckout(t, payment);
    await t.app.services.payments.applyEvent('sandbox', (await sandboxSigner(t).fetchStatus(sandboxRefOf(payment)))!);
    expect(await balances(t, staff)).toEqual({ main: 0, hold: 950 });
    return { staff, payment };
  }
  const refund = (paymentId: string, cents: number, key: string) =>
    t.app.services.payments.refundPayment(paymentId, cents, key).then(
      (answer) => answer.status,
      (error: { code?: string }) => error.code,
    );

  it('refunds once for 20 concurrent calls with one refund key, and the books follow without waiting for the webhook', async () => {
    const { staff, payment } = await paidTip();
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(payment.id, 400, 'support-1')));
    expect(new Set(answers)).toEqual(new Set(['succeeded']));
    // 400 of 1,000 back: the share gives up 40%, 380 of its 950.
    expect(await balances(t, staff)).toEqual({ main: 0, hold: 570 });
  });

  it('answers a retry under the same key as done once its refund is in the books, and refuses another key', async () => {
    // A caller that crashed after the provider refunded retries with the key; the books already show the refund.
    const { staff, payment } = await paidTip();
    expect(await refund(payment.id, 1_000, 'whole')).toBe('refunded');
    expect(await refund(payment.id, 1_000, 'whole')).toBe('refunded');
    expect(await refund(payment.id, 1_000, 'another')).toBe('refund_too_large');
    expect(await balances(t, staff)).toEqual({ main: 0, hold: 0 });
  });

  it('lets only what is left be refunded when two refunds race, and refuses what cannot be refunded', async () => {
    const { staff, payment } = await paidTip();
    const answers = await Promise.all([refund(payment.id, 700, 'a'), refund(payment.id, 700, 'b')]);
    expect(answers.sort()).toEqual(['refund_too_large', 'succeeded']);
    expect(await balances(t, staff)).toEqual({ main: 0, hold: 285 });
    expect(await refund(payment.id, 301, 'c')).toBe('refund_too_large');
    expect(await refund(payment.id, 300, 'c')).toBe('refunded');
    expect(await balances(t, staff)).toEqual({ main: 0, hold: 0 });
    expect(await refund(payment.id, 1, 'd')).toBe('refund_too_large');
    const unpaid = await openPayment(t, staff.cardId, 500);
    expect(await refund(unpaid.id, 100, 'e')).toBe('payment_not_refundable');
    expect(await refund(crypto.randomUUID(), 100, 'f')).toBe('not_found');
  });
});

describe('sandbox checkout attempts', () => {
  it("shows its hosted page in the language the checkout was opened in, as Stripe Checkout's locale, whatever the browser says", async () => {
    const staff = await signUpWithCard(t);
    const open = async (language: string) => {
      const created = await t.call({
        method: 'POST',
        url: `/api/public/cards/${staff.cardId}/payments`,
        headers: { 'idempotency-key': crypto.randomUUID(), 'accept-language': language },
        payload: { amount_cents: 500, cover_fee: false, terms_accepted: true },
      });
      expect(created.status).toBe(201);
      const url = new URL(created.body.data.checkout_url);
      return `${url.pathname}${url.search}`;
    };
    const page = async (path: string) =>
      (await t.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'en', cookie: 'locale=es' } })).body;

    const english = await page(await open('en'));
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('<h1>Tip for Anna</h1>');
    expect(english).toContain('<label for="card_number">Card number</label>');
    expect(english).toContain('Pay €5.00</button>');
    const frenchPath = await open('fr-FR,fr;q=0.9');
    const french = await page(frenchPath);
    expect(french).toContain('<html lang="fr">');
    expect(french).toContain('<h1>Pourboire pour Anna</h1>');
    expect(french).toContain('<label for="card_number">Numéro de carte</label>');
    expect(french).toContain('Payer 5,00\u00A0€</button>');
    expect(french).toContain('Annuler et revenir</button>');
    expect(french).toContain('paiement refusé');
    const latvian = await page(await open('lv'));
    expect(latvian).toContain('<h1>Dzeramnauda: Anna</h1>');
    expect(latvian).toContain('Maksāt 5,00\u00A0€</button>');
    // The problem of a submission without a card number is in that language too.
    const refused = await t.app.inject({
      method: 'POST',
      url: frenchPath,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'method=card&card_number=',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('<p class="problem" id="problem" role="alert">Saisissez un numéro de carte.</p>');
  });

  it('counts attempts per visitor and checkout: one checkout is cut off after 30 a minute, the next checkout from the same address is not', async () => {
    const staff = await signUpWithCard(t);
    const pay = async (payment: { checkout_url: string }) => {
      const url = new URL(payment.checkout_url);
      const answer = await t.call({
        method: 'POST',
        url: `${url.pathname}${url.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'method=card&card_number=4000000000000002',
      });
      return answer.status;
    };
    const first = await openPayment(t, staff.cardId, 500);
    const answers = [];
    for (let attempt = 0; attempt < 31; attempt += 1) answers.push(await pay(first));
    expect(answers.slice(0, 30)).not.toContain(429);
    expect(answers[30]).toBe(429);
    expect(await pay(await openPayment(t, staff.cardId, 500))).toBe(303);
  });
});

describe('the hosted checkout checks a typed card before any attempt', () => {
  const now = new Date('2026-11-26T12:00:00Z');

  it("takes every documented test card, with any spacing, and a future or this month's expiry", () => {
    for (const number of Object.keys(SANDBOX_TEST_CARDS)) {
      expect(cardProblem({ digits: number, expiry: '12 / 34', cvc: '123' }, now)).toBeNull();
      expect(cardProblem({ digits: number, expiry: '11/26', cvc: '1234' }, now)).toBeNull();
      expect(cardProblem({ digits: number }, now)).toBeNull();
    }
  });

  it('refuses a number whose one digit was mistyped (the check digit catches every single-digit error)', () => {
    const numbers = Object.keys(SANDBOX_TEST_CARDS);
    fc.assert(
      fc.property(fc.constantFrom(...numbers), fc.nat(), fc.integer({ min: 1, max: 9 }), (number, position, shift) => {
        const at = position % number.length;
        const typo = `${number.slice(0, at)}${(Number(number[at]) + shift) % 10}${number.slice(at + 1)}`;
        expect(cardProblem({ digits: typo }, now)).toBe('invalid_number');
      }),
    );
  });

  it('refuses a short number, a month that does not exist, a past month and a CVC that is not 3–4 digits', () => {
    expect(cardProblem({ digits: '1234' }, now)).toBe('invalid_number');
    expect(cardProblem({ digits: '42424242424242424242' }, now)).toBe('invalid_number');
    expect(cardProblem({ digits: '4242424242424242', expiry: '1234' }, now)).toBeNull();
    expect(cardProblem({ digits: '4242424242424242', expiry: '13/34' }, now)).toBe('invalid_expiry');
    expect(cardProblem({ digits: '4242424242424242', expiry: 'soon' }, now)).toBe('invalid_expiry');
    expect(cardProblem({ digits: '4242424242424242', expiry: '10/26' }, now)).toBe('expired');
    expect(cardProblem({ digits: '4242424242424242', expiry: '12/25' }, now)).toBe('expired');
    expect(cardProblem({ digits: '4242424242424242', cvc: '12' }, now)).toBe('invalid_cvc');
    expect(cardProblem({ digits: '4242424242424242', cvc: '12a' }, now)).toBe('invalid_cvc');
  });

  it('answers a wrong card on the page (422, the field marked), charges nothing, and pays once it is corrected', async () => {
    const staff = await signUpWithCard(t);
    const payment = await openPayment(t, staff.cardId, 500);
    const url = new URL(payment.checkout_url);
    const submit = (form: string) =>
      t.app.inject({
        method: 'POST',
        url: `${url.pathname}${url.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form,
      });
    for (const [form, text] of [
      ['method=card&card_number=1234&expiry=12%2F34&cvc=123', 'Your card number is invalid. Check it and try again.'],
      ['method=card&card_number=4242+4242+4242+4241', 'Your card number is invalid. Check it and try again.'],
      [
        'method=card&card_number=4242424242424242&expiry=01%2F20&cvc=123',
        'Your card has expired. Check the date or use another card.',
      ],
      ['method=card&card_number=4242424242424242&expiry=12%2F34&cvc=1', 'Your card’s security code has 3 or 4 digits.'],
    ] as const) {
      const refused = await submit(form);
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain(`<p class="problem" id="problem" role="alert">${text}</p>`);
      expect(refused.body).toContain('aria-invalid="true" aria-describedby="problem"');
    }
    expect(await statusOf(t, payment.id)).toBe('pending');
    expect(await eventsOf(t.app.db, sandboxRefOf(payment))).toEqual([]);

    const paid = await submit('method=card&card_number=4242+4242+4242+4242&expiry=12+%2F+34&cvc=123');
    expect(paid.statusCode).toBe(303);
  });

  it('serves the script that groups the number as the guest types, from its own origin', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/api/sandbox/checkout.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(script.body).toContain("getElementById('card_number')");
  });
});
