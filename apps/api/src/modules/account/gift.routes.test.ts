import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries } from '../../db/schema/ledger.ts';
import { users } from '../../db/schema/users.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { platformBalances, userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { codeFor, fundMain, PAYOUT_TEST_ENV, staffWithMain } from '../payouts/payouts.test-support.ts';

/** Giving the balance to a charity card at the deletion (issue 24 item 2, docs/decisions/0029). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    // Many sign-ups and statements from one address: the limits are another test's subject.
    env: { ...PAYOUT_TEST_ENV, RATE_LIMITS: 'off' },
  });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
});

type Owner = Awaited<ReturnType<typeof signUpWithCard>>;

const staffWith = (cents: number) => staffWithMain(t, cents);
const charity = (cents = 0) => staffWithMain(t, cents, { activity_type: 'DONATION', public_name: 'Red Cross Riga' });
const give = (owner: Owner, cardId: string, amountCents: number) =>
  t.call({
    method: 'POST',
    url: '/api/user/deletion_statements',
    token: owner.jwt,
    payload: { gift: { card_id: cardId, amount_cents: amountCents } },
  });
const deletedAt = async (owner: Owner) => (await t.app.db.select().from(users).where(eq(users.id, owner.userId)))[0]!.deletedAt;
const mainOf = async (owner: Owner) => (await userBalances(t.app.db, owner.userId)).main;
const history = async (owner: Owner) => {
  const answer = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/transactions`, token: owner.jwt });
  return answer.body.data.items as {
    type: string;
    status: string;
    amount_cents: number;
    fee_cents: number;
    description: string;
    detail?: { kind: string };
  }[];
};
/** A sign-in after the deletion (its session ended), past the resend wait: the way back to a deleted account. */
async function signInAgain(owner: Owner): Promise<Owner> {
  t.clock.advance(61_000);
  await t.call({ method: 'POST', url: '/api/request-otp', payload: { username: owner.phone } });
  const signedIn = await t.call({
    method: 'POST',
    url: '/api/login_check',
    payload: { username: owner.phone, password: await t.lastCode(owner.phone) },
  });
  return { ...owner, jwt: signedIn.body.data.jwt as string };
}
const giftEntries = async (owner: Owner) =>
  (await t.app.db.select().from(ledgerEntries).where(eq(ledgerEntries.kind, 'closing_gift'))).filter((e) =>
    e.reference.includes(owner.userId),
  );

describe('a closing gift to a charity card', () => {
  it('€3.16 goes whole to the charity, with no fee, and both histories show it', async () => {
    const giver = await staffWith(316);
    const receiver = await charity(1_000);
    const before = await platformBalances(t.app.db);

    const answer = await give(giver, receiver.cardId, 316);
    expect(answer.status).toBe(200);
    expect(answer.body.data.status).toBe('deleted');
    expect(await deletedAt(giver)).not.toBeNull();
    expect(await userBalances(t.app.db, giver.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    // On the charity's main at once: nothing in it can be charged back.
    expect(await userBalances(t.app.db, receiver.userId)).toEqual({ main: 1_316, hold: 0, debt: 0 });
    // No fee, no platform account moves.
    expect(await platformBalances(t.app.db)).toEqual(before);
    expect(await giftEntries(giver)).toHaveLength(1);

    // The test clock stands still: rows of one moment come in id order, so each is found by what it is.
    const received = (await history(receiver)).find((row) => row.detail?.kind === 'closing_gift');
    expect(received).toMatchObject({
      type: 'PAYIN',
      status: 'PAID',
      amount_cents: 316,
      fee_cents: 0,
      description: 'Gift: the balance of a closed account',
      detail: { kind: 'closing_gift' },
    });
    // The giver's history, seen again after a restore.
    const back = await signInAgain(giver);
    expect((await t.call({ method: 'POST', url: '/api/user/restore', token: back.jwt })).status).toBe(200);
    expect((await history(back)).find((row) => row.detail?.kind === 'closing_gift_given')).toMatchObject({
      type: 'PAYOUT',
      status: 'PAID',
      amount_cents: 316,
      fee_cents: 0,
      description: 'Balance given to Red Cross Riga',
    });
    const french = await t.call({
      method: 'GET',
      url: `/api/clients/${back.clientId}/transactions`,
      token: back.jwt,
      headers: { 'accept-language': 'fr' },
    });
    expect(french.body.data.items.map((row: { description: string }) => row.description)).toContain(
      'Solde donné à Red Cross Riga',
    );

    // After the restore, new tips and a second deletion: a new gift of the new balance (not the first one's no-op).
    await fundMain(t, back, 200);
    expect((await give(back, receiver.cardId, 200)).status).toBe(200);
    expect(await mainOf(receiver)).toBe(1_516);
    expect(await giftEntries(giver)).toHaveLength(2);
  });

  it('the same statement sent again answers the same and gives nothing more', async () => {
    const giver = await staffWith(500);
    const receiver = await charity();
    const first = await give(giver, receiver.cardId, 500);
    expect(first.status).toBe(200);
    // The deletion ended the session: the old token is refused before anything; signed in again, the same answer.
    expect((await give(giver, receiver.cardId, 500)).status).toBe(401);
    expect((await give(await signInAgain(giver), receiver.cardId, 500)).body).toEqual(first.body);
    expect(await mainOf(receiver)).toBe(500);
    expect(await giftEntries(giver)).toHaveLength(1);
  });
});

describe('refusals change nothing', () => {
  async function expectUnchanged(giver: Owner, receiver: Owner | null, giverMain: number, receiverMain: number) {
    expect(await deletedAt(giver)).toBeNull();
    expect(await mainOf(giver)).toBe(giverMain);
    if (receiver) expect(await mainOf(receiver)).toBe(receiverMain);
    expect(await giftEntries(giver)).toEqual([]);
    expect((await history(giver)).filter((row) => row.type === 'PAYOUT')).toEqual([]);
  }

  it('a balance that moved since the preview: 409 closing_balance_changed', async () => {
    const giver = await staffWith(400);
    const receiver = await charity();
    await fundMain(t, giver, 100);
    const answer = await give(giver, receiver.cardId, 400);
    expect([answer.status, answer.body.code]).toEqual([409, 'closing_balance_changed']);
    await expectUnchanged(giver, receiver, 500, 0);
    // A gift of a balance that is not there at all is the same refusal.
    expect((await give(await staffWith(0), receiver.cardId, 1)).body.code).toBe('closing_balance_changed');
  });

  it('a card that is not a charity card, an unknown card, or the card of a deleted charity: 422 gift_not_charity', async () => {
    const giver = await staffWith(300);
    const waiter = await staffWith(0);
    const closed = await charity();
    expect((await t.call({ method: 'POST', url: '/api/user/deletion_statements', token: closed.jwt, payload: {} })).status).toBe(
      200,
    );
    for (const cardId of [waiter.cardId, crypto.randomUUID(), closed.cardId]) {
      const answer = await give(giver, cardId, 300);
      expect([answer.status, answer.body.code]).toEqual([422, 'gift_not_charity']);
      expect(answer.body.message).toBe('This card cannot receive your balance: choose the charity card of another Tipcard user');
    }
    await expectUnchanged(giver, waiter, 300, 0);
  });

  it("the giver's own charity card: 422 gift_own_card", async () => {
    const own = await charity(300);
    const answer = await give(own, own.cardId, 300);
    expect([answer.status, answer.body.code]).toEqual([422, 'gift_own_card']);
    await expectUnchanged(own, null, 300, 0);
  });

  it('a gift together with a closing payout: 422 in the error format, on the gift field', async () => {
    const giver = await staffWith(300);
    const receiver = await charity();
    const closing = await t.call({
      method: 'POST',
      url: `/api/clients/${giver.clientId}/closing-payouts`,
      token: giver.jwt,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { method_id: giver.methodId },
    });
    const code = await codeFor(t, giver.phone, closing.body.data.id);
    const answer = await t.call({
      method: 'POST',
      url: '/api/user/deletion_statements',
      token: giver.jwt,
      payload: { closing_payout: { id: closing.body.data.id, code }, gift: { card_id: receiver.cardId, amount_cents: 300 } },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'validation_failed', validation_errors: { gift: [expect.any(String)] } });
    await expectUnchanged(giver, receiver, 300, 0);
  });

  it('amounts that are not a positive int4 of cents: 422', async () => {
    const giver = await staffWith(300);
    const receiver = await charity();
    for (const amount of [0, -300, 3.5, '300', 2 ** 31]) {
      const answer = await t.call({
        method: 'POST',
        url: '/api/user/deletion_statements',
        token: giver.jwt,
        payload: { gift: { card_id: receiver.cardId, amount_cents: amount } },
      });
      expect([answer.status, answer.body.code]).toEqual([422, 'validation_failed']);
    }
    await expectUnchanged(giver, receiver, 300, 0);
  });

  it('money on hold, a debt or a withdrawal under way still block, and the gift is rolled back with them', async () => {
    const receiver = await charity();
    const held = await staffWith(300);
    // A tip that stays on hold: the release job is not run.
    await receiveTip(t, held.cardId, 200);
    const onHold = await give(held, receiver.cardId, 300);
    expect([onHold.status, onHold.body.code]).toEqual([422, 'deletion_balance_on_hold']);
    await expectUnchanged(held, receiver, 300, 0);

    const paying = await staffWith(800);
    const withdrawal = await t.call({
      method: 'POST',
      url: `/api/clients/${paying.clientId}/payouts`,
      token: paying.jwt,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { amount_cents: 300, method_id: paying.methodId },
    });
    const code = await codeFor(t, paying.phone, withdrawal.body.data.id);
    expect(
      (
        await t.call({
          method: 'POST',
          url: `/api/payouts/${withdrawal.body.data.id}/confirm`,
          token: paying.jwt,
          payload: { code },
        })
      ).status,
    ).toBe(200);
    const underWay = await give(paying, receiver.cardId, 300);
    expect([underWay.status, underWay.body.code]).toEqual([422, 'deletion_pending_payout']);
    expect(await mainOf(receiver)).toBe(0);
    expect(await deletedAt(paying)).toBeNull();
  });
});

describe('closing gift properties and races', () => {
  it('for any balance of at least a cent: the charity gets exactly it, the giver ends at 0, and the books balance', async () => {
    const receiver = await charity();
    let expected = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 100, max: 60_000 })), async (balance) => {
        const giver = await staffWith(balance);
        const before = await platformBalances(t.app.db);
        expect((await give(giver, receiver.cardId, balance)).status).toBe(200);
        expected += balance;
        expect(await userBalances(t.app.db, giver.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
        expect(await mainOf(receiver)).toBe(expected);
        expect(await platformBalances(t.app.db)).toEqual(before);
        expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });

  it('the same statement twice at once gives once', async () => {
    const giver = await staffWith(700);
    const receiver = await charity();
    const answers = await Promise.all([give(giver, receiver.cardId, 700), give(giver, receiver.cardId, 700)]);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(answers.every((a) => a.status === 200 || a.status === 401)).toBe(true);
    expect(await mainOf(receiver)).toBe(700);
    expect(await giftEntries(giver)).toHaveLength(1);
  });

  it('a gift racing a tip release gives exactly main or nothing', async () => {
    const receiver = await charity();
    for (let round = 0; round < 3; round++) {
      const giver = await staffWith(500);
      await receiveTip(t, giver.cardId, 300);
      const before = await mainOf(receiver);
      const [answer] = await Promise.all([give(giver, receiver.cardId, 500), t.runJob('payments.release')]);
      const given = (await mainOf(receiver)) - before;
      // Either way the hold blocks or the released main no longer matches: nothing is given; never a part of it.
      expect(given === 0 || given === 500).toBe(true);
      expect(answer.status === 200).toBe(given === 500);
      if (given === 0) expect(await mainOf(giver)).toBe(800);
      expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    }
  });

  it('a gift racing a withdrawal never gives more or less than main', async () => {
    const receiver = await charity();
    for (let round = 0; round < 3; round++) {
      const giver = await staffWith(1_000);
      // The withdrawal as the app makes it: asked for, then confirmed with its texted code.
      const withdraw = async () => {
        const asked = await t.call({
          method: 'POST',
          url: `/api/clients/${giver.clientId}/payouts`,
          token: giver.jwt,
          headers: { 'idempotency-key': crypto.randomUUID() },
          payload: { amount_cents: 300, method_id: giver.methodId },
        });
        if (asked.status !== 201) return asked.status;
        const code = await codeFor(t, giver.phone, asked.body.data.id);
        return (
          await t.call({ method: 'POST', url: `/api/payouts/${asked.body.data.id}/confirm`, token: giver.jwt, payload: { code } })
        ).status;
      };
      const before = await mainOf(receiver);
      const [gift, withdrawn] = await Promise.all([give(giver, receiver.cardId, 1_000), withdraw()]);
      const given = (await mainOf(receiver)) - before;
      if (gift.status === 200) {
        expect([given, await mainOf(giver)]).toEqual([1_000, 0]);
        expect(withdrawn).not.toBe(200);
      } else if (gift.body.code === 'closing_balance_changed') {
        // The withdrawal was confirmed first: main no longer holds what the statement gives, so nothing is given.
        expect([given, withdrawn, await mainOf(giver)]).toEqual([0, 200, 500]);
      } else {
        // A withdrawal asked for blocks the deletion until it is confirmed or expires.
        expect([gift.body.code, given]).toEqual(['deletion_pending_payout', 0]);
        expect(await mainOf(giver)).toBe(withdrawn === 200 ? 500 : 1_000);
      }
      expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    }
  });

  it('a charity deleting its account while a gift to it arrives: the money never lands on a deleted account', async () => {
    for (let round = 0; round < 3; round++) {
      const giver = await staffWith(400);
      const receiver = await charity();
      const [gift, closing] = await Promise.all([
        give(giver, receiver.cardId, 400),
        t.call({ method: 'POST', url: '/api/user/deletion_statements', token: receiver.jwt, payload: {} }),
      ]);
      // One of the two goes through and the other is refused: the gift by the deleted charity, the deletion by the money.
      expect([gift.status, closing.status].filter((status) => status === 200)).toHaveLength(1);
      if (gift.status === 200) expect([closing.body.code, await mainOf(receiver)]).toEqual(['deletion_balance', 400]);
      else expect([gift.body.code, await mainOf(receiver), await mainOf(giver)]).toEqual(['gift_not_charity', 0, 400]);
    }
  });
});
