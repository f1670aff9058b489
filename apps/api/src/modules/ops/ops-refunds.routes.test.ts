import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPayment, payAtSandboxCheckout, sandboxRefOf, settleSandboxPayment } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { paymentReference } from '@tipcard/shared/payments/guest-form';
import { platformBalances, userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { signInOperator } from './ops.test-support.ts';

type Operator = Awaited<ReturnType<typeof signInOperator>>;

const THRESHOLD = 10_000;
/** How long a decided refund is left to its caller before a retry or the job makes it (REFUND_LEASE_MS). */
const LEASE_MS = 5 * 60_000;

describe('back-office refunds and their approvals (issue 24)', () => {
  let t: TestApp;
  let finance: Operator;
  let finance2: Operator;
  let cardId: string;
  let staffId: string;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        FEE_PERCENT: '0',
        HOLD_HOURS: '0',
        REFUND_APPROVAL_CENTS: String(THRESHOLD),
        SANDBOX_WEBHOOK_DELAY_MS: '0',
        CHECKOUTS_PER_CARD_PER_10_MINUTES: '1000',
      },
    });
    finance = await signInOperator(t, 'finance');
    finance2 = await signInOperator(t, 'finance');
    ({ cardId, userId: staffId } = await signUpWithCard(t));
  });
  afterAll(() => t.close());
  afterEach(async () => {
    vi.restoreAllMocks();
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  /** A tip paid at the sandbox's checkout (so the sandbox holds a charge it can refund), its event delivered. */
  async function paidTip(cents: number) {
    const payment = await openPayment(t, cardId, cents);
    await payAtSandboxCheckout(t, payment);
    await settleSandboxPayment(t, payment.id);
    return payment;
  }

  const ask = (
    operator: Operator,
    paymentId: string,
    amountCents: unknown,
    key: string = crypto.randomUUID(),
    reason = 'Guest charged twice',
  ) =>
    t.call({
      method: 'POST',
      url: `/api/ops/payments/${paymentId}/refunds`,
      token: operator.opsToken,
      payload: { amount_cents: amountCents, reason },
      headers: { 'idempotency-key': key },
    });
  const decide = (
    operator: Operator,
    requestId: string,
    decision: 'approve' | 'decline' = 'approve',
    payload: object | undefined = decision === 'decline' ? { reason: 'Not a double charge' } : undefined,
  ) => t.call({ method: 'POST', url: `/api/ops/refund-requests/${requestId}/${decision}`, token: operator.opsToken, payload });
  const refundedOf = async (paymentId: string) =>
    (await t.call({ method: 'GET', url: `/api/ops/payments/${paymentId}`, token: finance.opsToken })).body.data
      .refunded_cents as number;
  const listedFor = async (paymentId: string) =>
    (await t.app.services.ops.listRefundRequests()).filter((request) => request.payment_id === paymentId);
  const auditsOf = async (paymentId: string) =>
    (await t.app.services.ops.listAudit({ subjectId: paymentId })).map((record) => record.action).sort();

  describe('the Idempotency-Key holds above the threshold ("Doubled")', () => {
    it('10 concurrent calls under one key make one approval request, answered the same, refunded once when approved', async () => {
      const tip = await paidTip(20_000);
      const key = crypto.randomUUID();
      const answers = await Promise.all(Array.from({ length: 10 }, () => ask(finance, tip.id, 15_000, key)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      const ids = new Set(answers.map((answer) => answer.body.data.request_id));
      expect(ids.size).toBe(1);
      expect(new Set(answers.map((answer) => answer.body.data.status))).toEqual(new Set(['awaiting_approval']));
      const [requestId] = [...ids] as string[];
      expect((await listedFor(tip.id)).map((request) => request.id)).toEqual([requestId]);
      expect(await auditsOf(tip.id)).toEqual(['refund.request']);

      // The same key with another amount is another request: refused, nothing written.
      const reused = await ask(finance, tip.id, 14_000, key);
      expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);

      expect((await decide(finance2, requestId!)).body.data).toMatchObject({ status: 'refunded', request_id: requestId });
      const retried = await ask(finance, tip.id, 15_000, key);
      expect([retried.status, retried.body.data.status, retried.body.data.request_id]).toEqual([200, 'refunded', requestId]);
      expect(await refundedOf(tip.id)).toBe(15_000);
      expect(await auditsOf(tip.id)).toEqual(['payment.refund', 'refund.approve', 'refund.request']);
    });

    it('10 concurrent calls under one key within the threshold refund once, with one audit record', async () => {
      const tip = await paidTip(2_000);
      const key = crypto.randomUUID();
      const answers = await Promise.all(Array.from({ length: 10 }, () => ask(finance, tip.id, 300, key)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      // The first call refunds; a twin answers the refund as it stands at that moment.
      expect(answers.map((answer) => answer.body.data.status)).toContain('refunded');
      expect(answers.every((answer) => ['refunded', 'refunding'].includes(answer.body.data.status))).toBe(true);
      expect(await refundedOf(tip.id)).toBe(300);
      expect(await auditsOf(tip.id)).toEqual(['payment.refund']);
    });

    it('another key while a request is pending cannot ask for more than the payment has: concurrent requests, one accepted', async () => {
      const tip = await paidTip(20_000);
      const answers = await Promise.all(Array.from({ length: 5 }, () => ask(finance, tip.id, 12_000)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422, 422, 422, 422]);
      expect(answers.filter((answer) => answer.status === 422).every((answer) => answer.body.code === 'refund_too_large')).toBe(
        true,
      );
      const [pending] = await listedFor(tip.id);
      // What the pending request holds counts: 8,000 is left to ask for, 8,001 is not.
      expect((await ask(finance, tip.id, 8_001)).body.code).toBe('refund_too_large');
      expect((await ask(finance, tip.id, 8_000)).body.data.status).toBe('refunded');
      expect((await decide(finance2, pending!.id)).body.data.status).toBe('refunded');
      expect(await refundedOf(tip.id)).toBe(20_000);
    });
  });

  describe('the threshold counts everything refunded of a payment without approval ("Four-eyes split around")', () => {
    it('3 × 10,000 cents of a 300 EUR payment by one operator: the first at once, the others wait for a second operator', async () => {
      const tip = await paidTip(30_000);
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push((await ask(finance, tip.id, 10_000)).body.data.status);
      expect(answers).toEqual(['refunded', 'awaiting_approval', 'awaiting_approval']);
      expect(await refundedOf(tip.id)).toBe(10_000);
    });

    it('a second operator asking for a small refund of the same payment is no way around it either', async () => {
      const tip = await paidTip(20_000);
      expect((await ask(finance, tip.id, 10_000)).body.data.status).toBe('refunded');
      expect((await ask(finance2, tip.id, 1)).body.data.status).toBe('awaiting_approval');
      expect(await refundedOf(tip.id)).toBe(10_000);
    });

    it('concurrent small refunds of one payment under different keys stay within the threshold together', async () => {
      const tip = await paidTip(30_000);
      const answers = await Promise.all(Array.from({ length: 6 }, () => ask(finance, tip.id, 4_000)));
      const statuses = answers.map((answer) => answer.body.data.status as string);
      expect(statuses.filter((status) => status === 'refunded')).toHaveLength(2);
      expect(statuses.filter((status) => status === 'awaiting_approval')).toHaveLength(4);
      expect(await refundedOf(tip.id)).toBe(8_000);
    });

    it('property: for any sequence of refunds by one operator, what is refunded without approval stays within the threshold', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 16_000 }), { minLength: 1, maxLength: 7 }), async (amounts) => {
          const total = 40_000;
          const tip = await paidTip(total);
          // The model: what is left counts what waits; within the threshold at once, above it waits.
          let refunded = 0;
          let waiting = 0;
          for (const amount of amounts) {
            const answer = await ask(finance, tip.id, amount);
            if (amount > total - refunded - waiting) {
              expect([answer.status, answer.body.code]).toEqual([422, 'refund_too_large']);
            } else if (refunded + amount <= THRESHOLD) {
              expect(answer.body.data.status).toBe('refunded');
              refunded += amount;
            } else {
              expect(answer.body.data.status).toBe('awaiting_approval');
              waiting += amount;
            }
            expect(refunded).toBeLessThanOrEqual(THRESHOLD);
          }
          expect(await refundedOf(tip.id)).toBe(refunded);
          expect((await listedFor(tip.id)).reduce((sum, request) => sum + request.amount_cents, 0)).toBe(waiting);
        }),
        { numRuns: 10 },
      );
    });
  });

  describe('an approval makes the refund or stays retryable ("Stuck approval")', () => {
    it('too large after another refund: the approval is refused, the request still waits, a retry answers the same, and it can be declined', async () => {
      const tip = await paidTip(20_000);
      const requestId = (await ask(finance, tip.id, 15_000)).body.data.request_id as string;
      // Money given back elsewhere meanwhile (a canceled card order, a duplicate invoice payment).
      await t.app.services.payments.refundPayment(tip.id, 10_000, 'elsewhere');
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const approved = await decide(finance2, requestId);
        expect([approved.status, approved.body.code]).toEqual([422, 'refund_too_large']);
        expect(await listedFor(tip.id)).toMatchObject([{ id: requestId, status: 'pending' }]);
      }
      expect(await auditsOf(tip.id)).toEqual(['refund.request']);
      const declined = await decide(finance2, requestId, 'decline');
      expect([declined.status, declined.body.data.status]).toEqual([200, 'rejected']);
      expect(await listedFor(tip.id)).toEqual([]);
      expect((await decide(finance2, requestId)).status).toBe(409);
      expect(await refundedOf(tip.id)).toBe(10_000);
      expect(await auditsOf(tip.id)).toEqual(['refund.decline', 'refund.request']);
    });

    it('refused by the provider after the approval: failed with the reason, answered again on a retry, never a stuck approval', async () => {
      const tip = await paidTip(20_000);
      const requestId = (await ask(finance, tip.id, 15_000)).body.data.request_id as string;
      // Refunded at the provider (its dashboard) and its webhook lost: our books still show 20,000 to give.
      vi.spyOn(t.app.services.payments, 'handleWebhook').mockResolvedValue('duplicate');
      await t.app.services.sandbox!.refund(sandboxRefOf(tip), 10_000, 'dashboard');
      expect(await refundedOf(tip.id)).toBe(0);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const approved = await decide(finance2, requestId);
        expect([approved.status, approved.body.code]).toEqual([422, 'refund_too_large']);
      }
      expect(await listedFor(tip.id)).toEqual([]);
      expect(await refundedOf(tip.id)).toBe(10_000);
      expect(await auditsOf(tip.id)).toEqual(['refund.approve', 'refund.fail', 'refund.request']);
    });

    it('killed between the provider refund and the commit: the job finishes it once, with one audit record of the refund', async () => {
      const tip = await paidTip(20_000);
      const requestId = (await ask(finance, tip.id, 15_000)).body.data.request_id as string;
      const payments = t.app.services.payments;
      const refund = payments.refundPayment.bind(payments);
      vi.spyOn(payments, 'refundPayment').mockImplementationOnce(async (...args) => {
        await refund(...args);
        throw new Error('killed after the provider refunded');
      });
      // The process dies here: the provider has refunded, our commit never happens (its caller sees a 500).
      expect((await decide(finance2, requestId)).status).toBe(500);
      expect(await listedFor(tip.id)).toMatchObject([{ id: requestId, status: 'refunding' }]);
      // Its caller may still be at work: nobody else drives it until the lease ends.
      expect((await decide(finance2, requestId)).status).toBe(409);
      expect(await t.runJob('ops.refunds')).toBe(0);

      t.clock.advance(LEASE_MS);
      expect(await t.runJob('ops.refunds')).toBe(1);
      expect(await listedFor(tip.id)).toEqual([]);
      expect(await refundedOf(tip.id)).toBe(15_000);
      const records = await t.app.services.ops.listAudit({ subjectId: tip.id, action: 'payment.refund' });
      expect(records).toMatchObject([{ operator_id: finance2.id, after: { amount_cents: 15_000, request_id: requestId } }]);
      expect((await decide(finance2, requestId)).status).toBe(409);
    });

    it('killed during a refund within the threshold: a retry under its key after the lease finishes it once', async () => {
      const tip = await paidTip(5_000);
      const key = crypto.randomUUID();
      const payments = t.app.services.payments;
      const refund = payments.refundPayment.bind(payments);
      vi.spyOn(payments, 'refundPayment').mockImplementationOnce(async (...args) => {
        await refund(...args);
        throw new Error('killed after the provider refunded');
      });
      // The process dies after the provider refunded (its caller sees a 500); a double click meanwhile sees it under way.
      expect((await ask(finance, tip.id, 4_000, key)).status).toBe(500);
      expect((await ask(finance, tip.id, 4_000, key)).body.data.status).toBe('refunding');
      t.clock.advance(LEASE_MS);
      const retried = await ask(finance, tip.id, 4_000, key);
      expect([retried.status, retried.body.data.status]).toEqual([200, 'refunded']);
      expect(await refundedOf(tip.id)).toBe(4_000);
      expect(await auditsOf(tip.id)).toEqual(['payment.refund']);
    });

    it('the provider unreachable: 502, the request stays under way, and an approval retried after the lease refunds once', async () => {
      const tip = await paidTip(20_000);
      const requestId = (await ask(finance, tip.id, 15_000)).body.data.request_id as string;
      vi.spyOn(t.app.services.sandbox!, 'refund').mockRejectedValueOnce(new Error('connection reset'));
      const approved = await decide(finance2, requestId);
      expect([approved.status, approved.body.code]).toEqual([502, 'provider_unavailable']);
      expect(await refundedOf(tip.id)).toBe(0);
      expect(await listedFor(tip.id)).toMatchObject([{ id: requestId, status: 'refunding' }]);
      t.clock.advance(LEASE_MS);
      const retried = await decide(finance2, requestId);
      expect([retried.status, retried.body.data.status]).toEqual([200, 'refunded']);
      expect(await refundedOf(tip.id)).toBe(15_000);
      expect(await auditsOf(tip.id)).toEqual(['payment.refund', 'refund.approve', 'refund.request']);
    });
  });

  describe('a request is refused unless the payment can give that much back', () => {
    it('unpaid payments, more than is left, and amounts beyond int4 are 422, nothing written', async () => {
      const unpaid = await openPayment(t, cardId, 20_000);
      for (const cents of [500, 15_000]) {
        const answer = await ask(finance, unpaid.id, cents);
        expect([answer.status, answer.body.code]).toEqual([422, 'payment_not_refundable']);
      }
      const tip = await paidTip(1_050);
      for (const cents of [1_051, 2_147_483_647]) {
        const answer = await ask(finance, tip.id, cents);
        expect([answer.status, answer.body.code]).toEqual([422, 'refund_too_large']);
      }
      for (const cents of [2 ** 31, 2 ** 53, 10.5, -1, 0, '100']) {
        const answer = await ask(finance, tip.id, cents);
        expect([answer.status, answer.body.code], String(cents)).toEqual([422, 'validation_failed']);
      }
      expect(await listedFor(unpaid.id)).toEqual([]);
      expect(await listedFor(tip.id)).toEqual([]);
      expect([...(await auditsOf(unpaid.id)), ...(await auditsOf(tip.id))]).toEqual([]);
      expect(await refundedOf(tip.id)).toBe(0);
    });
  });

  describe('a waiting request declined with a reason (issue 27)', () => {
    it('moves no money: the payment, the staff member and the platform keep what they had, and the reason is audited', async () => {
      const tip = await paidTip(20_000);
      const requestId = (await ask(finance, tip.id, 15_000)).body.data.request_id as string;
      const before = [await userBalances(t.app.db, staffId), await platformBalances(t.app.db)];

      const noReason = await decide(finance2, requestId, 'decline', { reason: '  ' });
      expect([noReason.status, noReason.body.code]).toEqual([422, 'validation_failed']);
      expect(await listedFor(tip.id)).toMatchObject([{ id: requestId, status: 'pending' }]);

      const declined = await decide(finance2, requestId, 'decline', { reason: 'The guest was charged once' });
      expect([declined.status, declined.body.data]).toEqual([
        200,
        { status: 'rejected', payment_status: 'succeeded', request_id: requestId },
      ]);
      expect([await userBalances(t.app.db, staffId), await platformBalances(t.app.db)]).toEqual(before);
      expect(await refundedOf(tip.id)).toBe(0);
      expect(await listedFor(tip.id)).toEqual([]);
      const [record] = await t.app.services.ops.listAudit({ subjectId: tip.id, action: 'refund.decline' });
      expect(record).toMatchObject({
        operator_id: finance2.id,
        after: { request_status: 'rejected', request_id: requestId, reason: 'The guest was charged once' },
      });
      const page = (await t.call({ method: 'GET', url: `/api/ops/payments/${tip.id}`, token: finance.opsToken })).body.data;
      expect(page.refunds).toMatchObject([
        { id: requestId, status: 'rejected', decided_by: finance2.email, decline_reason: 'The guest was charged once' },
      ]);
      // Declined is decided: neither an approval nor another decline changes it.
      expect((await decide(finance2, requestId)).status).toBe(409);
      expect((await decide(finance2, requestId, 'decline')).status).toBe(409);
    });

    it('an approval and a decline racing on one request: exactly one wins, and the money follows the winner', async () => {
      for (let round = 0; round < 4; round += 1) {
        const tip = await paidTip(20_000);
        const requestId = (await ask(finance, tip.id, 12_000)).body.data.request_id as string;
        const [approved, declined] = await Promise.all([
          decide(finance2, requestId, 'approve'),
          decide(finance2, requestId, 'decline'),
        ]);
        expect([approved.status, declined.status].sort()).toEqual([200, 409]);
        const approveWon = approved.status === 200;
        expect(await refundedOf(tip.id)).toBe(approveWon ? 12_000 : 0);
        expect(await auditsOf(tip.id)).toEqual(
          approveWon ? ['payment.refund', 'refund.approve', 'refund.request'] : ['refund.decline', 'refund.request'],
        );
        expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
      }
    });
  });

  it('the approval list names who asked, with the payment and its short reference', async () => {
    const tip = await paidTip(20_000);
    const requestId = (await ask(finance, tip.id, 15_000)).body.data.request_id as string;
    const listed = await t.call({ method: 'GET', url: '/api/ops/refund-requests', token: finance2.opsToken });
    expect(listed.body.data.find((request: { id: string }) => request.id === requestId)).toMatchObject({
      payment_id: tip.id,
      payment_reference: paymentReference(tip.id),
      requested_by: finance.id,
      requested_by_email: finance.email,
      amount_cents: 15_000,
    });
    expect((await decide(finance2, requestId, 'decline')).status).toBe(200);
  });
});
