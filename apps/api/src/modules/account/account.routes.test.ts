import { inflateRawSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cards } from '../../db/schema/cards.ts';
import { payments } from '../../db/schema/payments.ts';
import { sandboxCharges } from '../../db/schema/sandbox.ts';
import { supportTickets } from '../../db/schema/support.ts';
import { payoutMethods, payouts } from '../../db/schema/payouts.ts';
import { transactions } from '../../db/schema/transactions.ts';
import { users } from '../../db/schema/users.ts';
import { verifications } from '../../db/schema/verification.ts';
import { deliverSandboxEvent, openPayment, payAtSandboxCheckout, receiveTip, sandboxRefOf } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { readFile, storeFile } from '../files/files.service.ts';
import { platformBalances, userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { createSandboxRail } from '../payouts/payouts.service.ts';
import { codeFor, fundMain, runPayoutWork, SEPA_METHOD } from '../payouts/payouts.test-support.ts';
import { createAccountService, purgeCutoff } from './account.service.ts';

let t: TestApp;
beforeAll(async () => {
  // Rate limits off: the deletion race signs up a user per round, more than one address may register in an hour.
  t = await createTestApp({
    env: {
      FEE_PERCENT: '0',
      HOLD_HOURS: '0',
      SANDBOX_PAYOUT_DELAY_MS: '0',
      VERIFICATION_LIMIT_CENTS: '100000',
      RATE_LIMITS: 'off',
    },
  });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
});

type Owner = Awaited<ReturnType<typeof signUpWithCard>>;
const DAY = 24 * 60 * 60 * 1000;

const deleteAccount = (owner: Owner) =>
  t.call({ method: 'POST', url: '/api/user/deletion_statements', token: owner.jwt, payload: {} });
const restore = (jwt: string) => t.call({ method: 'POST', url: '/api/user/restore', token: jwt, payload: {} });
const me = (jwt: string) => t.call({ method: 'GET', url: '/api/me', token: jwt });
const myCards = (owner: Owner, jwt = owner.jwt) =>
  t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/cards`, token: jwt });
/** The deletion through the service, answered like the route (its error code, or 200). */
const deletedByService = (owner: Owner) =>
  t.app.services.account.requestDeletion(owner.userId).then(
    () => ({ status: 200, body: {} as { code?: string } }),
    (error: { statusCode?: number; code?: string }) => ({ status: error.statusCode ?? 500, body: { code: error.code } }),
  );
const publicPayment = async (id: string) =>
  (await t.call({ method: 'GET', url: `/api/public/payments/${id}` })).body.data as { status: string };
const publicCard = (owner: Owner) => t.call({ method: 'GET', url: `/api/public/cards/${owner.cardId}` });

async function signIn(phone: string): Promise<string> {
  t.clock.advance(61_000);
  const requested = await t.call({ method: 'POST', url: '/api/request-otp', payload: { username: phone } });
  if (requested.status !== 200) return `request-otp ${requested.status} ${requested.body.errors?.[0]}`;
  const signed = await t.call({
    method: 'POST',
    url: '/api/login_check',
    payload: { username: phone, password: await t.lastCode(phone) },
  });
  return signed.body.data.jwt as string;
}

async function withdrawEverything(owner: Owner, cents: number) {
  const method = (
    await t.call({ method: 'POST', url: `/api/clients/${owner.clientId}/payout-methods`, token: owner.jwt, payload: SEPA_METHOD })
  ).body.data;
  const created = await t.call({
    method: 'POST',
    url: `/api/clients/${owner.clientId}/payouts`,
    token: owner.jwt,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { amount_cents: cents - 200, method_id: method.id },
  });
  expect(created.status).toBe(201);
  const confirmed = await t.call({
    method: 'POST',
    url: `/api/payouts/${created.body.data.id}/confirm`,
    token: owner.jwt,
    payload: { code: await codeFor(t, owner.phone, created.body.data.id) },
  });
  expect(confirmed.body.data.status).toBe('in_flight');
}

const payoutWorker = () =>
  runPayoutWork(
    { db: t.app.db, log: t.app.log, rail: createSandboxRail(t.app.db, 0), debtor: t.app.config.payouts.debtor },
    t.clock.now(),
  );

describe('account deletion: refusals', () => {
  it('refuses while money is on hold or available, with its reason, and changes nothing', async () => {
    const owner = await signUpWithCard(t);
    await receiveTip(t, owner.cardId, 500);
    const refused = await deleteAccount(owner);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'deletion_balance_on_hold',
      errors: ['Part of your balance is still on hold: delete your account once it is available'],
    });
    await t.runJob('payments.release');
    expect((await deleteAccount(owner)).body.code).toBe('deletion_balance');
    expect((await me(owner.jwt)).body.data.deletion).toBeNull();
    expect((await myCards(owner)).status).toBe(200);
    expect((await publicCard(owner)).status).toBe(200);
  });

  it('refuses while a withdrawal is on its way, and accepts once it has arrived', async () => {
    const owner = await signUpWithCard(t);
    await fundMain(t, owner, 1000);
    await withdrawEverything(owner, 1000);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 0, hold: 0 });
    const refused = await deleteAccount(owner);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('deletion_pending_payout');
    expect((await payoutWorker()).paid).toBeGreaterThanOrEqual(1);
    expect((await deleteAccount(owner)).status).toBe(200);
  });

  it('asks the blockers it is given (the team-admin hook) inside its transaction', async () => {
    const owner = await signUpWithCard(t);
    const account = createAccountService({
      ...t.app.services,
      db: t.app.db,
      blockers: [async (_tx, userId) => (userId === owner.userId ? 'deletion_team_admin' : null)],
    });
    await expect(account.requestDeletion(owner.userId)).rejects.toMatchObject({ code: 'deletion_team_admin', statusCode: 422 });
    expect((await me(owner.jwt)).body.data.deletion).toBeNull();
  });
});

describe('account deletion: accepted, restore and erasure', () => {
  it('ends every session, stops the cards, and a sign-in within 30 days restores the account', async () => {
    const owner = await signUpWithCard(t);
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#1e3a8a' } })
      .png()
      .toBuffer();
    const photo = await t.call({
      method: 'POST',
      url: `/api/cards/${owner.cardId}/photo`,
      token: owner.jwt,
      payload: { content: png.toString('base64'), name: 'me.png', mime: 'image/png' },
    });
    expect(photo.status).toBe(200);
    const photoStatus = async () => (await t.app.inject({ method: 'GET', url: `/api/cards/${owner.cardId}/photo` })).statusCode;
    expect(await photoStatus()).toBe(200);
    const deleted = await deleteAccount(owner);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({
      status: 'deleted',
      restore_until: new Date(t.clock.now().getTime() + 30 * DAY).toISOString(),
    });
    expect(String(deleted.headers['set-cookie'])).toContain('refresh__key=;');
    // Every session: the refresh token is dead, the access token opens nothing at all (plugins/auth.test.ts asks
    // every operation), not even the deletion again.
    expect((await deleteAccount(owner)).status).toBe(401);
    expect(
      (await t.call({ method: 'POST', url: '/api/refresh-token', payload: { refreshToken: owner.refreshToken } })).status,
    ).toBe(403);
    expect((await myCards(owner)).status).toBe(401);
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/tickets`, token: owner.jwt })).status).toBe(401);
    // The card takes no payment: its page is "no longer active".
    expect((await publicCard(owner)).status).toBe(404);
    expect(await photoStatus()).toBe(404);
    const tip = await t.call({
      method: 'POST',
      url: `/api/public/cards/${owner.cardId}/payments`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { amount_cents: 500, cover_fee: false, terms_accepted: true },
    });
    expect(tip.status).toBe(404);

    t.clock.advance(29 * DAY);
    const jwt = await signIn(owner.phone);
    // Asking again, signed in anew, answers the same.
    expect((await deleteAccount({ ...owner, jwt })).body.data).toEqual(deleted.body.data);
    expect((await me(jwt)).body.data.deletion).toEqual({
      deleted_at: expect.any(String),
      restore_until: deleted.body.data.restore_until,
    });
    const restored = await restore(jwt);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toEqual({ status: 'active', restore_until: null });
    expect((await me(jwt)).body.data.deletion).toBeNull();
    expect((await myCards(owner, jwt)).status).toBe(200);
    expect((await publicCard(owner)).status).toBe(200);
    expect(await photoStatus()).toBe(200);
    // Restoring an active account changes nothing.
    expect((await restore(jwt)).body.data.status).toBe('active');
  });

  it('after 30 days: no restore, and the job erases personal data while the books stay', async () => {
    const owner = await signUpWithCard(t);
    await fundMain(t, owner, 1000);
    await withdrawEverything(owner, 1000);
    await payoutWorker();
    const ticket = await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/tickets`,
      token: owner.jwt,
      payload: { title: 'Bye', message: 'Leaving' },
    });
    expect(ticket.status).toBe(201);
    const jwt = await signIn(owner.phone);
    expect((await deleteAccount({ ...owner, jwt })).status).toBe(200);
    const history = await t.app.db.select().from(transactions).where(eq(transactions.userId, owner.userId));
    expect(history.length).toBe(2);

    const erasedAt = async () => (await t.app.db.select().from(users).where(eq(users.id, owner.userId)))[0]!.erasedAt;
    t.clock.advance(29 * DAY);
    await t.runJob('account.erase');
    expect(await erasedAt()).toBeNull();
    t.clock.advance(1 * DAY);
    // Signing in still works until the job has run, but the restore window has closed.
    expect((await restore(await signIn(owner.phone))).body.code).toBe('restore_expired');
    expect(await t.runJob('account.erase')).toBeGreaterThanOrEqual(1);

    const [user] = await t.app.db.select().from(users).where(eq(users.id, owner.userId));
    expect(user).toMatchObject({ phone: `erased:${owner.userId}`, promoSource: null, erasedAt: t.clock.now() });
    const [card] = await t.app.db.select().from(cards).where(eq(cards.id, owner.cardId));
    expect(card).toMatchObject({ title: '', publicName: '', welcomePhrase: null, photoFileId: null });
    expect(await t.app.db.select().from(supportTickets).where(eq(supportTickets.userId, owner.userId))).toEqual([]);
    const outbox = await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(owner.phone)}` });
    expect(outbox.body.data).toEqual([]);
    // The books and the history stay, under the pseudonymous id.
    expect(await t.app.db.select().from(transactions).where(eq(transactions.userId, owner.userId))).toHaveLength(2);
    // The number is free: signing in finds no one, and it may register as a new person.
    expect(await signIn(owner.phone)).toBe('request-otp 403 User not found');
    const again = await t.call({
      method: 'POST',
      url: '/api/register',
      payload: { username: owner.phone, age_confirmed: true, terms_accepted: true },
    });
    expect(again.status).toBe(200);
    // Run twice, nothing more to do.
    expect(await t.runJob('account.erase')).toBe(0);
  });

  it('a tip paid after the deletion never reaches the account: it is given back, and the erasure runs on time', async () => {
    const owner = await signUpWithCard(t);
    const payment = await openPayment(t, owner.cardId, 700);
    await payAtSandboxCheckout(t, payment);
    expect((await deleteAccount(owner)).status).toBe(200);
    // The guest had already reached the checkout: the payment is received, and goes back to them, not to the account.
    expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');
    expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect(await t.runJob('payments.give-back')).toBe(1);
    expect((await publicPayment(payment.id)).status).toBe('refunded');
    t.clock.advance(31 * DAY);
    expect(await t.runJob('account.erase')).toBeGreaterThanOrEqual(1);
    const [user] = await t.app.db.select().from(users).where(eq(users.id, owner.userId));
    expect(user!.erasedAt).toEqual(t.clock.now());
    expect(user!.phone).toBe(`erased:${owner.userId}`);
  });
});

/** The files of a ZIP, read from its central directory (APPNOTE 4.3.12), each inflated and checked against its size. */
function unzip(archive: Buffer): Record<string, string> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i += 1) {
    expect(archive.readUInt32LE(at)).toBe(0x02014b50);
    const method = archive.readUInt16LE(at + 10);
    const packedSize = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localAt = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = localAt + 30 + archive.readUInt16LE(localAt + 26) + archive.readUInt16LE(localAt + 28);
    const packed = archive.subarray(dataAt, dataAt + packedSize);
    const raw = method === 8 ? inflateRawSync(packed) : packed;
    expect(raw.length).toBe(size);
    out[name] = raw.toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}

describe('data export', () => {
  it("gives a ZIP of exactly the user's own rows: profile, cards, transactions, payouts, tickets, verification", async () => {
    const owner = await signUpWithCard(t, { public_name: 'Līga' });
    const other = await signUpWithCard(t, { public_name: 'Other' });
    await receiveTip(t, owner.cardId, 400, { message: '=HYPERLINK("x")' });
    await receiveTip(t, other.cardId, 900);
    await fundMain(t, owner, 1000);
    await withdrawEverything(owner, 1400);
    await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/tickets`,
      token: owner.jwt,
      payload: { title: 'Mine', message: 'Hello' },
    });
    await t.call({
      method: 'POST',
      url: `/api/clients/${other.clientId}/tickets`,
      token: other.jwt,
      payload: { title: 'Theirs', message: 'Secret' },
    });

    const response = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${owner.clientId}/export`,
      headers: { authorization: `Bearer ${owner.jwt}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="tipcard-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = unzip(response.rawPayload);
    expect(Object.keys(files)).toEqual([
      'profile.json',
      'cards.json',
      'transactions.csv',
      'payouts.csv',
      'tickets.json',
      'verification.json',
    ]);

    const profile = JSON.parse(files['profile.json']!);
    expect(profile).toMatchObject({ id: owner.userId, phone: owner.phone, public_name: 'Līga' });
    expect(JSON.parse(files['cards.json']!)).toEqual([expect.objectContaining({ id: owner.cardId, public_name: 'Līga' })]);
    const transactionLines = files['transactions.csv']!.trim().split('\r\n');
    expect(transactionLines[0]).toBe('id,type,status,amount,fee,currency,created_at,settled_at,description,message,rating');
    expect(transactionLines).toHaveLength(1 + 3); // two tips and one payout, none of the other user's
    expect(files['transactions.csv']).toContain(`'=HYPERLINK(""x"")`);
    const payoutLines = files['payouts.csv']!.trim().split('\r\n');
    expect(payoutLines).toHaveLength(2);
    expect(payoutLines[1]).toContain(',in_flight,12.00,2.00,EUR,');
    const tickets = JSON.parse(files['tickets.json']!);
    expect(tickets.map((x: { title: string }) => x.title)).toEqual(['Mine']);
    expect(tickets[0].messages).toEqual([expect.objectContaining({ author: 'user', message: 'Hello' })]);
    expect(JSON.parse(files['verification.json']!)).toEqual({
      status: 'not_started',
      kind: null,
      reason: null,
      submitted_at: null,
      reviewed_at: null,
      // The verification answer as the app shows it: the limit that asks for it.
      limit_cents: 100_000,
    });
    expect(JSON.stringify(files)).not.toContain(other.userId);
    expect(JSON.stringify(files)).not.toContain('Secret');

    // Another user's client: 404, nothing given.
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/export`, token: other.jwt })).status).toBe(404);
  });
});

describe('account deletion: races', () => {
  it('a deletion racing a paid tip: refused with the balance, or the tip is given back in full, once; never money on a deleted account', async () => {
    for (let round = 0; round < 20; round += 1) {
      const owner = await signUpWithCard(t);
      const payment = await openPayment(t, owner.cardId, 300);
      await payAtSandboxCheckout(t, payment);
      // Every other round calls the service straight away, without the request's own work before it, so both orders
      // of the two transactions come up.
      const deletion = round % 2 === 0 ? deleteAccount(owner) : deletedByService(owner);
      const [answer, event] = await Promise.all([deletion, deliverSandboxEvent(t, payment, 'payment.succeeded')]);
      expect(event).toBe('applied');
      const [user] = await t.app.db.select().from(users).where(eq(users.id, owner.userId));
      if (answer.status === 422) {
        expect(answer.body.code).toBe('deletion_balance_on_hold');
        expect(user!.deletedAt).toBeNull();
        expect((await userBalances(t.app.db, owner.userId)).hold).toBe(300);
      } else {
        expect(answer.status).toBe(200);
        expect(user!.deletedAt).not.toBeNull();
        expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
        await Promise.all([t.runJob('payments.give-back'), t.runJob('payments.give-back')]);
        const [row] = await t.app.db.select().from(payments).where(eq(payments.id, payment.id));
        expect(row).toMatchObject({ status: 'refunded', refundedCents: 300 });
        const [charge] = await t.app.db
          .select()
          .from(sandboxCharges)
          .where(eq(sandboxCharges.providerRef, sandboxRefOf(payment)));
        expect(charge!.refundedCents).toBe(300);
        expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
      }
      expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    }
  });

  it('a deletion racing a restore and another deletion leaves one consistent state', async () => {
    const owner = await signUpWithCard(t);
    const answers = await Promise.all([deleteAccount(owner), deleteAccount(owner), deleteAccount(owner)]);
    // A twin that passed the token check before the first deletion committed waits for its lock and answers the
    // same state; one that arrives after finds the session ended (401), as every call with that token now does.
    const accepted = answers.filter((a) => a.status === 200);
    expect(answers.every((a) => a.status === 200 || a.status === 401)).toBe(true);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((a) => a.body.data.restore_until)).size).toBe(1);
    const [user] = await t.app.db.select().from(users).where(eq(users.id, owner.userId));
    expect(user!.deletedAt!.getTime() + 30 * DAY).toBe(new Date(accepted[0]!.body.data.restore_until).getTime());
  });
});

describe('notification choices', () => {
  it("turns the support-answer SMS off and on; the owner's only (payout texts: payouts.sms.test.ts)", async () => {
    const owner = await signUpWithCard(t);
    const other = await signUpWithCard(t);
    const url = `/api/clients/${owner.clientId}/notifications`;
    expect((await t.call({ method: 'GET', url, token: owner.jwt })).body.data).toEqual({
      sms_support_replies: true,
      sms_payouts: true,
      sms_refunds: true,
    });
    expect(
      (
        await t.call({
          method: 'PATCH',
          url,
          token: other.jwt,
          payload: { sms_support_replies: false, sms_payouts: true, sms_refunds: true },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.call({
          method: 'PATCH',
          url,
          token: owner.jwt,
          payload: { sms_support_replies: 'no', sms_payouts: true, sms_refunds: true },
        })
      ).status,
    ).toBe(422);
    expect((await t.call({ method: 'PATCH', url, token: owner.jwt, payload: { sms_support_replies: false } })).status).toBe(422);
    const off = await t.call({
      method: 'PATCH',
      url,
      token: owner.jwt,
      payload: { sms_support_replies: false, sms_payouts: true, sms_refunds: true },
    });
    expect(off.body.data).toEqual({ sms_support_replies: false, sms_payouts: true, sms_refunds: true });

    const ticket = (
      await t.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/tickets`,
        token: owner.jwt,
        payload: { title: 'Q', message: 'Hi' },
      })
    ).body.data.id;
    const texts = async () =>
      (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(owner.phone)}` })).body.data.length;
    const before = await texts();
    await t.app.services.support.replyAsOperator(ticket, 'Answer one');
    expect(await texts()).toBe(before);
    await t.call({
      method: 'PATCH',
      url,
      token: owner.jwt,
      payload: { sms_support_replies: true, sms_payouts: true, sms_refunds: true },
    });
    await t.app.services.support.replyAsOperator(ticket, 'Answer two');
    expect(await texts()).toBe(before + 1);
  });
});

describe('the five-year purge', () => {
  it('five years after the erasure deletes the kept records but not the books, which still balance', async () => {
    const owner = await signUpWithCard(t);
    await fundMain(t, owner, 1000);
    await withdrawEverything(owner, 1000);
    await payoutWorker();
    const documentId = await storeFile(t.app.db, {
      ownerUserId: owner.userId,
      mime: 'image/png',
      content: new Uint8Array([1, 2, 3]),
    });
    await t.app.db.insert(verifications).values({
      userId: owner.userId,
      kind: 'person',
      status: 'approved',
      details: { first_name: 'Anna' },
      documentFrontFileId: documentId,
    });
    const jwt = await signIn(owner.phone);
    expect((await deleteAccount({ ...owner, jwt })).status).toBe(200);
    t.clock.advance(31 * DAY);
    await t.runJob('account.erase');

    const userRow = async () => (await t.app.db.select().from(users).where(eq(users.id, owner.userId)))[0]!;
    const erasedAt = (await userRow()).erasedAt!;
    const postingsOfUser = async () =>
      Number(
        (
          (await t.app.db.execute(
            sql`SELECT count(*)::int AS n FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id WHERE a.owner_user_id = ${owner.userId}`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0]!.n,
      );
    const kept = { postings: await postingsOfUser(), platform: await platformBalances(t.app.db) };
    expect(kept.postings).toBeGreaterThan(0);
    const transactionsOfUser = () => t.app.db.select().from(transactions).where(eq(transactions.userId, owner.userId));
    const verificationsOfUser = () => t.app.db.select().from(verifications).where(eq(verifications.userId, owner.userId));
    expect(await transactionsOfUser()).toHaveLength(2);

    // A day short of five years: everything the law keeps is still there.
    const fiveYearsOn = new Date(erasedAt);
    fiveYearsOn.setUTCFullYear(erasedAt.getUTCFullYear() + 5);
    t.clock.advance(fiveYearsOn.getTime() - t.clock.now().getTime() - DAY);
    expect(purgeCutoff(t.clock.now()) < erasedAt).toBe(true);
    await t.runJob('account.purge');
    expect((await userRow()).purgedAt).toBeNull();
    expect(await verificationsOfUser()).toHaveLength(1);

    t.clock.advance(DAY);
    expect(await t.runJob('account.purge')).toBeGreaterThanOrEqual(1);
    expect((await userRow()).purgedAt).toEqual(t.clock.now());
    expect(await verificationsOfUser()).toEqual([]);
    expect(await readFile(t.app.db, documentId)).toBeUndefined();
    expect(await transactionsOfUser()).toEqual([]);
    const [payout] = await t.app.db.select().from(payouts).where(eq(payouts.userId, owner.userId));
    expect(payout).toMatchObject({
      status: 'paid',
      amountCents: 800,
      destHolder: '',
      destAddress: '',
      destIban: null,
      destBic: null,
    });
    const [method] = await t.app.db.select().from(payoutMethods).where(eq(payoutMethods.userId, owner.userId));
    expect(method).toMatchObject({ holder: '', address: '', iban: '', bic: '' });
    // The books: every posting stays, amounts on accounts that name no one; the platform's balances do not move.
    expect(await postingsOfUser()).toBe(kept.postings);
    expect(await platformBalances(t.app.db)).toEqual(kept.platform);
    expect(await userBalances(t.app.db, owner.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    // Once is enough.
    await t.runJob('account.purge');
    expect((await userRow()).purgedAt).toEqual(t.clock.now());
  });
});
