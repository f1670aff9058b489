import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tipBreakdown } from '@tipcard/shared/payments/fees';
import { transactionsQuery } from '@tipcard/shared/transactions/schemas';
import { referralRewards } from '../../db/schema/referrals.ts';
import { deliverDueSandboxEvents, openPayment, payAtSandboxCheckout, receiveTip } from '../../test/sandbox-events.ts';
import { CARD_INPUT, createTestApp, signUpWithCard, uniquePhone, type TestApp } from '../../test/test-app.ts';
import { platformBalance, postEntry, userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { maskPhone, recordReferral, rewardOf } from './referrals.service.ts';

const DAY = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { FEE_PERCENT: '5', RATE_LIMITS: 'off' } });
});
afterAll(() => t.close());

/** A friend who signs up through the referrer's link and makes a card; answers the friend's ids. */
async function inviteFriend(code: string, publicName: string | null = 'Marta') {
  const phone = uniquePhone();
  const registered = await t.call({
    method: 'POST',
    url: '/api/register',
    payload: { username: phone, age_confirmed: true, terms_accepted: true, referral_code: code },
  });
  expect(registered.status).toBe(200);
  const verified = await t.call({
    method: 'POST',
    url: `/api/register/${registered.body.data.uuid}/verify`,
    payload: { code: await t.lastCode(phone) },
  });
  const jwt = verified.body.data.jwt as string;
  const me = (await t.call({ method: 'GET', url: '/api/me', token: jwt })).body.data;
  let cardId = '';
  if (publicName) {
    const card = await t.call({
      method: 'POST',
      url: `/api/clients/${me.clients[0].id}/cards`,
      token: jwt,
      payload: { ...CARD_INPUT, public_name: publicName },
    });
    cardId = card.body.data.id;
  }
  return { phone, userId: me.id as string, cardId };
}

async function referrer() {
  const user = await signUpWithCard(t);
  const me = (await t.call({ method: 'GET', url: '/api/me', token: user.jwt })).body.data;
  return { ...user, code: me.referral_code as string };
}
type Referrer = Awaited<ReturnType<typeof referrer>>;

const summaryOf = async (user: Referrer) =>
  (await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/referrals`, token: user.jwt })).body.data;
const listOf = async (user: Referrer) =>
  (await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/referrals/list`, token: user.jwt })).body.data;
// Once the test clock has moved past the 15-minute access tokens, the same answers straight from the services.
const summaryLater = (user: Referrer) => t.app.services.referrals.summary(user.userId, user.clientId);
const listLater = (user: Referrer) => t.app.services.referrals.list(user.userId, user.clientId);
const referralPayins = async (user: Referrer) =>
  (await t.app.services.transactions.list(user.userId, user.clientId, transactionsQuery.parse({ type: 'REFERRAL_PAYIN' }))).items;

/** A tip paid at the sandbox's checkout with its form, its event (carrying the payer reference) delivered. */
async function tipAtCheckout(cardId: string, cents: number, form: string) {
  const payment = await openPayment(t, cardId, cents);
  await payAtSandboxCheckout(t, payment, form);
  // The sandbox sends its event half a second after the payment (its default delay).
  await deliverDueSandboxEvents(t, () => new Date(t.clock.now().getTime() + 1_000));
  expect((await t.call({ method: 'GET', url: `/api/public/payments/${payment.id}` })).body.data.status).toBe('succeeded');
  return payment;
}

/** The sandbox's succeeding test cards: five different payers. */
const PAYER_CARDS = ['4242424242424242', '5555555555554444', '4000056655665556', '4000000000000341', '4000000000009995'];
const refund = (paymentId: string, cents: number) => t.app.services.payments.refundPayment(paymentId, cents, crypto.randomUUID());

describe('referral programme', () => {
  it('shows the link, code and rule, and the invited friend by public name or masked phone', async () => {
    const user = await referrer();
    expect(await summaryOf(user)).toMatchObject({
      code: user.code,
      link: `${t.app.config.publicUrl}/registration?ref=${user.code}`,
      friends: 0,
      earned_cents: 0,
      pending_cents: 0,
      cap_cents: 1000,
      window_days: 90,
      min_payers: 3,
    });
    await inviteFriend(user.code, 'Marta');
    const cardless = await inviteFriend(user.code, null);
    const list = await listOf(user);
    expect(list.map((f: { name: string }) => f.name).sort()).toEqual([maskPhone(cardless.phone), 'Marta'].sort());
    expect(maskPhone(cardless.phone)).not.toContain(cardless.phone.slice(4, -2));
    expect(list.every((f: { status: string; earned_cents: number }) => f.status === 'pending' && f.earned_cents === 0)).toBe(
      true,
    );
    expect((await summaryOf(user)).friends).toBe(2);
    const other = await signUpWithCard(t);
    expect((await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/referrals/list`, token: other.jwt })).status).toBe(
      404,
    );
  });

  it('names the inviter of a referral link by their public name, in any case, and nobody for an unknown code', async () => {
    const user = await referrer();
    const lookup = (code: string) => t.call({ method: 'GET', url: `/api/public/referrals/${encodeURIComponent(code)}` });
    expect(await lookup(user.code)).toMatchObject({ status: 200, body: { data: { inviter_name: 'Anna' } } });
    expect((await lookup(user.code.toLowerCase())).body.data).toEqual({ inviter_name: 'Anna' });
    expect(await lookup('NOSUCHCODE')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await lookup('x'.repeat(33))).status).toBe(404);
    const cardless = await inviteFriend(user.code, null);
    const cardlessCode = (await t.app.services.me.get(cardless.userId)).referral_code;
    expect((await lookup(cardlessCode)).status).toBe(404);
  });

  it('pays one REFERRAL_PAYIN of 10 EUR as soon as the cap is reached with tips from 3 payers', async () => {
    const user = await referrer();
    const friend = await inviteFriend(user.code);
    for (const cents of [20_000, 20_000]) await receiveTip(t, friend.cardId, cents);
    t.clock.advance(DAY);
    // 20 EUR of fees but only two payers so far: nothing yet.
    await t.runJob('referrals.reward');
    expect(await referralPayins(user)).toEqual([]);
    expect((await summaryLater(user)).pending_cents).toBe(1000);
    await receiveTip(t, friend.cardId, 300);
    t.clock.advance(DAY);
    await t.runJob('referrals.reward');
    expect(await referralPayins(user)).toMatchObject([{ amount_cents: 1000, status: 'PAID' }]);
    expect((await userBalances(t.app.db, user.userId)).main).toBe(1000);
    expect(await summaryLater(user)).toMatchObject({ earned_cents: 1000, pending_cents: 0 });
    expect((await listLater(user))[0]).toMatchObject({ status: 'paid', earned_cents: 1000 });
    // Later tips change nothing: one reward per friend.
    await receiveTip(t, friend.cardId, 20_000);
    t.clock.advance(2 * DAY);
    await t.runJob('referrals.reward');
    expect(await referralPayins(user)).toHaveLength(1);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('pays nothing to a referrer who deleted the account: the reward due is void', async () => {
    const user = await referrer();
    const friend = await inviteFriend(user.code);
    for (const cents of [20_000, 20_000, 300]) await receiveTip(t, friend.cardId, cents);
    expect((await t.call({ method: 'POST', url: '/api/user/deletion_statements', token: user.jwt, payload: {} })).status).toBe(
      200,
    );
    t.clock.advance(DAY);
    expect(await t.runJob('referrals.reward')).toBeGreaterThanOrEqual(1);
    expect(await userBalances(t.app.db, user.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    const [reward] = await t.app.db.select().from(referralRewards).where(eq(referralRewards.friendUserId, friend.userId));
    expect(reward).toMatchObject({ status: 'void', amountCents: 0 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('pays the fees of the 90 days when below the cap, and nothing for a friend with fewer than 3 payers', async () => {
    const user = await referrer();
    const small = await inviteFriend(user.code);
    const few = await inviteFriend(user.code);
    for (const cents of [1_000, 1_000, 1_000]) await receiveTip(t, small.cardId, cents);
    for (const cents of [50_000, 50_000]) await receiveTip(t, few.cardId, cents);
    t.clock.advance(90 * DAY);
    // After the window, tips no longer count.
    await receiveTip(t, small.cardId, 50_000);
    await t.runJob('referrals.reward');
    expect(await referralPayins(user)).toMatchObject([{ amount_cents: 150 }]);
    const list = await listLater(user);
    expect(list.map((f) => [f.status, f.earned_cents]).sort()).toEqual([
      ['paid', 150],
      ['void', 0],
    ]);
  });

  it('counts payers by the card they paid with: one card three times earns nothing, three cards earn the reward', async () => {
    const user = await referrer();
    const oneCard = await inviteFriend(user.code);
    const threeCards = await inviteFriend(user.code, 'Ilze');
    for (const spacing of ['4242424242424242', '4242 4242 4242 4242', '4242-4242-4242-4242'])
      await tipAtCheckout(oneCard.cardId, 20_000, `method=card&card_number=${spacing}`);
    for (const cardNumber of ['4242424242424242', '5555555555554444', '4000056655665556'])
      await tipAtCheckout(threeCards.cardId, 2_000, `method=card&card_number=${cardNumber}`);
    t.clock.advance(DAY);
    await t.runJob('referrals.reward');
    // 30 EUR of fees from one payer: not yet a reward; 3 EUR from three payers: accrued, paid at the window's end.
    expect(await referralPayins(user)).toEqual([]);
    t.clock.advance(90 * DAY);
    await t.runJob('referrals.reward');
    expect(await referralPayins(user)).toMatchObject([{ amount_cents: 300, status: 'PAID' }]);
    const list = await listLater(user);
    expect(list.map((f) => [f.status, f.earned_cents]).sort()).toEqual([
      ['paid', 300],
      ['void', 0],
    ]);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('counts a wallet payer once: one Apple Pay payer three times earns nothing, three wallet payers earn the reward', async () => {
    const user = await referrer();
    const oneWallet = await inviteFriend(user.code);
    const threeWallets = await inviteFriend(user.code, 'Ilze');
    for (const form of ['method=apple_pay', 'method=apple_pay&wallet_payer=1', 'method=apple_pay'])
      await tipAtCheckout(oneWallet.cardId, 20_000, form);
    for (const form of ['method=apple_pay', 'method=apple_pay&wallet_payer=2', 'method=google_pay&wallet_payer=2']) {
      await tipAtCheckout(threeWallets.cardId, 20_000, form);
    }
    t.clock.advance(DAY);
    await t.runJob('referrals.reward');
    // 30 EUR of fees each: the friend with three wallet payers reaches the cap at once, the other earns nothing.
    expect(await referralPayins(user)).toMatchObject([{ amount_cents: 1000, status: 'PAID' }]);
    t.clock.advance(90 * DAY);
    await t.runJob('referrals.reward');
    expect(await referralPayins(user)).toHaveLength(1);
    expect((await listLater(user)).map((f) => [f.status, f.earned_cents]).sort()).toEqual([
      ['paid', 1000],
      ['void', 0],
    ]);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('never refers a user to themself, and ignores an unknown code', async () => {
    const user = await referrer();
    await t.app.db.transaction((tx) =>
      recordReferral(tx, { referrerUserId: user.userId, friendUserId: user.userId, joinedAt: t.clock.now() }),
    );
    const stranger = await inviteFriend('NOSUCHCODE');
    expect(stranger.userId).toBeTruthy();
    expect(await listLater(user)).toEqual([]);
  });

  it('50 concurrent reward job runs pay one REFERRAL_PAYIN of at most 10 EUR', async () => {
    const user = await referrer();
    const friend = await inviteFriend(user.code);
    for (const cents of [30_000, 30_000, 30_000]) await receiveTip(t, friend.cardId, cents);
    t.clock.advance(DAY);
    const job = t.app.services.jobs.find((candidate) => candidate.name === 'referrals.reward')!;
    const now = t.clock.now();
    const runs = await Promise.all(Array.from({ length: 50 }, () => job.runOne(now)));
    expect(runs.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    const payins = await referralPayins(user);
    expect(payins).toHaveLength(1);
    expect(payins[0]!.amount_cents).toBe(1000);
    expect((await userBalances(t.app.db, user.userId)).main).toBe(1000);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('property: the reward is min(fees in the window, 10 EUR) once 3 payers tipped', async () => {
    // Its own app: sign-ups are rate limited per address, and this test makes many.
    const shared = t;
    t = await createTestApp({ env: { FEE_PERCENT: '5' } });
    try {
      const user = await referrer();
      expect([rewardOf(-5), rewardOf(0), rewardOf(999), rewardOf(1000), rewardOf(25_000)]).toEqual([0, 0, 999, 1000, 1000]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 100, max: 30_000 }), { minLength: 3, maxLength: 4 }), async (tips) => {
          const friend = await inviteFriend(user.code);
          const [expense, main] = [
            await platformBalance(t.app.db, 'referral_expense'),
            (await userBalances(t.app.db, user.userId)).main,
          ];
          for (const cents of tips) await receiveTip(t, friend.cardId, cents);
          t.clock.advance(90 * DAY);
          await t.runJob('referrals.reward');
          const fees = tips.reduce((sum, cents) => sum + tipBreakdown(cents, 5, false).feeCents, 0);
          const expected = Math.min(fees, 1000);
          expect((await userBalances(t.app.db, user.userId)).main - main).toBe(expected);
          expect(await platformBalance(t.app.db, 'referral_expense')).toBe(expense - expected);
        }),
        // Guests' payments are limited to 30 a minute per address: 6 runs of at most 4 tips stay under it.
        { numRuns: 6 },
      );
      expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    } finally {
      await t.close();
      t = shared;
    }
  });
  it('property: a paid reward stands exactly while tips of 3 payers are not wholly refunded, and is taken back once', async () => {
    // Its own app: guests' payments and sign-ups are rate limited per address, and this test makes many.
    const shared = t;
    t = await createTestApp({ env: { FEE_PERCENT: '5' } });
    try {
      const user = await referrer();
      await fc.assert(
        fc.asyncProperty(
          // Tips by payer (an index into the test cards) with what is refunded of each: nothing, part or all.
          fc
            .array(fc.record({ payer: fc.integer({ min: 0, max: 4 }), refunded: fc.constantFrom('none', 'part', 'all') }), {
              minLength: 3,
              maxLength: 5,
            })
            .filter((tips) => new Set(tips.map((tip) => tip.payer)).size >= 3),
          async (tips) => {
            const friend = await inviteFriend(user.code);
            const before = {
              main: (await userBalances(t.app.db, user.userId)).main,
              expense: await platformBalance(t.app.db, 'referral_expense'),
            };
            const paid = [];
            for (const tip of tips)
              paid.push(await tipAtCheckout(friend.cardId, 20_000, `method=card&card_number=${PAYER_CARDS[tip.payer]}`));
            t.clock.advance(DAY);
            await t.runJob('referrals.reward');
            expect((await userBalances(t.app.db, user.userId)).main - before.main).toBe(1000);
            for (const [i, tip] of tips.entries())
              if (tip.refunded !== 'none') await refund(paid[i]!.id, tip.refunded === 'all' ? 20_000 : 7_000);
            const payersLeft = new Set(tips.filter((tip) => tip.refunded !== 'all').map((tip) => tip.payer)).size;
            const stands = payersLeft >= 3;
            // The newest friend is this run's.
            expect((await listLater(user))[0]!.status).toBe(stands ? 'paid' : 'taken_back');
            expect((await userBalances(t.app.db, user.userId)).main - before.main).toBe(stands ? 1000 : 0);
            expect(await platformBalance(t.app.db, 'referral_expense')).toBe(before.expense - (stands ? 1000 : 0));
          },
        ),
        // Guests' payments are limited to 30 a minute per address: 5 runs of at most 5 tips stay under it.
        { numRuns: 5 },
      );
      expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    } finally {
      await t.close();
      t = shared;
    }
  });
});

describe('referral rewards taken back', () => {
  // Their own app: sign-ups and guests' payments are rate limited per address, and these tests make many.
  let shared: TestApp;
  beforeAll(async () => {
    shared = t;
    t = await createTestApp({ env: { FEE_PERCENT: '5' } });
  });
  afterAll(async () => {
    await t.close();
    t = shared;
  });

  it('takes a paid reward back when refunds leave the friend short of 3 payers: from main, the rest as debt, once', async () => {
    const user = await referrer();
    const friend = await inviteFriend(user.code);
    const tips = [];
    for (const card of PAYER_CARDS.slice(0, 3))
      tips.push(await tipAtCheckout(friend.cardId, 20_000, `method=card&card_number=${card}`));
    t.clock.advance(DAY);
    await t.runJob('referrals.reward');
    expect((await userBalances(t.app.db, user.userId)).main).toBe(1000);
    const expense = await platformBalance(t.app.db, 'referral_expense');
    // The referrer has meanwhile spent 6 EUR of it (a balanced entry standing for any way money leaves main).
    await t.app.db.transaction((tx) =>
      postEntry(tx, {
        kind: 'test_spent',
        reference: `test:${user.userId}:spent`,
        postings: [
          { account: { userId: user.userId, kind: 'main' }, amountCents: -600 },
          { account: { platform: 'card_sales' }, amountCents: 600 },
        ],
      }),
    );

    // A partial refund leaves the payer counted: the reward stands.
    await refund(tips[0]!.id, 5_000);
    expect((await listLater(user))[0]).toMatchObject({ status: 'paid', earned_cents: 1000 });
    // The rest of it leaves two payers: taken back, 4 EUR from main and 6 EUR as debt.
    await refund(tips[0]!.id, 15_000);
    expect(await userBalances(t.app.db, user.userId)).toMatchObject({ main: 0, debt: -600 });
    expect(await platformBalance(t.app.db, 'referral_expense')).toBe(expense + 1000);
    expect((await listLater(user))[0]).toMatchObject({ status: 'taken_back', earned_cents: 0 });
    expect(await summaryLater(user)).toMatchObject({ earned_cents: 0, pending_cents: 0 });
    // Another refund, and the reward job, change nothing more.
    await refund(tips[1]!.id, 20_000);
    t.clock.advance(90 * DAY);
    await t.runJob('referrals.reward');
    expect(await userBalances(t.app.db, user.userId)).toMatchObject({ main: 0, debt: -600 });
    expect(await platformBalance(t.app.db, 'referral_expense')).toBe(expense + 1000);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('two refunds at once that together leave the friend short of 3 payers take the reward back, once', async () => {
    const user = await referrer();
    const friend = await inviteFriend(user.code);
    const tips = [];
    for (const card of PAYER_CARDS.slice(0, 4))
      tips.push(await tipAtCheckout(friend.cardId, 20_000, `method=card&card_number=${card}`));
    t.clock.advance(DAY);
    await t.runJob('referrals.reward');
    expect((await userBalances(t.app.db, user.userId)).main).toBe(1000);
    const expense = await platformBalance(t.app.db, 'referral_expense');
    // Each refund alone leaves 3 payers; the later of the two sees both.
    await Promise.all([refund(tips[0]!.id, 20_000), refund(tips[1]!.id, 20_000)]);
    expect(await userBalances(t.app.db, user.userId)).toMatchObject({ main: 0, debt: 0 });
    expect(await platformBalance(t.app.db, 'referral_expense')).toBe(expense + 1000);
    expect((await listLater(user))[0]).toMatchObject({ status: 'taken_back' });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});
