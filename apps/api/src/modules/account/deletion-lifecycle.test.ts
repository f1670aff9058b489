import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { donationPlans, donations } from '../../db/schema/donations.ts';
import { paymentAllocations, paymentReturns, payments } from '../../db/schema/payments.ts';
import { sandboxCharges } from '../../db/schema/sandbox.ts';
import { transactions } from '../../db/schema/transactions.ts';
import { users } from '../../db/schema/users.ts';
import type { ReportContext } from '../../lib/error-reporting.ts';
import { deliverSandboxEvent, payAtSandboxCheckout, receiveTip, sandboxRefOf } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { platformBalance, userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { fundMain } from '../payouts/payouts.test-support.ts';
import { createAccountService } from './account.service.ts';

let t: TestApp;
beforeAll(async () => {
  // The sandbox's own webhook deliveries are held back: each test delivers the events itself, in the order it needs.
  // Rate limits off: the tests sign up more users than one address may register in an hour.
  t = await createTestApp({ env: { SANDBOX_WEBHOOK_DELAY_MS: '60000', FEE_PERCENT: '5', HOLD_HOURS: '24', RATE_LIMITS: 'off' } });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
});

type Person = Awaited<ReturnType<typeof signUpWithCard>>;
interface Checkout {
  id: string;
  total_cents: number;
  checkout_url: string;
}
const DAY = 86_400_000;

const deleteAccount = (person: Person) =>
  t.call({ method: 'POST', url: '/api/user/deletion_statements', token: person.jwt, payload: {} });
const publicPayment = async (id: string) =>
  (await t.call({ method: 'GET', url: `/api/public/payments/${id}` })).body.data as { status: string };
const paymentRow = async (id: string) => (await t.app.db.select().from(payments).where(eq(payments.id, id)))[0]!;
const sandboxRefunded = async (checkout: Checkout) =>
  (
    await t.app.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.providerRef, sandboxRefOf(checkout)))
  )[0]!.refundedCents;
const historyOf = (userId: string) => t.app.db.select().from(transactions).where(eq(transactions.userId, userId));
const mailTo = async (email: string) =>
  (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}&limit=50` })).body.data as {
    body: string;
  }[];

/** A guest opens a tip to the card and pays at the sandbox's page; the provider's event is not delivered yet. */
async function tipCharged(cardId: string, cents: number, coverFee = false): Promise<Checkout> {
  const opened = await t.call({
    method: 'POST',
    url: `/api/public/cards/${cardId}/payments`,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { amount_cents: cents, cover_fee: coverFee, terms_accepted: true },
  });
  expect(opened.status).toBe(201);
  await payAtSandboxCheckout(t, opened.body.data);
  return opened.body.data;
}

/**
 * A payment that arrived for nobody: credited whole to returns_due, never to a user, and given back once and in full
 * by the give-back job (a second run finds nothing).
 */
async function expectGivenBack(checkout: Checkout, recipients: string[]) {
  const payment = await paymentRow(checkout.id);
  expect(payment.status).toBe('succeeded');
  const shares = await t.app.db.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, checkout.id));
  expect(shares).toEqual([
    expect.objectContaining({ userId: null, platformAccount: 'returns_due', netCents: checkout.total_cents, feeCents: 0 }),
  ]);
  for (const userId of recipients) expect(await userBalances(t.app.db, userId)).toEqual({ main: 0, hold: 0, debt: 0 });
  expect(await t.runJob('payments.give-back')).toBeGreaterThanOrEqual(1);
  expect(await t.runJob('payments.give-back')).toBe(0);
  expect(await paymentRow(checkout.id)).toMatchObject({ status: 'refunded', refundedCents: checkout.total_cents });
  expect(await sandboxRefunded(checkout)).toBe(checkout.total_cents);
  const [done] = await t.app.db.select().from(paymentReturns).where(eq(paymentReturns.paymentId, checkout.id));
  expect(done).toMatchObject({ dueAt: null, attempts: 1 });
  for (const userId of recipients) expect(await userBalances(t.app.db, userId)).toEqual({ main: 0, hold: 0, debt: 0 });
}

describe('deletion ends what could still bring the account money', () => {
  it('voids pending tips; one paid anyway never reaches the account and is given back to the payer in full', async () => {
    const owner = await signUpWithCard(t);
    const checkout = await tipCharged(owner.cardId, 1_000, true);
    const returnsBefore = await platformBalance(t.app.db, 'returns_due');
    expect((await deleteAccount(owner)).status).toBe(200);
    expect((await publicPayment(checkout.id)).status).toBe('canceled');

    expect(await deliverSandboxEvent(t, checkout, 'payment.succeeded')).toBe('applied');
    expect(await platformBalance(t.app.db, 'returns_due')).toBe(returnsBefore + checkout.total_cents);
    expect(await historyOf(owner.userId)).toEqual([]);
    await expectGivenBack(checkout, [owner.userId]);
    expect(await platformBalance(t.app.db, 'returns_due')).toBe(returnsBefore);
    expect((await publicPayment(checkout.id)).status).toBe('refunded');
  });

  it('gives back any amount in full, whatever part of it a refund already took (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 50_000 }),
        fc.boolean(),
        fc.option(fc.double({ min: 0.01, max: 0.99, noNaN: true })),
        async (cents, coverFee, refundedPart) => {
          const owner = await signUpWithCard(t);
          const checkout = await tipCharged(owner.cardId, cents, coverFee);
          expect((await deleteAccount(owner)).status).toBe(200);
          expect(await deliverSandboxEvent(t, checkout, 'payment.succeeded')).toBe('applied');
          if (refundedPart !== null) {
            const part = Math.max(1, Math.floor(checkout.total_cents * refundedPart));
            await t.app.services.payments.refundPayment(checkout.id, part, `operator:${checkout.id}`);
          }
          await t.runJob('payments.give-back');
          expect(await paymentRow(checkout.id)).toMatchObject({ status: 'refunded', refundedCents: checkout.total_cents });
          expect(await sandboxRefunded(checkout)).toBe(checkout.total_cents);
          expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
          expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
        },
      ),
      { numRuns: 6 },
    );
  });

  it("ends team memberships: the admin's role passes to the longest-serving member, and later tips are split among those left", async () => {
    const [anna, bob, carol] = [await signUpWithCard(t), await signUpWithCard(t), await signUpWithCard(t)];
    const created = await t.call({
      method: 'POST',
      url: `/api/clients/${anna.clientId}/workplace`,
      token: anna.jwt,
      payload: { name: 'Bar Riga', country: 'LV' },
    });
    const team = created.body.data.team as { id: string; card_id: string };
    for (const member of [bob, carol]) {
      t.clock.advance(60_000);
      const requested = await t.call({ method: 'POST', url: `/api/teams/${team.id}/requests`, token: member.jwt });
      expect(
        (
          await t.call({
            method: 'POST',
            url: `/api/teams/${team.id}/requests/${requested.body.data.id}/approve`,
            token: anna.jwt,
          })
        ).status,
      ).toBe(200);
    }
    // Dave's request is still pending when he deletes his account: it is declined, and cannot be approved after.
    const dave = await signUpWithCard(t);
    const pending = await t.call({ method: 'POST', url: `/api/teams/${team.id}/requests`, token: dave.jwt });
    expect((await deleteAccount(dave)).status).toBe(200);
    expect(
      (await t.call({ method: 'POST', url: `/api/teams/${team.id}/requests/${pending.body.data.id}/approve`, token: anna.jwt }))
        .body.code,
    ).toBe('join_request_closed');

    expect((await deleteAccount(anna)).status).toBe(200);
    const view = (await t.call({ method: 'GET', url: `/api/teams/${team.id}`, token: bob.jwt })).body.data;
    expect(view).toMatchObject({ admin_user_id: bob.userId, is_admin: true });
    expect(view.members.map((m: { user_id: string }) => m.user_id)).toEqual([bob.userId, carol.userId]);
    const bobsCards = await t.call({ method: 'GET', url: `/api/clients/${bob.clientId}/cards`, token: bob.jwt });
    expect(bobsCards.body.data.map((c: { id: string }) => c.id)).toContain(team.card_id);
    // The team card still takes tips, now Bob's to run.
    expect((await t.call({ method: 'GET', url: `/api/public/cards/${team.card_id}` })).status).toBe(200);

    const tip = await tipCharged(team.card_id, 1_000);
    expect(await deliverSandboxEvent(t, tip, 'payment.succeeded')).toBe('applied');
    const shares = await t.app.db.select().from(paymentAllocations).where(eq(paymentAllocations.paymentId, tip.id));
    expect(shares.map((s) => s.userId).sort()).toEqual([bob.userId, carol.userId].sort());
    expect(await userBalances(t.app.db, anna.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    const history = (await t.call({ method: 'GET', url: `/api/teams/${team.id}/history`, token: bob.jwt })).body.data as {
      user_id: string;
      left_at: string | null;
    }[];
    expect(history.find((period) => period.user_id === anna.userId)!.left_at).toBe(t.clock.now().toISOString());
  });

  it('closes a team whose last member deletes the account: its pending tips are voided, one paid anyway is given back', async () => {
    const anna = await signUpWithCard(t);
    const created = await t.call({
      method: 'POST',
      url: `/api/clients/${anna.clientId}/workplace`,
      token: anna.jwt,
      payload: { name: 'Kafejnīca', country: 'LV' },
    });
    const team = created.body.data.team as { id: string; card_id: string };
    const tip = await tipCharged(team.card_id, 700);
    expect((await deleteAccount(anna)).status).toBe(200);
    expect((await publicPayment(tip.id)).status).toBe('canceled');
    expect((await t.call({ method: 'GET', url: `/api/public/cards/${team.card_id}` })).status).toBe(404);

    expect(await deliverSandboxEvent(t, tip, 'payment.succeeded')).toBe('applied');
    await expectGivenBack(tip, [anna.userId]);
  });

  it('cancels open invoices and voids their checkouts; a payment still arriving is given back once, by payments alone', async () => {
    const owner = await signUpWithCard(t);
    const invoice = (
      await t.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/invoices`,
        token: owner.jwt,
        payload: { description: 'Guitar lesson', amount_cents: 4_000 },
      })
    ).body.data;
    const started = await t.call({
      method: 'POST',
      url: `/api/public/invoices/${invoice.id}/payments`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { terms_accepted: true },
    });
    expect(started.status).toBe(201);
    const checkout = started.body.data as Checkout;
    await payAtSandboxCheckout(t, checkout);
    expect((await deleteAccount(owner)).status).toBe(200);

    expect((await publicPayment(checkout.id)).status).toBe('canceled');
    expect((await t.call({ method: 'GET', url: `/api/public/invoices/${invoice.id}` })).body.data.status).toBe('canceled');
    const again = await t.call({
      method: 'POST',
      url: `/api/public/invoices/${invoice.id}/payments`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { terms_accepted: true },
    });
    expect([again.status, again.body.code]).toEqual([422, 'invoice_not_open']);

    expect(await deliverSandboxEvent(t, checkout, 'payment.succeeded')).toBe('applied');
    expect(await t.runJob('invoices.refund-duplicates')).toBe(0);
    await expectGivenBack(checkout, [owner.userId]);
  });

  it("cancels the monthly plans to a deleted charity: each donor is told in the plan's language, and nothing is charged again", async () => {
    const charity = await signUpWithCard(t, { activity_type: 'DONATION', public_name: 'Dzīvnieku patversme' });
    const email = `donor-${crypto.randomUUID()}@example.fr`;
    const started = await t.call({
      method: 'POST',
      url: `/api/public/cards/${charity.cardId}/donations`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: {
        donor_name: 'Camille Martin',
        email,
        donor_code: '1234567890',
        amount_cents: 2_000,
        cover_fee: false,
        monthly: true,
        locale: 'fr',
        terms_accepted: true,
      },
    });
    expect(started.status).toBe(201);
    const first = started.body.data as Checkout;
    await payAtSandboxCheckout(t, first);
    // The return page asks the sandbox, whose answer names the saved method the plan charges from then on.
    t.clock.advance(5_000);
    expect((await t.app.services.payments.getPublicPayment(first.id)).status).toBe('succeeded');
    const [gift] = await t.app.db.select().from(donations).where(eq(donations.paymentId, first.id));
    const planOf = async () => (await t.app.db.select().from(donationPlans).where(eq(donationPlans.id, gift!.planId!)))[0]!;
    expect((await planOf()).status).toBe('active');
    // The charity gave its first month back, so nothing is left on the account and it may be deleted.
    await t.app.services.payments.refundPayment(first.id, first.total_cents, `charity:${first.id}`);

    expect((await deleteAccount(charity)).status).toBe(200);
    expect(await planOf()).toMatchObject({ status: 'canceled', nextChargeAt: null, remindAt: null });
    const [told] = await mailTo(email);
    expect(told!.body).toMatch(/Subject: Votre don mensuel à Dzīvnieku patversme est terminé/);
    expect(told!.body).toMatch(/a fermé son compte Tipcard/);

    const mailsSoFar = (await mailTo(email)).length;
    t.clock.advance(40 * DAY);
    await t.runJob('donations.remind');
    await t.runJob('donations.charge');
    expect(await t.app.db.select().from(donations).where(eq(donations.planId, gift!.planId!))).toHaveLength(1);
    // No reminder, no receipt, no lapse: the ending was the last word.
    expect(await mailTo(email)).toHaveLength(mailsSoFar);
  });

  it('a restore within 30 days brings the account back, its memberships and plans still ended', async () => {
    const [anna, bob] = [await signUpWithCard(t), await signUpWithCard(t)];
    const team = (
      await t.call({
        method: 'POST',
        url: `/api/clients/${anna.clientId}/workplace`,
        token: anna.jwt,
        payload: { name: 'Bar Tallinn', country: 'EE' },
      })
    ).body.data.team;
    const requested = await t.call({ method: 'POST', url: `/api/teams/${team.id}/requests`, token: bob.jwt });
    await t.call({ method: 'POST', url: `/api/teams/${team.id}/requests/${requested.body.data.id}/approve`, token: anna.jwt });
    expect((await deleteAccount(bob)).status).toBe(200);
    t.clock.advance(10 * DAY);
    expect(await t.app.services.account.restore(bob.userId)).toEqual({ status: 'active', restore_until: null });
    const [user] = await t.app.db.select().from(users).where(eq(users.id, bob.userId));
    expect(user!.deletedAt).toBeNull();
    const members = (await t.call({ method: 'GET', url: `/api/public/teams/${team.id}` })).body.data.member_count;
    expect(members).toBe(1);
    // Back in business: a tip to the restored account is credited as usual.
    const tip = await tipCharged(bob.cardId, 500);
    expect(await deliverSandboxEvent(t, tip, 'payment.succeeded')).toBe('applied');
    // 500 less the 5% fee.
    expect((await userBalances(t.app.db, bob.userId)).hold).toBe(475);
  });
});

describe('the erasure past the restore window', () => {
  it('runs on time and closes the ledger accounts: main kept for the owner in unclaimed_funds, money on hold reported (never postponed)', async () => {
    const owner = await signUpWithCard(t);
    await fundMain(t, owner, 1_234);
    // Past the 24-hour hold, the first tip is released to main; the second is still held.
    t.clock.advance(DAY + 1);
    await t.runJob('payments.release');
    await receiveTip(t, owner.cardId, 500);
    const held = await userBalances(t.app.db, owner.userId);
    expect(held.main).toBeGreaterThan(0);
    expect(held.hold).toBeGreaterThan(0);
    // Money on hold should never be on a deleted account (a deletion waits for its release): the deletion is written
    // directly, past the checks.
    const deletedAt = t.clock.now();
    await t.app.db
      .update(users)
      .set({ deletedAt, erasureDueAt: new Date(deletedAt.getTime() + 30 * DAY) })
      .where(eq(users.id, owner.userId));
    const reports: { text: string; context: ReportContext }[] = [];
    const account = createAccountService({
      ...t.app.services,
      db: t.app.db,
      errors: { message: (text, context) => reports.push({ text, context }) },
    });
    const unclaimed = await platformBalance(t.app.db, 'unclaimed_funds');
    t.clock.advance(31 * DAY);
    // Every deleted account past its window, once each (other tests' too): a job that postponed would never stop.
    for (let runs = 0; runs < 50 && (await account.eraseOne(t.clock.now())); runs += 1);
    const [user] = await t.app.db.select().from(users).where(eq(users.id, owner.userId));
    expect(user!.erasedAt).toEqual(t.clock.now());
    expect(user!.phone).toBe(`erased:${owner.userId}`);
    expect(reports).toEqual([
      {
        text: 'a deleted account still holds money on hold at its erasure',
        context: { tags: { job: 'account.erase' }, extra: { user_id: owner.userId, hold_cents: held.hold } },
      },
    ]);
    expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: held.hold, debt: 0 });
    expect(await platformBalance(t.app.db, 'unclaimed_funds')).toBe(unclaimed + held.main);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});
