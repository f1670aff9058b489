import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tipBreakdown } from '@tipcard/shared/payments/fees';
import type { DatabaseHandle } from '../../db/client.ts';
import { primaryReads } from '../../db/read-replica.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { CARD_INPUT, createTestClock, type TestClock } from '../../test/test-app.ts';
import { createCardsService, type CardsService } from '../cards/cards.service.ts';
import { postEntry, userBalances } from '../ledger/ledger.service.ts';
import {
  checkLedgerInvariants,
  createTransactionsService,
  type TransactionsService,
} from '../transactions/transactions.service.ts';
import { monthlyDonationFigures } from '../donations/donations.service.ts';
import { createPublicCardCache, createTipHandler, createTipsService, type TipsService } from '../tips/tips.service.ts';
import { createSignedIds } from '../../lib/signed-id.ts';
import { createReceiptsService } from '../receipts/receipts.service.ts';
import { createMessagingService } from '../messaging/messaging.service.ts';
import { drainJob } from '../../test/jobs.ts';
import { createUserWithPrivateClient } from '../users/users.service.ts';
import type { PaymentProvider, ProviderEvent, ProviderEventType } from './payment-provider.ts';
import { createPaymentsService, type PaymentsService } from './payments.service.ts';
import { asc, count, eq } from 'drizzle-orm';
import { ledgerEntries, ledgerPostings } from '../../db/schema/ledger.ts';
import { paymentAllocations, payments as paymentsTable } from '../../db/schema/payments.ts';

const HOUR = 3_600_000;
let database: DatabaseHandle;
let clock: TestClock;
let payments: PaymentsService;
let tips: TipsService;
let transactions: TransactionsService;
let cards: CardsService;
let checkoutsOpened = 0;
const logged: string[] = [];

/** What the fake provider answers when asked about a checkout (fetchStatus), by provider reference. */
const providerView = new Map<string, ProviderEvent>();
let providerDown = false;
/** Every question the fake provider was asked. */
const asked: { ref: string; at: number }[] = [];

/** The provider is the edge: a fake that answers like one, so the service, ledger and database run for real. */
const fakeProvider: PaymentProvider = {
  name: 'sandbox',
  async createCheckout(input) {
    checkoutsOpened += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return {
      checkout_url: `https://psp.test/checkout/${input.metadata.payment_id}`,
      provider_ref: `ref_${input.metadata.payment_id}`,
    };
  },
  chargeSavedMethod: async () => {
    throw new Error('not used here');
  },
  parseWebhook: async () => {
    throw new Error('not used here');
  },
  fetchStatus: async (ref) => {
    asked.push({ ref, at: clock.now().getTime() });
    if (providerDown) throw new Error('provider unreachable');
    return providerView.get(ref) ?? null;
  },
  refund: async () => undefined,
};

/** These tests open many checkouts of one subject at one instant; card testing is tested through the API. */
const NO_VELOCITY_LIMIT = { perSubjectPer10Minutes: 1_000_000, failedPerSubjectPerHour: 1_000_000 };

beforeAll(async () => {
  database = await createTestDatabase();
  clock = createTestClock();
  payments = createPaymentsService({
    db: database.db,
    clock,
    velocity: NO_VELOCITY_LIMIT,
    log: pino({ level: 'error' }, { write: (line: string) => void logged.push(line) }),
    providers: { sandbox: fakeProvider },
    active: 'sandbox',
    publicUrl: 'http://localhost:3000',
    holdHours: 24,
    reconcileAfterMinutes: 5,
    batchSize: 100,
    handlers: [createTipHandler()],
  });
  tips = createTipsService({
    db: database.db,
    clock,
    messages: createMessagingService({ db: database.db, clock }),
    payments,
    receipts: createReceiptsService({
      db: database.db,
      clock,
      messages: createMessagingService({ db: database.db, clock }),
      links: createSignedIds('payment-receipt', 'a test secret of at least thirty-two characters'),
      publicUrl: 'http://localhost:3000',
      company: { name: undefined, registrationNumber: undefined, licence: undefined, address: undefined },
    }),
    publicUrl: 'http://localhost:3000',
    feePercent: 5,
    publicCards: createPublicCardCache({ db: database.db, listen: undefined, log: pino({ level: 'silent' }) }),
  });
  transactions = createTransactionsService({
    reads: primaryReads(database.db),
    clock,
    monthlyDonations: monthlyDonationFigures,
  });
  cards = createCardsService({ db: database.db, publicUrl: 'http://localhost:3000', sharing: async () => false });
});
afterAll(() => database.close());

let phoneCounter = 0;
async function newCard() {
  phoneCounter += 1;
  const { user, client } = await createUserWithPrivateClient(database.db, {
    phone: `+3712200${String(phoneCounter).padStart(4, '0')}`,
    promoSource: null,
    referralCode: null,
  });
  const card = await cards.create(user.id, client.id, CARD_INPUT);
  return { userId: user.id, clientId: client.id, cardId: card.id };
}

let eventCounter = 0;
function eventFor(
  payment: { id: string; total_cents: number },
  type: ProviderEventType,
  overrides: Partial<ProviderEvent> = {},
): ProviderEvent {
  eventCounter += 1;
  return {
    id: `evt_${eventCounter}`,
    type,
    provider_ref: `ref_${payment.id}`,
    payment_id: payment.id,
    amount_cents: payment.total_cents,
    currency: 'EUR',
    created_at: clock.now().getTime(),
    ...overrides,
  };
}

const tip = (
  cardId: string,
  amount = 500,
  extra: Partial<{ cover_fee: boolean; rating: number; message: string }> = {},
  key = crypto.randomUUID(),
) => tips.createTip(cardId, { amount_cents: amount, cover_fee: false, terms_accepted: true, ...extra }, key, 'en');

/** The release job, run until nothing more is due now. */
const settleDueShares = () => drainJob({ runOne: payments.releaseDueShares }, () => clock.now());

async function expectBooksBalanced() {
  expect(await checkLedgerInvariants(database.db)).toEqual([]);
}

describe('a guest tip', () => {
  it('credits hold with the tip less the fee, the platform with the fee, and records a PAYIN on HOLD', async () => {
    const { userId, clientId, cardId } = await newCard();
    const payment = await tip(cardId, 1_000, { rating: 5, message: 'Thank you!' });
    expect(payment).toMatchObject({
      status: 'pending',
      amount_cents: 1_000,
      fee_cents: 50,
      total_cents: 1_000,
      checkout_url: expect.stringContaining(payment.id),
    });
    expect(await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'))).toBe('applied');
    expect(await userBalances(database.db, userId)).toEqual({ main: 0, hold: 950, debt: 0 });
    const page = await transactions.list(userId, clientId, { limit: 20 });
    expect(page.items).toEqual([
      expect.objectContaining({
        type: 'PAYIN',
        status: 'HOLD',
        amount_cents: 950,
        fee_cents: 50,
        message: 'Thank you!',
        rating: 5,
      }),
    ]);
    expect((await tips.publicCard(cardId))?.rating).toBe(5);
    await expectBooksBalanced();
  });

  it('gives the staff member the whole tip when the guest covers the fee', async () => {
    const { userId, cardId } = await newCard();
    const payment = await tip(cardId, 500, { cover_fee: true });
    expect(payment).toMatchObject({ amount_cents: 500, fee_cents: 25, total_cents: 525 });
    await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'));
    expect((await userBalances(database.db, userId)).hold).toBe(500);
    await expectBooksBalanced();
  });

  it('moves from hold to main once the hold period is over, and not before', async () => {
    const { userId, clientId, cardId } = await newCard();
    const payment = await tip(cardId, 2_000);
    await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'));
    clock.advance(23 * HOUR);
    await settleDueShares();
    expect(await userBalances(database.db, userId)).toEqual({ main: 0, hold: 1_900, debt: 0 });
    clock.advance(HOUR + 1);
    expect(await settleDueShares()).toBeGreaterThanOrEqual(1);
    expect(await userBalances(database.db, userId)).toEqual({ main: 1_900, hold: 0, debt: 0 });
    const [item] = (await transactions.list(userId, clientId, { limit: 1 })).items;
    expect(item).toMatchObject({ status: 'PAID', settled_at: expect.any(String) });
    await expectBooksBalanced();
  });
});

describe('provider events', () => {
  it('credit exactly once when one event arrives 1,000 times in a row and then 50 times at once', async () => {
    const { userId, cardId } = await newCard();
    const payment = await tip(cardId, 700);
    const event = eventFor(payment, 'payment.succeeded');
    const outcomes: string[] = [];
    for (let i = 0; i < 1_000; i += 1) outcomes.push(await payments.applyEvent('sandbox', event));
    outcomes.push(...(await Promise.all(Array.from({ length: 50 }, () => payments.applyEvent('sandbox', event)))));
    expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(1_049);
    expect((await userBalances(database.db, userId)).hold).toBe(665);
    await expectBooksBalanced();
  }, 120_000);

  it('credit exactly once when two different success events of one payment race', async () => {
    const { userId, cardId } = await newCard();
    const payment = await tip(cardId, 300);
    const outcomes = await Promise.all(
      [eventFor(payment, 'payment.succeeded'), eventFor(payment, 'payment.succeeded')].map((e) =>
        payments.applyEvent('sandbox', e),
      ),
    );
    expect(outcomes.sort()).toEqual(['applied', 'ignored']);
    expect((await userBalances(database.db, userId)).hold).toBe(285);
  });

  it('credit nothing and log an error when amount, currency or reference do not match', async () => {
    const { userId, cardId } = await newCard();
    const payment = await tip(cardId, 500);
    logged.length = 0;
    expect(await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded', { amount_cents: 499 }))).toBe('mismatch');
    expect(await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded', { currency: 'USD' }))).toBe('mismatch');
    expect(await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded', { provider_ref: 'ref_other' }))).toBe(
      'mismatch',
    );
    expect(
      await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded', { payment_id: crypto.randomUUID() })),
    ).toBe('mismatch');
    expect(await payments.applyEvent('stripe', eventFor(payment, 'payment.succeeded'))).toBe('mismatch');
    expect((await userBalances(database.db, userId)).hold).toBe(0);
    expect(logged.filter((line) => line.includes('does not match the stored payment'))).toHaveLength(5);
    expect(await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'))).toBe('applied');
  });

  it('credit a late success after a reported failure, and ignore a failure after a success', async () => {
    const { userId, cardId } = await newCard();
    const first = await tip(cardId, 400);
    expect(await payments.applyEvent('sandbox', eventFor(first, 'payment.failed'))).toBe('applied');
    expect(await payments.applyEvent('sandbox', eventFor(first, 'payment.succeeded'))).toBe('applied');
    const second = await tip(cardId, 400);
    await payments.applyEvent('sandbox', eventFor(second, 'payment.succeeded'));
    expect(await payments.applyEvent('sandbox', eventFor(second, 'payment.failed'))).toBe('ignored');
    expect((await payments.getPublicPayment(second.id)).status).toBe('succeeded');
    expect((await userBalances(database.db, userId)).hold).toBe(760);
  });

  it('net to nothing when a refund overtakes its success', async () => {
    const { userId, cardId } = await newCard();
    const payment = await tip(cardId, 1_000);
    expect(await payments.applyEvent('sandbox', eventFor(payment, 'payment.refunded'))).toBe('applied');
    expect(await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'))).toBe('ignored');
    expect(await userBalances(database.db, userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    await expectBooksBalanced();
  });

  it('take a refunded tip back from hold and mark it REFUNDED', async () => {
    const { userId, clientId, cardId } = await newCard();
    const payment = await tip(cardId, 1_000, { cover_fee: true });
    await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'));
    await payments.applyEvent('sandbox', eventFor(payment, 'payment.refunded'));
    await payments.applyEvent('sandbox', eventFor(payment, 'payment.chargeback'));
    expect(await userBalances(database.db, userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect((await transactions.list(userId, clientId, { limit: 1 })).items[0]?.status).toBe('REFUNDED');
    clock.advance(25 * HOUR);
    await settleDueShares();
    expect(await userBalances(database.db, userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    await expectBooksBalanced();
  });

  it('record a debt, never hide it, when a chargeback comes after the money was withdrawn', async () => {
    const { userId, cardId } = await newCard();
    const payment = await tip(cardId, 2_000);
    await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'));
    clock.advance(25 * HOUR);
    await settleDueShares();
    // The staff member has withdrawn 1,500 of the 1,900: a paid payout's net effect (main → out of the system).
    await database.db.transaction((tx) =>
      postEntry(tx, {
        kind: 'test_payout',
        reference: `payout:${payment.id}`,
        postings: [
          { account: { userId, kind: 'main' }, amountCents: -1_500 },
          { account: { platform: 'psp_clearing' }, amountCents: 1_500 },
        ],
      }),
    );
    await payments.applyEvent('sandbox', eventFor(payment, 'payment.chargeback'));
    expect(await userBalances(database.db, userId)).toEqual({ main: 0, hold: 0, debt: -1_500 });
    await expectBooksBalanced();
  });

  it('settle or reverse a tip exactly once when settlement and a refund race', async () => {
    const { userId, cardId } = await newCard();
    const payment = await tip(cardId, 1_000);
    await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'));
    clock.advance(25 * HOUR);
    await Promise.all([settleDueShares(), payments.applyEvent('sandbox', eventFor(payment, 'payment.refunded'))]);
    expect(await userBalances(database.db, userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    await expectBooksBalanced();
  });
});

describe('reconciliation', () => {
  const MINUTE = 60_000;
  const reconcile = () => drainJob({ runOne: payments.reconcileOneDuePayment }, () => clock.now());
  const paidAtProvider = (payment: { id: string; total_cents: number }) =>
    providerView.set(`ref_${payment.id}`, eventFor(payment, 'payment.succeeded', { id: `ref_${payment.id}:succeeded` }));

  it('credits, exactly once, a payment whose event never came once it is pending past RECONCILE_AFTER_MINUTES', async () => {
    const { userId, cardId } = await newCard();
    const payment = await tip(cardId, 1_000);
    paidAtProvider(payment);
    clock.advance(4 * MINUTE);
    await reconcile();
    expect((await userBalances(database.db, userId)).hold).toBe(0);
    clock.advance(MINUTE);
    await Promise.all([reconcile(), reconcile()]);
    expect((await userBalances(database.db, userId)).hold).toBe(950);
    // The webhook, delivered late after all, changes nothing.
    expect(await payments.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'))).toBe('ignored');
    clock.advance(60 * MINUTE);
    expect(await reconcile()).toBe(0);
    expect((await userBalances(database.db, userId)).hold).toBe(950);
    await expectBooksBalanced();
  });

  it('asks again with a growing wait while the guest has not paid or the provider is down, and stops after two days', async () => {
    const { cardId } = await newCard();
    const payment = await tip(cardId, 500);
    const started = clock.now().getTime();
    providerDown = true;
    try {
      for (let minute = 0; minute <= 72 * 60; minute += 5) {
        await reconcile();
        clock.advance(5 * MINUTE);
      }
    } finally {
      providerDown = false;
    }
    const askedAt = asked
      .filter((question) => question.ref === `ref_${payment.id}`)
      .map((question) => (question.at - started) / MINUTE);
    expect((await payments.getPublicPayment(payment.id)).status).toBe('pending');
    expect(askedAt.slice(0, 4)).toEqual([5, 10, 20, 40]);
    expect(askedAt.at(-1)).toBeLessThanOrEqual(49 * 60 + 5 * 60);
    expect(askedAt.length).toBeLessThan(12);
  });

  it('lets the return page ask the provider once the webhook had time to arrive', async () => {
    const { userId, cardId } = await newCard();
    const payment = await tip(cardId, 2_000);
    paidAtProvider(payment);
    expect((await payments.getPublicPayment(payment.id)).status).toBe('pending');
    clock.advance(3_000);
    expect((await payments.getPublicPayment(payment.id)).status).toBe('succeeded');
    expect((await userBalances(database.db, userId)).hold).toBe(1_900);
    providerDown = true;
    try {
      const unpaid = await tip(cardId, 300);
      clock.advance(3_000);
      expect((await payments.getPublicPayment(unpaid.id)).status).toBe('pending');
    } finally {
      providerDown = false;
    }
    await expectBooksBalanced();
  });
});

describe('creating a payment', () => {
  it('makes one payment and 100 identical answers for 100 concurrent calls with one Idempotency-Key', async () => {
    const { cardId } = await newCard();
    const before = checkoutsOpened;
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 100 }, () => tip(cardId, 500, {}, key)));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(checkoutsOpened - before).toBe(1);
  }, 60_000);

  it('refuses the same Idempotency-Key with another body', async () => {
    const { cardId } = await newCard();
    const key = crypto.randomUUID();
    await tip(cardId, 500, {}, key);
    await expect(tip(cardId, 600, {}, key)).rejects.toMatchObject({ code: 'idempotency_key_reused', statusCode: 422 });
  });

  it('answers 404 for an unknown card', async () => {
    await expect(tip(crypto.randomUUID())).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('the ledger under random histories', () => {
  type Step = { kind: 'event'; payment: number; type: ProviderEventType; times: number } | { kind: 'settle'; hours: number };

  const steps = (payments: number) =>
    fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant('event' as const),
          payment: fc.nat({ max: payments - 1 }),
          type: fc.constantFrom<ProviderEventType>(
            'payment.succeeded',
            'payment.succeeded',
            'payment.failed',
            'payment.canceled',
            'payment.refunded',
            'payment.chargeback',
          ),
          times: fc.integer({ min: 1, max: 3 }),
        }),
        fc.record({ kind: fc.constant('settle' as const), hours: fc.integer({ min: 0, max: 30 }) }),
      ),
      { maxLength: 14 },
    );

  it('keeps every invariant and credits exactly the tips that succeeded and were not reversed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ amount: fc.integer({ min: 100, max: 50_000 }), cover: fc.boolean() }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 1, max: 4 }).chain((n) => steps(n)),
        async (tips, history: Step[]) => {
          const { userId, cardId } = await newCard();
          const created = await Promise.all(tips.map((t) => tip(cardId, t.amount, { cover_fee: t.cover })));
          // The model: a payment is credited by its first success unless a refund or chargeback came before or after.
          const state = created.map(() => ({ credited: false, reversed: false, refundedFirst: false }));
          for (const step of history) {
            if (step.kind === 'settle') {
              clock.advance(step.hours * HOUR);
              await settleDueShares();
              continue;
            }
            const payment = created[step.payment % created.length]!;
            const model = state[step.payment % created.length]!;
            const event = eventFor(payment, step.type);
            for (let i = 0; i < step.times; i += 1) await payments.applyEvent('sandbox', event);
            if (step.type === 'payment.succeeded' && !model.credited && !model.refundedFirst) model.credited = true;
            if (step.type === 'payment.refunded' || step.type === 'payment.chargeback') {
              if (model.credited) model.reversed = true;
              else model.refundedFirst = true;
            }
          }
          const expected = created.reduce((sum, payment, i) => {
            const model = state[i]!;
            return model.credited && !model.reversed ? sum + tipBreakdown(tips[i]!.amount, 5, tips[i]!.cover).netCents : sum;
          }, 0);
          const balances = await userBalances(database.db, userId);
          expect(balances.main + balances.hold + balances.debt).toBe(expected);
          expect(balances.debt).toBe(0);
          expect(await checkLedgerInvariants(database.db)).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  }, 300_000);
});

/**
 * A purpose that splits each payment among several users, as a team tip will (the teams issue adds the real one):
 * registered on a second instance of the service, over the same database and ledger.
 */
describe('payments with several recipients', () => {
  const evenSplit = (cents: number, parts: number) =>
    Array.from({ length: parts }, (_, i) => Math.floor(cents / parts) + (i < cents % parts ? 1 : 0));
  let split: PaymentsService;
  const recipientsOf = new Map<string, string[]>();

  beforeAll(() => {
    split = createPaymentsService({
      db: database.db,
      clock,
      velocity: NO_VELOCITY_LIMIT,
      log: pino({ level: 'silent' }),
      providers: { sandbox: fakeProvider },
      active: 'sandbox',
      publicUrl: 'http://localhost:3000',
      holdHours: 24,
      reconcileAfterMinutes: 5,
      batchSize: 100,
      handlers: [
        {
          purpose: 'invoice',
          async allocate(_tx, payment) {
            const users = recipientsOf.get(payment.subjectId)!;
            const nets = evenSplit(payment.totalCents - payment.feeCents, users.length);
            const fees = evenSplit(payment.feeCents, users.length);
            return users.map((userId, i) => ({
              userId,
              netCents: nets[i]!,
              feeCents: fees[i]!,
              history: { detail: { kind: 'team_tip', team: 'Team' }, message: null, rating: null },
            }));
          },
        },
      ],
    });
  });

  async function splitPayment(recipients: number, totalCents: number, feeCents: number) {
    const users = await Promise.all(Array.from({ length: recipients }, () => newCard()));
    const subjectId = crypto.randomUUID();
    recipientsOf.set(
      subjectId,
      users.map((u) => u.userId),
    );
    const payment = await split.openCheckout({
      purpose: 'invoice',
      locale: 'en',
      subjectId,
      idempotencyKey: crypto.randomUUID(),
      request: totalCents,
      amountCents: totalCents,
      feeCents,
      totalCents,
      coverFee: false,
      description: 'Team tip',
      providerDescription: 'Team tip',
      successUrl: (id) => `http://localhost:3000/ok/${id}`,
      cancelUrl: (id) => `http://localhost:3000/no/${id}`,
    });
    return { payment, users };
  }

  const total = async (userId: string) => {
    const b = await userBalances(database.db, userId);
    return b.main + b.hold + b.debt;
  };

  it('records one entry with a posting per recipient plus the fee, and a refund reverses all three', async () => {
    const { payment, users } = await splitPayment(3, 1_000, 50);
    expect(await split.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'))).toBe('applied');
    const [entry] = await database.db
      .select({ postings: count() })
      .from(ledgerPostings)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerPostings.entryId))
      .where(eq(ledgerEntries.reference, `payment:${payment.id}:received`));
    expect(entry?.postings).toBe(5);
    expect(await Promise.all(users.map((u) => userBalances(database.db, u.userId)))).toEqual([
      { main: 0, hold: 317, debt: 0 },
      { main: 0, hold: 317, debt: 0 },
      { main: 0, hold: 316, debt: 0 },
    ]);
    await expectBooksBalanced();
    expect(await split.applyEvent('sandbox', eventFor(payment, 'payment.refunded'))).toBe('applied');
    expect(await Promise.all(users.map((u) => total(u.userId)))).toEqual([0, 0, 0]);
    for (const user of users) {
      expect((await transactions.list(user.userId, user.clientId, { limit: 1 })).items[0]?.status).toBe('REFUNDED');
    }
    await expectBooksBalanced();
  });

  it('reverses only the refunded share of each recipient, and the rest when the refund grows', async () => {
    const { payment, users } = await splitPayment(2, 1_050, 50);
    await split.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'));
    expect(await split.applyEvent('sandbox', eventFor(payment, 'payment.refunded', { amount_cents: 500 }))).toBe('applied');
    // 500 of 1,050 back: each recipient keeps 500 × 1,000/1,050 ÷ 2 less, to the cent.
    expect(await Promise.all(users.map((u) => total(u.userId)))).toEqual([262, 262]);
    const first = (await transactions.list(users[0]!.userId, users[0]!.clientId, { limit: 1 })).items[0];
    expect(first).toMatchObject({ status: 'HOLD', amount_cents: 500 });
    // The same cumulative amount again, or an older one arriving late, changes nothing.
    expect(await split.applyEvent('sandbox', eventFor(payment, 'payment.refunded', { amount_cents: 500 }))).toBe('ignored');
    expect(await split.applyEvent('sandbox', eventFor(payment, 'payment.refunded', { amount_cents: 200 }))).toBe('ignored');
    expect(await split.applyEvent('sandbox', eventFor(payment, 'payment.refunded', { amount_cents: 1_050 }))).toBe('applied');
    expect(await Promise.all(users.map((u) => total(u.userId)))).toEqual([0, 0]);
    expect((await split.getPublicPayment(payment.id)).status).toBe('refunded');
    await expectBooksBalanced();
  });

  it('restores a won dispute: from hold while held, to main after release, repaying a recorded debt first', async () => {
    const { payment, users } = await splitPayment(1, 2_000, 100);
    const [user] = users;
    await split.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'));
    await split.applyEvent('sandbox', eventFor(payment, 'payment.chargeback', { dispute_ref: 'dp_1' }));
    expect(await userBalances(database.db, user!.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect(await split.applyEvent('sandbox', eventFor(payment, 'payment.reinstated', { dispute_ref: 'dp_1' }))).toBe('applied');
    expect(await userBalances(database.db, user!.userId)).toEqual({ main: 0, hold: 1_900, debt: 0 });
    expect((await transactions.list(user!.userId, user!.clientId, { limit: 1 })).items[0]?.status).toBe('HOLD');

    clock.advance(25 * HOUR);
    await drainJob({ runOne: split.releaseDueShares }, () => clock.now());
    await database.db.transaction((tx) =>
      postEntry(tx, {
        kind: 'test_payout',
        reference: `payout:${payment.id}`,
        postings: [
          { account: { userId: user!.userId, kind: 'main' }, amountCents: -1_500 },
          { account: { platform: 'psp_clearing' }, amountCents: 1_500 },
        ],
      }),
    );
    await split.applyEvent('sandbox', eventFor(payment, 'payment.chargeback', { id: 'evt_dispute_2', dispute_ref: 'dp_2' }));
    expect(await userBalances(database.db, user!.userId)).toEqual({ main: 0, hold: 0, debt: -1_500 });
    await split.applyEvent('sandbox', eventFor(payment, 'payment.reinstated', { id: 'evt_won_2', dispute_ref: 'dp_2' }));
    expect(await userBalances(database.db, user!.userId)).toEqual({ main: 400, hold: 0, debt: 0 });
    expect((await transactions.list(user!.userId, user!.clientId, { limit: 1 })).items[0]?.status).toBe('PAID');
    await expectBooksBalanced();
  });

  it('lands on the same books whatever order concurrent refunds, a dispute and the release job run in', async () => {
    const { payment, users } = await splitPayment(3, 3_000, 150);
    await split.applyEvent('sandbox', eventFor(payment, 'payment.succeeded'));
    clock.advance(25 * HOUR);
    await Promise.all([
      ...[900, 300, 600, 900].map((amount) =>
        split.applyEvent('sandbox', eventFor(payment, 'payment.refunded', { amount_cents: amount })),
      ),
      split.applyEvent('sandbox', eventFor(payment, 'payment.chargeback', { amount_cents: 3_000, dispute_ref: 'dp_race' })),
      drainJob({ runOne: split.releaseDueShares }, () => clock.now()),
      drainJob({ runOne: split.releaseDueShares }, () => clock.now()),
    ]);
    expect(await Promise.all(users.map((u) => total(u.userId)))).toEqual([0, 0, 0]);
    await split.applyEvent('sandbox', eventFor(payment, 'payment.reinstated', { amount_cents: 3_000, dispute_ref: 'dp_race' }));
    // Only the 900 refunded stays taken back: 2,100 of 3,000 kept, net of the 5% fee, split three ways.
    expect(await Promise.all(users.map((u) => total(u.userId)))).toEqual([665, 665, 665]);
    await expectBooksBalanced();
  });

  it('keeps every invariant under random histories of partial refunds, disputes and releases', async () => {
    type Step =
      | { kind: 'succeeded' | 'failed' | 'chargeback' | 'reinstated'; payment: number }
      | { kind: 'refund'; payment: number; permille: number }
      | { kind: 'release'; hours: number };
    const step = fc.oneof(
      fc.record({
        kind: fc.constantFrom('succeeded' as const, 'failed' as const, 'chargeback' as const, 'reinstated' as const),
        payment: fc.nat({ max: 3 }),
      }),
      fc.record({
        kind: fc.constant('refund' as const),
        payment: fc.nat({ max: 3 }),
        permille: fc.integer({ min: 1, max: 1_000 }),
      }),
      fc.record({ kind: fc.constant('release' as const), hours: fc.integer({ min: 0, max: 30 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            recipients: fc.integer({ min: 1, max: 3 }),
            total: fc.integer({ min: 100, max: 50_000 }),
            feePermille: fc.integer({ min: 0, max: 50 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.array(step, { maxLength: 16 }),
        async (specs, history: Step[]) => {
          const created = await Promise.all(
            specs.map((s) => splitPayment(s.recipients, s.total, Math.floor((s.total * s.feePermille) / 1_000))),
          );
          const refunded = created.map(() => 0);
          for (const item of history) {
            if (item.kind === 'release') {
              clock.advance(item.hours * HOUR);
              await drainJob({ runOne: split.releaseDueShares }, () => clock.now());
              continue;
            }
            const index = item.payment % created.length;
            const { payment } = created[index]!;
            if (item.kind === 'refund') {
              refunded[index] = Math.min(
                payment.total_cents,
                refunded[index]! + Math.ceil((payment.total_cents * item.permille) / 1_000),
              );
              await split.applyEvent('sandbox', eventFor(payment, 'payment.refunded', { amount_cents: refunded[index] }));
            } else {
              const type = `payment.${item.kind}` as const;
              await split.applyEvent('sandbox', eventFor(payment, type, { dispute_ref: 'dp' }));
            }
          }
          expect(await checkLedgerInvariants(database.db)).toEqual([]);
          for (const { payment, users } of created) {
            const rows = await database.db
              .select()
              .from(paymentAllocations)
              .where(eq(paymentAllocations.paymentId, payment.id))
              .orderBy(asc(paymentAllocations.position));
            const [stored] = await database.db.select().from(paymentsTable).where(eq(paymentsTable.id, payment.id));
            const takenBack = Math.min(payment.total_cents, stored!.refundedCents + stored!.disputedCents);
            if (rows.length === 0) {
              expect(await Promise.all(users.map((u) => total(u.userId)))).toEqual(users.map(() => 0));
              continue;
            }
            // Every cent of the payment is either still with a recipient or taken back, and each share gave up its
            // proportional part to within a cent.
            const kept = rows.reduce(
              (sum, row) => sum + row.netCents - row.reversedNetCents + row.feeCents - row.reversedFeeCents,
              0,
            );
            expect(kept).toBe(payment.total_cents - takenBack);
            for (const row of rows) {
              expect(Math.abs(row.reversedNetCents - (takenBack * row.netCents) / payment.total_cents)).toBeLessThan(1);
            }
            for (const user of users) {
              const own = rows
                .filter((row) => row.userId === user.userId)
                .reduce((sum, row) => sum + row.netCents - row.reversedNetCents, 0);
              expect(await total(user.userId)).toBe(own);
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 300_000);
});
