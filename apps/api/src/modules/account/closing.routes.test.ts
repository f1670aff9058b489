import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { closingPayoutSplit } from '@tipcard/shared/payouts/schemas';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessages } from '../../db/schema/messaging.ts';
import { payouts } from '../../db/schema/payouts.ts';
import { users } from '../../db/schema/users.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { platformBalances, userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { createSandboxRail, SANDBOX_FAILING_IBAN } from '../payouts/payouts.service.ts';
import {
  codeFor,
  fundMain,
  PAYOUT_TEST_ENV,
  runPayoutWork,
  SEPA_METHOD,
  staffWithMain,
} from '../payouts/payouts.test-support.ts';

/** Closing out an account's balance at its deletion (docs/decisions/0025): the closing payout and the dialog's preview. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: PAYOUT_TEST_ENV,
  });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
});

type Owner = Awaited<ReturnType<typeof signUpWithCard>>;

const staffWith = (cents: number) => staffWithMain(t, cents);
/** A bank account the sandbox bank returns every payout to. */
const failingMethodOf = async (owner: Owner): Promise<string> =>
  (
    await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/payout-methods`,
      token: owner.jwt,
      payload: { ...SEPA_METHOD, iban: SANDBOX_FAILING_IBAN, bic: 'HABALV22' },
    })
  ).body.data.id;
const preview = (owner: Owner) => t.call({ method: 'GET', url: '/api/user/deletion_statements/preview', token: owner.jwt });
const askClosing = (owner: Owner & { methodId: string }, key: string = crypto.randomUUID()) =>
  t.call({
    method: 'POST',
    url: `/api/clients/${owner.clientId}/closing-payouts`,
    token: owner.jwt,
    headers: { 'idempotency-key': key },
    payload: { method_id: owner.methodId },
  });
const deleteAccount = (owner: Owner, body: object = {}) =>
  t.call({ method: 'POST', url: '/api/user/deletion_statements', token: owner.jwt, payload: body });
const deleteWith = (owner: Owner, payoutId: string, code: string) =>
  deleteAccount(owner, { closing_payout: { id: payoutId, code } });
const deletedAt = async (owner: Owner) => (await t.app.db.select().from(users).where(eq(users.id, owner.userId)))[0]!.deletedAt;
const payoutsOf = (owner: Owner) => t.app.db.select().from(payouts).where(eq(payouts.userId, owner.userId));
const worker = (rail = createSandboxRail(t.app.db, 0)) =>
  runPayoutWork({ db: t.app.db, log: t.app.log, rail, debtor: t.app.config.payouts.debtor }, t.clock.now());

describe('the closing payout rule', () => {
  it('for any balance of at least a cent: something is paid out, the fee is never more than the usual fee or what is there, and the parts sum to it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000_000 }), (balance) => {
        const { amountCents, feeCents } = closingPayoutSplit(balance);
        expect(amountCents + feeCents).toBe(balance);
        expect(amountCents).toBeGreaterThanOrEqual(Math.min(balance, 300));
        expect(feeCents).toBeGreaterThanOrEqual(0);
        expect(feeCents).toBeLessThanOrEqual(Math.min(200, balance - 1));
        // From 5 EUR on, the ordinary "withdraw all" (minimum 3 EUR, fee 2 EUR).
        if (balance >= 500) expect({ amountCents, feeCents }).toEqual({ amountCents: balance - 200, feeCents: 200 });
      }),
    );
  });
});

describe('deleting an account with a small balance (issue 24: €3.16 could be neither withdrawn nor left behind)', () => {
  it('a €3.16 team share: the preview says a closing payout of 3.00 with a 0.16 fee, and the deletion with its code pays it out', async () => {
    const owner = await staffWith(316);
    const said = await preview(owner);
    expect(said.status).toBe(200);
    expect(said.body.data).toEqual({
      outcome: 'closing_payout',
      blockers: [],
      available_cents: 316,
      held_cents: 0,
      closing: { amount_cents: 300, fee_cents: 16 },
    });

    // Without the closing payout, the statement refuses, as the preview said, and changes nothing.
    expect((await deleteAccount(owner)).body.code).toBe('deletion_balance');

    const closing = await askClosing(owner);
    expect(closing.status).toBe(201);
    expect(closing.body.data).toMatchObject({ status: 'awaiting_confirmation', amount_cents: 300, fee_cents: 16 });
    const payoutId: string = closing.body.data.id;
    const code = await codeFor(t, owner.phone, payoutId);
    // Only the deletion statement confirms a closing payout: alone it would be a withdrawal under the minimum.
    expect(
      (await t.call({ method: 'POST', url: `/api/payouts/${payoutId}/confirm`, token: owner.jwt, payload: { code } })).body.code,
    ).toBe('payout_not_awaiting');
    const wrong = await deleteWith(owner, payoutId, code === '000000' ? '111111' : '000000');
    expect(wrong.body.code).toBe('wrong_code');
    expect(await deletedAt(owner)).toBeNull();
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 316 });

    const before = await platformBalances(t.app.db);
    const deleted = await deleteWith(owner, payoutId, code);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.status).toBe('deleted');
    expect(await deletedAt(owner)).not.toBeNull();
    expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    const after = await platformBalances(t.app.db);
    expect(after.fees - before.fees).toBe(16);
    expect(after.payouts_in_flight - before.payouts_in_flight).toBe(300);
    expect((await payoutsOf(owner)).map((p) => [p.status, p.closing])).toEqual([['in_flight', true]]);

    // The sandbox bank pays it; the deleted account is left with nothing.
    expect((await worker()).paid).toBeGreaterThanOrEqual(1);
    expect((await payoutsOf(owner))[0]!.status).toBe('paid');
    expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
  });

  it('up to 3 EUR goes out whole, with no fee; a return puts it back on main (no zero posting)', async () => {
    const owner = await staffWith(150);
    const closing = await askClosing({ ...owner, methodId: await failingMethodOf(owner) });
    expect(closing.body.data).toMatchObject({ amount_cents: 150, fee_cents: 0 });
    expect((await deleteWith(owner, closing.body.data.id, await codeFor(t, owner.phone, closing.body.data.id))).status).toBe(200);
    expect((await worker()).returned).toBe(1);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 150 });
  });

  it('a closing payout the bank returns after the erasure is kept for its owner in unclaimed_funds, and no text goes to the erased phone', async () => {
    const owner = await staffWith(900);
    const closing = await askClosing({ ...owner, methodId: await failingMethodOf(owner) });
    expect((await deleteWith(owner, closing.body.data.id, await codeFor(t, owner.phone, closing.body.data.id))).status).toBe(200);
    // The restore window passes while the payout is still with the bank: the account is erased first.
    t.clock.advance(31 * 86_400_000);
    expect(await t.runJob('account.erase')).toBeGreaterThanOrEqual(1);
    const before = await platformBalances(t.app.db);
    const texts = await t.app.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, `erased:${owner.userId}`));
    expect((await worker()).returned).toBeGreaterThanOrEqual(1);
    // Back on main of the closed account, then settled by the ledger's job (docs/decisions/0028).
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 900 });
    expect(await t.runJob('ledger.settle-closed')).toBeGreaterThanOrEqual(1);
    expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect((await platformBalances(t.app.db)).unclaimed_funds - before.unclaimed_funds).toBe(900);
    expect(
      await t.app.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.recipient, `erased:${owner.userId}`)),
    ).toEqual(texts);
  });

  it('refuses, changing nothing, when the balance changed after the closing payout was asked for; a new one then goes through', async () => {
    const owner = await staffWith(400);
    const first = await askClosing(owner);
    const firstCode = await codeFor(t, owner.phone, first.body.data.id);
    await fundMain(t, owner, 100);
    const refused = await deleteWith(owner, first.body.data.id, firstCode);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('closing_balance_changed');
    expect(await deletedAt(owner)).toBeNull();
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 500 });
    expect((await payoutsOf(owner)).map((p) => p.status)).toEqual(['awaiting_confirmation']);

    const second = await askClosing(owner);
    expect(second.body.data).toMatchObject({ amount_cents: 300, fee_cents: 200 });
    expect((await deleteWith(owner, second.body.data.id, await codeFor(t, owner.phone, second.body.data.id))).status).toBe(200);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 0 });
  });

  it('money on hold is not withdrawable yet: the preview says the deletion waits, and no closing code is sent', async () => {
    const owner = await staffWith(0);
    await receiveTip(t, owner.cardId, 316);
    const said = await preview(owner);
    expect(said.body.data).toEqual({
      outcome: 'blocked',
      blockers: ['deletion_balance_on_hold'],
      available_cents: 0,
      held_cents: 316,
      closing: null,
    });
    const closing = await askClosing(owner);
    expect(closing.status).toBe(422);
    expect(closing.body.code).toBe('deletion_balance_on_hold');
    expect((await deleteAccount(owner)).body.code).toBe('deletion_balance_on_hold');
    expect(await payoutsOf(owner)).toEqual([]);
  });

  it("another user's closing payout or bank account is refused, and nothing moves", async () => {
    const owner = await staffWith(316);
    const other = await staffWith(200);
    const foreign = await askClosing({ ...owner, methodId: other.methodId });
    expect([foreign.status, foreign.body.code]).toEqual([422, 'validation_failed']);
    const theirs = await askClosing(other);
    const stolen = await deleteWith(owner, theirs.body.data.id, await codeFor(t, other.phone, theirs.body.data.id));
    expect(stolen.status).toBe(404);
    expect(await deletedAt(owner)).toBeNull();
    expect([(await userBalances(t.app.db, owner.userId)).main, (await userBalances(t.app.db, other.userId)).main]).toEqual([
      316, 200,
    ]);
  });

  it('an empty account: the preview says it is deleted at once', async () => {
    const owner = await staffWith(0);
    expect((await preview(owner)).body.data).toEqual({
      outcome: 'delete',
      blockers: [],
      available_cents: 0,
      held_cents: 0,
      closing: null,
    });
    expect((await deleteAccount(owner)).status).toBe(200);
  });

  it('a deletion sent with no body at all, as the spec shows it, is one without a closing payout', async () => {
    const owner = await staffWith(0);
    const deleted = await t.call({ method: 'POST', url: '/api/user/deletion_statements', token: owner.jwt });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.status).toBe('deleted');
  });

  it('for any balance: the closing payout empties main, fees and in-flight take exactly their parts, and the books balance', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3_000 }), async (balance) => {
        const owner = await staffWith(balance);
        const before = await platformBalances(t.app.db);
        const closing = await askClosing(owner);
        const { amount_cents: amount, fee_cents: fee } = closing.body.data;
        expect(amount + fee).toBe(balance);
        expect(fee).toBeLessThan(balance);
        expect((await deleteWith(owner, closing.body.data.id, await codeFor(t, owner.phone, closing.body.data.id))).status).toBe(
          200,
        );
        const after = await platformBalances(t.app.db);
        expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
        expect([after.fees - before.fees, after.payouts_in_flight - before.payouts_in_flight]).toEqual([fee, amount]);
        expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });
});

describe('closing races', () => {
  it('the same deletion statement sent twice at once pays out once', async () => {
    const owner = await staffWith(316);
    const closing = await askClosing(owner);
    const code = await codeFor(t, owner.phone, closing.body.data.id);
    const answers = await Promise.all([
      deleteWith(owner, closing.body.data.id, code),
      deleteWith(owner, closing.body.data.id, code),
    ]);
    // The twin that lost either waits for the lock and answers the deleted state, or finds its session ended (401).
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(answers.every((a) => a.status === 200 || a.status === 401)).toBe(true);
    expect((await payoutsOf(owner)).map((p) => p.status)).toEqual(['in_flight']);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 0 });
  });

  it('two closing payouts confirmed at once: one goes, the other stays unconfirmed', async () => {
    const owner = await staffWith(316);
    const [a, b] = await Promise.all([askClosing(owner), askClosing(owner)]);
    const [codeA, codeB] = [await codeFor(t, owner.phone, a.body.data.id), await codeFor(t, owner.phone, b.body.data.id)];
    const answers = await Promise.all([deleteWith(owner, a.body.data.id, codeA), deleteWith(owner, b.body.data.id, codeB)]);
    expect(answers.some((x) => x.status === 200)).toBe(true);
    const inFlight = await t.app.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.userId, owner.userId), eq(payouts.status, 'in_flight')));
    expect(inFlight).toHaveLength(1);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 0 });
    expect(await deletedAt(owner)).not.toBeNull();
  });
});
