import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverSandboxEvent, payAtSandboxCheckout } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';

let t: TestApp;
beforeAll(async () => {
  // The sandbox's own webhook deliveries are held back: each test delivers the events it needs.
  t = await createTestApp({ env: { SANDBOX_WEBHOOK_DELAY_MS: '60000', FEE_PERCENT: '5' } });
});
afterAll(() => t.close());

const donor = {
  donor_name: 'SIA Labie Darbi',
  email: 'gifts@example.lv',
  donor_code: '40003123456',
  amount_cents: 2_000,
  cover_fee: false,
  terms_accepted: true,
};
const charity = () => signUpWithCard(t, { activity_type: 'DONATION', public_name: 'Dzīvnieku patversme' });
let donors = 0;
/** Each call from its own address: the per-IP rate limit is not what these tests are about. */
const donate = (cardId: string, body: object, key: string = crypto.randomUUID()) => {
  donors += 1;
  return t.call({
    method: 'POST',
    url: `/api/public/cards/${cardId}/donations`,
    headers: { 'idempotency-key': key },
    payload: body,
    remoteAddress: `10.20.${Math.floor(donors / 250)}.${donors % 250}`,
  });
};
const listOf = async (staff: { clientId: string; jwt: string }) =>
  (await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/donations`, token: staff.jwt })).body.data as Record<
    string,
    unknown
  >[];

async function donated(cardId: string, body: object = donor) {
  // One second apart, so "newest first" has one answer.
  t.clock.advance(1_000);
  const started = await donate(cardId, body);
  expect(started.status).toBe(201);
  const payment = started.body.data as { id: string; total_cents: number; checkout_url: string; fee_cents: number };
  await payAtSandboxCheckout(t, payment);
  expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');
  return payment;
}

describe('a one-off donation', () => {
  it('credits the charity on hold, less the fee unless the donor covers it, and lists the donor for the charity only', async () => {
    const staff = await charity();
    await donated(staff.cardId);
    const covered = await donated(staff.cardId, {
      ...donor,
      donor_name: 'Jānis Bērziņš',
      donor_code: '010190-12345',
      email: 'janis@example.lv',
      amount_cents: 1_000,
      cover_fee: true,
    });
    expect(covered).toMatchObject({ fee_cents: 50, total_cents: 1_050 });

    expect(await userBalances(t.app.db, staff.userId)).toEqual({ main: 0, hold: 1_900 + 1_000, debt: 0 });
    const history = (await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/transactions`, token: staff.jwt })).body
      .data.items;
    expect(history.map((row: { description: string; status: string }) => [row.description, row.status])).toEqual([
      ['One-off donation from Jānis Bērziņš', 'HOLD'],
      ['One-off donation from SIA Labie Darbi', 'HOLD'],
    ]);
    const list = await listOf(staff);
    expect(list).toEqual([
      expect.objectContaining({
        kind: 'one_off',
        donor_name: 'Jānis Bērziņš',
        donor_email: 'janis@example.lv',
        donor_code: '010190-12345',
        amount_cents: 1_000,
        status: 'succeeded',
        plan: null,
      }),
      expect.objectContaining({ donor_name: 'SIA Labie Darbi', amount_cents: 2_000, status: 'succeeded' }),
    ]);

    const other = await signUpWithCard(t);
    expect((await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/donations`, token: other.jwt })).status).toBe(404);
    expect(await listOf(other)).toEqual([]);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('refuses bad donor data with clear 4xx, and cards that take no donations, storing nothing', async () => {
    const staff = await charity();
    const errorsOf = async (body: object) => (await donate(staff.cardId, body)).body.validation_errors;
    expect(await errorsOf({ ...donor, donor_name: ' ' })).toEqual({ donor_name: ['This value should not be blank.'] });
    expect(await errorsOf({ ...donor, email: 'not-an-email' })).toEqual({ email: ['Invalid email address.'] });
    expect(await errorsOf({ ...donor, donor_code: '' })).toHaveProperty('donor_code');
    expect(await errorsOf({ ...donor, donor_code: '<script>' })).toHaveProperty('donor_code');
    expect(await errorsOf({ ...donor, amount_cents: 50 })).toEqual({ amount_cents: ['Enter an amount from €1.00 to €500.00'] });
    expect(await errorsOf({ ...donor, terms_accepted: false })).toHaveProperty('terms_accepted');

    const waiter = await signUpWithCard(t);
    expect((await donate(waiter.cardId, donor)).status).toBe(404);
    expect((await donate(crypto.randomUUID(), donor)).status).toBe(404);
    expect(await listOf(staff)).toEqual([]);
  });

  it('shows a refunded donation as refunded, and a failed or unpaid one not at all', async () => {
    const staff = await charity();
    const payment = await donated(staff.cardId);
    await t.app.services.payments.refundPayment(payment.id, payment.total_cents, 'test-refund');
    const failed = (await donate(staff.cardId, { ...donor, amount_cents: 700 })).body.data;
    await payAtSandboxCheckout(t, failed, 'method=card&card_number=4000000000000002');
    await t.app.services.payments.getPublicPayment(failed.id);
    await donate(staff.cardId, { ...donor, amount_cents: 800 });

    expect((await listOf(staff)).map((row) => [row.amount_cents, row.status])).toEqual([[2_000, 'refunded']]);
    expect(await userBalances(t.app.db, staff.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('answers one Idempotency-Key sent five times at once with one payment', async () => {
    const staff = await charity();
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => donate(staff.cardId, donor, key)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect((await donate(staff.cardId, { ...donor, amount_cents: 2_100 }, key)).body.code).toBe('idempotency_key_reused');
  });

  it('credits every cent: the charity receives the gifts less fees, the platform the fees, whatever the amounts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ amount: fc.integer({ min: 100, max: 50_000 }), cover: fc.boolean() }), {
          minLength: 1,
          maxLength: 3,
        }),
        async (gifts) => {
          const staff = await charity();
          for (const gift of gifts) await donated(staff.cardId, { ...donor, amount_cents: gift.amount, cover_fee: gift.cover });
          const fee = (cents: number) => Math.floor((cents * 500 + 5_000) / 10_000);
          const expected = gifts.reduce((sum, gift) => sum + (gift.cover ? gift.amount : gift.amount - fee(gift.amount)), 0);
          expect((await userBalances(t.app.db, staff.userId)).hold).toBe(expected);
          expect((await listOf(staff)).reduce((sum, row) => sum + (row.amount_cents as number), 0)).toBe(
            gifts.reduce((sum, gift) => sum + gift.amount, 0),
          );
          expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
        },
      ),
      { numRuns: 6 },
    );
  });
});
