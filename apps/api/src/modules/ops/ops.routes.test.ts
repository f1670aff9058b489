import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPayment, payAtSandboxCheckout, receiveTip, settleSandboxPayment } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { expectValidPain001 } from '../payouts/pain001-schema.test-support.ts';
import { fundMain, SEPA_METHOD, withdraw } from '../payouts/payouts.test-support.ts';
import { signInOperator } from './ops.test-support.ts';

type Operator = Awaited<ReturnType<typeof signInOperator>>;

describe('back office screens', () => {
  let t: TestApp;
  let support: Operator;
  let compliance: Operator;
  let finance: Operator;
  let finance2: Operator;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        FEE_PERCENT: '0',
        HOLD_HOURS: '0',
        PAYOUT_RAIL: 'files',
        VERIFICATION_LIMIT_CENTS: '1000',
        REFUND_APPROVAL_CENTS: '10000',
        SANDBOX_WEBHOOK_DELAY_MS: '0',
      },
    });
    support = await signInOperator(t, 'support');
    compliance = await signInOperator(t, 'compliance');
    finance = await signInOperator(t, 'finance');
    finance2 = await signInOperator(t, 'finance');
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await checkLedgerInvariants(t.app.db)).toEqual([]));

  /** A tip paid at the sandbox's checkout (so the sandbox holds a charge it can refund), its event delivered. */
  async function paidTip(cardId: string, cents: number) {
    const payment = await openPayment(t, cardId, cents);
    await payAtSandboxCheckout(t, payment);
    await settleSandboxPayment(t, payment.id);
    return payment;
  }

  /** A payout of the owner's to a new SEPA account, confirmed with its texted code: in flight, waiting for a file. */
  async function confirmedSepaPayout(owner: Awaited<ReturnType<typeof signUpWithCard>>, cents: number) {
    const methodId = (
      await t.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/payout-methods`,
        token: owner.jwt,
        payload: SEPA_METHOD,
      })
    ).body.data.id;
    const { created, confirmed } = await withdraw(t, owner, cents, methodId);
    expect(confirmed.status).toBe(200);
    return created.body.data.id as string;
  }

  const auditCount = async () => (await t.app.services.ops.listAudit({}, 10_000)).length;
  /** Runs an operator call and answers it with how many audit records it wrote. */
  async function audited(
    operator: Operator,
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers?: Record<string, string>,
  ) {
    const before = await auditCount();
    const answer = await t.call({ method, url, token: operator.opsToken, payload, headers });
    return { ...answer, audits: (await auditCount()) - before };
  }

  it('finds a user by phone, card id, payment id and name, and shows balances and history', async () => {
    const owner = await signUpWithCard(t, { public_name: 'Zelma Ozola' });
    const payment = await receiveTip(t, owner.cardId, 700);
    for (const q of [owner.phone, owner.phone.slice(-6), owner.cardId, payment.id, 'zelma oz']) {
      const found = await t.call({ method: 'GET', url: `/api/ops/users?q=${encodeURIComponent(q)}`, token: support.opsToken });
      expect(
        found.body.data.map((user: { id: string }) => user.id),
        q,
      ).toContain(owner.userId);
    }
    const detail = await t.call({ method: 'GET', url: `/api/ops/users/${owner.userId}`, token: support.opsToken });
    expect(detail.body.data).toMatchObject({
      user: { phone: owner.phone, blocked: false },
      balances: { hold_cents: 700 },
      cards: [{ id: owner.cardId }],
    });
    expect(detail.body.data.history[0]).toMatchObject({ type: 'PAYIN', amount_cents: 700, payment_id: payment.id });
  });

  it('blocks and unblocks with a reason, once each, one audit record per change; a blocked user cannot sign in', async () => {
    const owner = await signUpWithCard(t);
    const blocked = await audited(compliance, 'POST', `/api/ops/users/${owner.userId}/block`, { reason: 'Card testing fraud' });
    expect(blocked.status).toBe(200);
    expect(blocked.body.data).toMatchObject({ blocked: true, blocked_reason: 'Card testing fraud' });
    expect(blocked.audits).toBe(1);
    const again = await audited(compliance, 'POST', `/api/ops/users/${owner.userId}/block`, { reason: 'Again' });
    expect([again.status, again.audits]).toEqual([409, 0]);
    const blank = await audited(compliance, 'POST', `/api/ops/users/${owner.userId}/unblock`, { reason: '  ' });
    expect([blank.status, blank.audits]).toEqual([422, 0]);
    const record = (await t.app.services.ops.listAudit({ subjectId: owner.userId }))[0]!;
    expect(record).toMatchObject({
      operator_id: compliance.id,
      action: 'user.block',
      before: { blocked: false },
      after: { blocked: true, reason: 'Card testing fraud' },
    });

    const signIn = await t.call({ method: 'POST', url: '/api/request-otp', payload: { username: owner.phone } });
    expect(signIn.body.code).toBe('user_blocked');
    const unblocked = await audited(compliance, 'POST', `/api/ops/users/${owner.userId}/unblock`, {
      reason: 'Cleared by the bank',
    });
    expect([unblocked.status, unblocked.body.data.blocked, unblocked.audits]).toEqual([200, false, 1]);
  });

  it('compliance sees the queue, the documents inline and safely typed, and approves once with one audit record', async () => {
    const owner = await signUpWithCard(t);
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const doc = { content: png.toString('base64'), name: 'id.png', mime: 'image/png' };
    const submitted = await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/verification`,
      token: owner.jwt,
      payload: {
        kind: 'person',
        first_name: 'Anna',
        last_name: 'Liepa',
        birthday: '1990-01-02',
        personal_code: '020190-12345',
        address: 'Rīga',
        document_front: doc,
        document_back: doc,
      },
    });
    expect(submitted.status).toBe(201);
    const queue = await t.call({ method: 'GET', url: '/api/ops/verifications', token: compliance.opsToken });
    const item = queue.body.data.find((entry: { user_id: string }) => entry.user_id === owner.userId);
    const detail = await t.call({ method: 'GET', url: `/api/ops/verifications/${item.id}`, token: compliance.opsToken });
    expect(detail.body.data).toMatchObject({
      status: 'pending',
      details: { last_name: 'Liepa' },
      documents: ['document_front', 'document_back'],
    });
    const file = await t.call({
      method: 'GET',
      url: `/api/ops/verifications/${item.id}/documents/document_front`,
      token: compliance.opsToken,
    });
    expect(file.headers['content-type']).toBe('image/png');
    expect(String(file.headers['content-security-policy'])).toContain("default-src 'none'");
    expect(file.headers['x-content-type-options']).toBe('nosniff');

    const noReason = await audited(compliance, 'POST', `/api/ops/verifications/${item.id}/decision`, {
      decision: 'reject',
      reason: '',
    });
    expect([noReason.status, noReason.audits]).toEqual([422, 0]);
    const approved = await audited(compliance, 'POST', `/api/ops/verifications/${item.id}/decision`, { decision: 'approve' });
    expect([approved.status, approved.body.data.status, approved.audits]).toEqual([200, 'approved', 1]);
    const twice = await audited(compliance, 'POST', `/api/ops/verifications/${item.id}/decision`, { decision: 'approve' });
    expect([twice.status, twice.audits]).toEqual([409, 0]);
    const status = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/verification`, token: owner.jwt });
    expect(status.body.data.status).toBe('approved');
  });

  it('finance makes a schema-valid SEPA batch after the invariant check, marks it sent, and a returned payout gives amount and fee back', async () => {
    const owner = await signUpWithCard(t);
    await fundMain(t, owner, 900);
    const payoutId = await confirmedSepaPayout(owner, 500);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 200 });

    const inFlight = await t.call({ method: 'GET', url: '/api/ops/payouts?status=in_flight', token: finance.opsToken });
    expect(inFlight.body.data.map((payout: { id: string }) => payout.id)).toContain(payoutId);
    const batch = await audited(finance, 'POST', '/api/ops/payout-batches', { kind: 'sepa' });
    expect(batch.status).toBe(200);
    expect(batch.body.data.invariant_problems).toEqual([]);
    expect(batch.body.data.batch).toMatchObject({ kind: 'sepa', status: 'created' });
    expect(batch.audits).toBe(1);
    const batchId = batch.body.data.batch.id as string;
    const file = await t.call({ method: 'GET', url: `/api/ops/payout-batches/${batchId}/file`, token: finance.opsToken });
    expect(String(file.headers['content-disposition'])).toContain('attachment; filename="tipcard-sepa-');
    await expectValidPain001(file.body as string);
    expect(file.body).toContain(payoutId.replaceAll('-', ''));
    const nothing = await t.call({
      method: 'POST',
      url: '/api/ops/payout-batches',
      token: finance.opsToken,
      payload: { kind: 'sepa' },
    });
    expect(nothing.body.data.batch).toBeNull();

    const sent = await audited(finance, 'POST', `/api/ops/payout-batches/${batchId}/sent`);
    expect([sent.status, sent.body.data.status, sent.audits]).toEqual([200, 'sent', 1]);
    expect((await audited(finance, 'POST', `/api/ops/payout-batches/${batchId}/sent`)).status).toBe(409);

    const badReason = await audited(finance, 'POST', `/api/ops/payouts/${payoutId}/outcome`, {
      outcome: 'returned',
      reason_code: 'XX99',
    });
    expect([badReason.status, badReason.audits]).toEqual([422, 0]);
    const returned = await audited(finance, 'POST', `/api/ops/payouts/${payoutId}/outcome`, {
      outcome: 'returned',
      reason_code: 'AC04',
    });
    expect([returned.status, returned.audits]).toEqual([200, 1]);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 900 });
    const history = await t.call({ method: 'GET', url: `/api/ops/users/${owner.userId}`, token: finance.opsToken });
    expect(history.body.data.payouts[0]).toMatchObject({
      id: payoutId,
      status: 'returned',
      return_reason: 'AC04 Closed account number',
    });
    expect((await audited(finance, 'POST', `/api/ops/payouts/${payoutId}/outcome`, { outcome: 'paid' })).status).toBe(409);
  });

  it('marks the rest of a sent file paid as a whole: a returned line stays returned, two operators at once mark each payout once', async () => {
    // Three users each with a confirmed SEPA payout of 500 cents, in one file.
    const users: { payoutId: string; userId: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const owner = await signUpWithCard(t);
      await fundMain(t, owner, 900);
      const payoutId = await confirmedSepaPayout(owner, 500);
      users.push({ payoutId, userId: owner.userId });
    }
    const batchId = (await audited(finance, 'POST', '/api/ops/payout-batches', { kind: 'sepa' })).body.data.batch.id as string;
    // Not sent yet: the bank cannot have paid it.
    expect((await audited(finance, 'POST', `/api/ops/payout-batches/${batchId}/paid`)).status).toBe(409);
    await audited(finance, 'POST', `/api/ops/payout-batches/${batchId}/sent`);
    await audited(finance, 'POST', `/api/ops/payouts/${users[0]!.payoutId}/outcome`, {
      outcome: 'returned',
      reason_code: 'AC01',
    });

    const before = await auditCount();
    const answers = await Promise.all(
      [finance, finance2].map((operator) =>
        t.call({ method: 'POST', url: `/api/ops/payout-batches/${batchId}/paid`, token: operator.opsToken }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.reduce((sum, answer) => sum + (answer.body.data.marked as number), 0)).toBe(2);
    expect((await auditCount()) - before).toBe(2);
    const detail = await t.call({ method: 'GET', url: `/api/ops/payout-batches/${batchId}`, token: finance.opsToken });
    const statuses = Object.fromEntries(
      (detail.body.data.payouts as { id: string; status: string }[]).map((payout) => [payout.id, payout.status]),
    );
    expect(users.map((user) => statuses[user.payoutId])).toEqual(['returned', 'paid', 'paid']);
    // The returned one has its money back; the paid ones keep theirs sent.
    expect(await userBalances(t.app.db, users[0]!.userId)).toMatchObject({ main: 900 });
    for (const user of users.slice(1)) expect(await userBalances(t.app.db, user.userId)).toMatchObject({ main: 200 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    const again = await audited(finance, 'POST', `/api/ops/payout-batches/${batchId}/paid`);
    expect([again.status, again.body.data.marked, again.audits]).toEqual([200, 0, 0]);
  });

  it('refunds a small tip at once; a large one waits for a second finance operator, never the requester', async () => {
    const owner = await signUpWithCard(t);
    const small = await paidTip(owner.cardId, 800);
    const refunded = await audited(
      finance,
      'POST',
      `/api/ops/payments/${small.id}/refunds`,
      { amount_cents: 300, reason: 'Guest charged twice' },
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(refunded.status).toBe(200);
    expect(refunded.body.data).toMatchObject({ status: 'refunded', request_id: null });
    expect(refunded.audits).toBe(1);
    expect(
      (await t.call({ method: 'GET', url: `/api/ops/payments/${small.id}`, token: finance.opsToken })).body.data,
    ).toMatchObject({ refunded_cents: 300 });
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ hold: 500, main: 0 });

    const large = await paidTip(owner.cardId, 20_000);
    const requested = await audited(
      finance,
      'POST',
      `/api/ops/payments/${large.id}/refunds`,
      { amount_cents: 15_000, reason: 'Wrong amount typed' },
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(requested.body.data).toMatchObject({ status: 'awaiting_approval' });
    expect(requested.audits).toBe(1);
    const requestId = requested.body.data.request_id as string;
    const self = await audited(finance, 'POST', `/api/ops/refund-requests/${requestId}/approve`);
    expect([self.status, self.body.code, self.audits]).toEqual([403, 'refund_needs_second_operator', 0]);
    const approved = await audited(finance2, 'POST', `/api/ops/refund-requests/${requestId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ status: 'refunded', request_id: requestId });
    expect(approved.audits).toBe(2); // the approval and the refund
    expect(
      (await t.call({ method: 'GET', url: `/api/ops/payments/${large.id}`, token: finance.opsToken })).body.data,
    ).toMatchObject({ refunded_cents: 15_000 });
    expect((await audited(finance2, 'POST', `/api/ops/refund-requests/${requestId}/approve`)).status).toBe(409);
  });

  it('races: a payout marked returned 10 times at once is returned once; a refund approved by two operators at once is refunded once', async () => {
    const owner = await signUpWithCard(t);
    await fundMain(t, owner, 900);
    const payoutId = await confirmedSepaPayout(owner, 400);
    const before = await auditCount();
    const marks = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.call({
          method: 'POST',
          url: `/api/ops/payouts/${payoutId}/outcome`,
          token: finance.opsToken,
          payload: { outcome: 'returned', reason_code: 'AC01' },
        }),
      ),
    );
    expect(marks.map((mark) => mark.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    expect((await auditCount()) - before).toBe(1);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 900 });

    const tip = await paidTip(owner.cardId, 15_000);
    const requested = await t.call({
      method: 'POST',
      url: `/api/ops/payments/${tip.id}/refunds`,
      token: support.opsToken,
      payload: { amount_cents: 12_000, reason: 'x' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(requested.status).toBe(403); // support may not refund at all
    const asked = await t.call({
      method: 'POST',
      url: `/api/ops/payments/${tip.id}/refunds`,
      token: finance.opsToken,
      payload: { amount_cents: 12_000, reason: 'Double charge' },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    const third = await signInOperator(t, 'finance');
    const approvals = await Promise.all(
      [finance2, third, finance2, third].map((operator) =>
        t.call({
          method: 'POST',
          url: `/api/ops/refund-requests/${asked.body.data.request_id}/approve`,
          token: operator.opsToken,
        }),
      ),
    );
    expect(approvals.map((approval) => approval.status).sort()).toEqual([200, 409, 409, 409]);
    expect(
      (await t.call({ method: 'GET', url: `/api/ops/payments/${tip.id}`, token: finance.opsToken })).body.data.refunded_cents,
    ).toBe(12_000);
  });

  it('shows ledger health and filters the audit log', async () => {
    const health = await t.call({ method: 'GET', url: '/api/ops/ledger-health', token: finance.opsToken });
    expect(health.body.data).toMatchObject({ invariant_problems: [], messages: { dead: 0 } });
    expect(health.body.data.platform_balances).toHaveProperty('psp_clearing');
    const audit = await t.call({
      method: 'GET',
      url: `/api/ops/audit?action=payout.returned&operator_id=${finance.id}`,
      token: compliance.opsToken,
    });
    expect(audit.body.data.length).toBeGreaterThan(0);
    expect(
      audit.body.data.every(
        (record: { action: string; actor: string }) => record.action === 'payout.returned' && record.actor === finance.email,
      ),
    ).toBe(true);
  });
});
