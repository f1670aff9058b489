import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationPlans, donations } from '../../db/schema/donations.ts';
import { sandboxPaymentMethods } from '../../db/schema/sandbox.ts';
import { transactionsQuery } from '@tipcard/shared/transactions/schemas';
import { payAtSandboxCheckout } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { chargeDateOf } from './charge-date.ts';

let t: TestApp;
beforeAll(async () => {
  // The sandbox's webhook deliveries are held back: the return page's question to the provider settles each checkout.
  t = await createTestApp({ env: { SANDBOX_WEBHOOK_DELAY_MS: '60000', FEE_PERCENT: '5' } });
});
afterAll(() => t.close());

const donor = {
  donor_name: 'Līga Ozola',
  email: 'liga@example.lv',
  donor_code: '010190-12345',
  amount_cents: 1_000,
  cover_fee: false,
  monthly: true,
  locale: 'lv',
  terms_accepted: true,
};
let donors = 0;
const donate = (cardId: string, body: object) => {
  donors += 1;
  return t.call({
    method: 'POST',
    url: `/api/public/cards/${cardId}/donations`,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: body,
    remoteAddress: `10.30.${Math.floor(donors / 250)}.${donors % 250}`,
  });
};

/** Moves the test clock forward to `when` (never back). */
const moveTo = (when: Date) => t.clock.advance(Math.max(0, when.getTime() - t.clock.now().getTime()));
const planOf = async (id: string) => (await t.app.db.select().from(donationPlans).where(eq(donationPlans.id, id)))[0]!;
const giftsOf = (planId: string) =>
  t.app.db.select().from(donations).where(eq(donations.planId, planId)).orderBy(donations.createdAt);
const mailTo = async (email: string) =>
  (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}&limit=200` })).body.data as {
    body: string;
  }[];

/** A donor starts a monthly donation on a charity's card and pays its first month with `card` at the sandbox. */
async function startPlan(card = '4242424242424242', body: object = {}) {
  const staff = await signUpWithCard(t, { activity_type: 'DONATION', public_name: 'Dzīvnieku patversme' });
  const email = `donor-${crypto.randomUUID()}@example.lv`;
  const started = await donate(staff.cardId, { ...donor, email, ...body });
  expect(started.status).toBe(201);
  const payment = started.body.data;
  await payAtSandboxCheckout(t, payment, `method=card&card_number=${card}`);
  t.clock.advance(5_000);
  expect((await t.app.services.payments.getPublicPayment(payment.id)).status).toBe('succeeded');
  const [gift] = await t.app.db.select().from(donations).where(eq(donations.paymentId, payment.id));
  return { staff, email, planId: gift!.planId!, payment };
}

const runPlanJobs = async () => ({ reminded: await t.runJob('donations.remind'), charged: await t.runJob('donations.charge') });
/** Runs the plan jobs; answers how many payments this plan's job runs made (other tests' plans may fall due too). */
const chargesOf = async (planId: string) => {
  const before = (await giftsOf(planId)).length;
  await runPlanJobs();
  return (await giftsOf(planId)).length - before;
};

describe('a monthly donation', () => {
  it('charges the same day each month for 13 months (31 January → 29 February → 31 March), with an e-mail before and a receipt after each', async () => {
    moveTo(new Date('2027-01-31T10:00:00Z'));
    const { staff, email, planId } = await startPlan();
    const plan = await planOf(planId);
    expect(plan).toMatchObject({ status: 'active', period: 1, failures: 0 });
    expect(plan.nextChargeAt?.toISOString()).toBe('2027-02-28T08:00:00.000Z');
    expect((await mailTo(email))[0]!.body).toMatch(/Subject: Kvīts par jūsu ziedojumu 10,00\u00A0€/);

    const expectedDays = [
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
      '2028-02-29',
    ];
    for (const [index, day] of expectedDays.entries()) {
      const chargeAt = new Date(`${day}T08:00:00Z`);
      moveTo(new Date(chargeAt.getTime() - 3 * 86_400_000 + 60_000));
      expect(await runPlanJobs()).toEqual({ reminded: 1, charged: 0 });
      const reminder = (await mailTo(email))[0]!.body;
      expect(reminder).toMatch(/Subject: Jūsu ikmēneša ziedojums/);
      expect(reminder.match(/\/actions\/[0-9a-f]{64}/g)).toHaveLength(3);

      moveTo(new Date(chargeAt.getTime() + 60_000));
      expect(await runPlanJobs()).toEqual({ reminded: 0, charged: 1 });
      expect(await runPlanJobs()).toEqual({ reminded: 0, charged: 0 });
      const gifts = await giftsOf(planId);
      expect(gifts).toHaveLength(index + 2);
      expect(gifts.at(-1)).toMatchObject({ kind: 'monthly', period: index + 1, status: 'succeeded' });
      expect(gifts.at(-1)!.createdAt.toISOString().slice(0, 10)).toBe(day);
      expect((await mailTo(email))[0]!.body).toMatch(/Subject: Kvīts/);
      expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    }
    const balances = await userBalances(t.app.db, staff.userId);
    expect(balances.main + balances.hold).toBe(14 * 950);
    // A year on, the sign-in token has long expired: the history is read through its service.
    const history = await t.app.services.transactions.list(
      staff.userId,
      staff.clientId,
      transactionsQuery.parse({ limit: '50' }),
    );
    expect(history.items.map((row) => row.description)).toEqual(Array(14).fill('Monthly donation from Līga Ozola'));
  });

  it('retries a declined month and carries on when the card recovers', async () => {
    const { planId, email } = await startPlan('4000000000009995');
    const first = await planOf(planId);
    moveTo(new Date(first.nextChargeAt!.getTime() + 60_000));
    expect(await chargesOf(planId)).toBe(1);
    const declined = await planOf(planId);
    expect(declined).toMatchObject({ status: 'active', period: 1, failures: 1 });
    expect(declined.nextChargeAt!.getTime()).toBe(chargeDateOf(declined.startedAt!, 1).getTime() + 2 * 86_400_000);

    moveTo(new Date(declined.nextChargeAt!.getTime() + 60_000));
    expect(await chargesOf(planId)).toBe(1);
    const recovered = await planOf(planId);
    expect(recovered).toMatchObject({ status: 'active', period: 2, failures: 0 });
    expect(recovered.nextChargeAt!.getTime()).toBe(chargeDateOf(recovered.startedAt!, 2).getTime());
    expect((await giftsOf(planId)).map((gift) => [gift.period, gift.status])).toEqual([
      [0, 'succeeded'],
      [1, 'failed'],
      [1, 'succeeded'],
    ]);
    expect((await mailTo(email)).some((mail) => /ir pārtraukts/.test(mail.body))).toBe(false);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('lapses after a declined month and three declined retries over a week, tells the donor, and charges nothing more', async () => {
    const { planId, email, staff } = await startPlan('4000000000000341');
    const start = (await planOf(planId)).startedAt!;
    for (const period of [1, 2]) {
      moveTo(new Date(chargeDateOf(start, period).getTime() + 60_000));
      expect(await chargesOf(planId)).toBe(1);
    }
    const third = chargeDateOf(start, 3);
    for (const [attempt, wait] of [0, 2, 4, 7].entries()) {
      moveTo(new Date(third.getTime() + wait * 86_400_000 + 60_000));
      expect(await chargesOf(planId)).toBe(1);
      expect((await planOf(planId)).failures).toBe(attempt + 1);
    }
    const lapsed = await planOf(planId);
    expect(lapsed).toMatchObject({ status: 'lapsed', nextChargeAt: null });
    expect((await mailTo(email))[0]!.body).toMatch(
      /Subject: Jūsu ikmēneša ziedojums saņēmējam Dzīvnieku patversme ir pārtraukts/,
    );
    moveTo(new Date(chargeDateOf(start, 6).getTime()));
    expect(await chargesOf(planId)).toBe(0);
    const gifts = await giftsOf(planId);
    expect(gifts.filter((gift) => gift.status === 'succeeded')).toHaveLength(3);
    expect(gifts.filter((gift) => gift.status === 'failed')).toHaveLength(4);
    expect((await userBalances(t.app.db, staff.userId)).hold).toBe(3 * 950);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('takes a saved card the provider no longer knows as a decline: retried on the week’s schedule, then lapsed, never asked every lease', async () => {
    const { planId } = await startPlan();
    const plan = await planOf(planId);
    await t.app.db.delete(sandboxPaymentMethods).where(eq(sandboxPaymentMethods.methodRef, plan.methodRef!));
    const due = plan.nextChargeAt!;
    for (const [attempt, wait] of [0, 2, 4, 7].entries()) {
      moveTo(new Date(due.getTime() + wait * 86_400_000 + 60_000));
      expect(await chargesOf(planId)).toBe(1);
      expect((await planOf(planId)).failures).toBe(attempt + 1);
      // Past the charge job's lease, nothing is asked again before the next retry.
      moveTo(new Date(t.clock.now().getTime() + 20 * 60_000));
      expect(await chargesOf(planId)).toBe(0);
    }
    expect(await planOf(planId)).toMatchObject({ status: 'lapsed', nextChargeAt: null });
    expect((await giftsOf(planId)).map((gift) => gift.status)).toEqual(['succeeded', 'failed', 'failed', 'failed', 'failed']);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('charges a due month once when two workers run the charge job at the same moment', async () => {
    const { planId } = await startPlan();
    moveTo(new Date((await planOf(planId)).nextChargeAt!.getTime() + 60_000));
    await Promise.all([t.runJob('donations.charge'), t.runJob('donations.charge'), t.runJob('donations.charge')]);
    expect((await giftsOf(planId)).map((gift) => [gift.period, gift.status])).toEqual([
      [0, 'succeeded'],
      [1, 'succeeded'],
    ]);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('never charges a month twice, whatever the card, the clock’s steps and the job runs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('4242424242424242', '4000000000000341', '4000000000009995'),
        fc.array(fc.record({ days: fc.integer({ min: 0, max: 20 }), runs: fc.integer({ min: 1, max: 3 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (card, steps) => {
          const { planId, staff } = await startPlan(card);
          for (const step of steps) {
            t.clock.advance(step.days * 86_400_000);
            for (let run = 0; run < step.runs; run += 1) await runPlanJobs();
          }
          const gifts = await giftsOf(planId);
          const paid = gifts.filter((gift) => gift.status === 'succeeded').map((gift) => gift.period);
          expect(new Set(paid).size).toBe(paid.length);
          const plan = await planOf(planId);
          // Every month before the plan's current one was paid, in order; the current one is due, retried, or where it lapsed.
          expect(paid.sort((a, b) => a! - b!)).toEqual(Array.from({ length: plan.period }, (_, period) => period));
          const balances = await userBalances(t.app.db, staff.userId);
          expect(balances.hold + balances.main).toBe(paid.length * 950);
          expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
        },
      ),
      { numRuns: 8 },
    );
  });
});
