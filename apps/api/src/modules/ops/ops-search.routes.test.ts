import { paymentReference } from '@tipcard/shared/payments/guest-form';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPayment, payAtSandboxCheckout, settleSandboxPayment } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { SEPA_METHOD, UK_METHOD } from '../payouts/payouts.test-support.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { signInOperator } from './ops.test-support.ts';

type Operator = Awaited<ReturnType<typeof signInOperator>>;
type Staff = Awaited<ReturnType<typeof signUpWithCard>>;
interface Hit {
  kind: string;
  id: string;
  title: string;
  user_id: string | null;
  payment_id: string | null;
}

describe('back-office search, the payment page and the work queues (issue 27)', () => {
  let t: TestApp;
  let support: Operator;
  let compliance: Operator;
  let finance: Operator;
  let finance2: Operator;
  let admin: Operator;
  let staff: Staff;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        FEE_PERCENT: '0',
        HOLD_HOURS: '0',
        REFUND_APPROVAL_CENTS: '10000',
        SANDBOX_WEBHOOK_DELAY_MS: '0',
        CHECKOUTS_PER_CARD_PER_10_MINUTES: '1000',
        VERIFICATION_LIMIT_CENTS: '100000',
      },
    });
    support = await signInOperator(t, 'support');
    compliance = await signInOperator(t, 'compliance');
    finance = await signInOperator(t, 'finance');
    finance2 = await signInOperator(t, 'finance');
    admin = await signInOperator(t, 'admin');
    staff = await signUpWithCard(t);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  async function paidTip(cardId: string, cents: number) {
    const payment = await openPayment(t, cardId, cents);
    await payAtSandboxCheckout(t, payment);
    await settleSandboxPayment(t, payment.id);
    return payment;
  }
  const search = async (q: string, operator: Operator = support): Promise<Hit[]> => {
    const answer = await t.call({ method: 'GET', url: `/api/ops/search?q=${encodeURIComponent(q)}`, token: operator.opsToken });
    expect(answer.status, q).toBe(200);
    return answer.body.data;
  };
  const idsOf = (hits: Hit[], kind: string) => hits.filter((hit) => hit.kind === kind).map((hit) => hit.id);

  it('finds a payment by the short reference its guest quotes, in any case, and by its id or the id’s start', async () => {
    const tip = await paidTip(staff.cardId, 1_500);
    const reference = paymentReference(tip.id);
    for (const q of [
      reference,
      reference.toLowerCase(),
      ` ${reference.toLowerCase()} `,
      `#${reference}`,
      tip.id,
      tip.id.slice(0, 13),
    ]) {
      const hits = await search(q);
      expect(idsOf(hits, 'payment'), q).toContain(tip.id);
      expect(hits.find((hit) => hit.id === tip.id)).toMatchObject({ title: reference, payment_id: tip.id });
    }
    // Fewer than 6 hex digits names too many payments: no payment is offered for it.
    expect(idsOf(await search(reference.slice(0, 5)), 'payment')).toEqual([]);
    expect(await search('x')).toEqual([]);
  });

  it('finds a user by phone in any format: +371 with spaces, 00371, dashes, the local digits', async () => {
    const local = staff.phone.slice(4);
    const spaced = `${local.slice(0, 2)} ${local.slice(2, 5)} ${local.slice(5)}`;
    for (const q of [
      staff.phone,
      `+371 ${spaced}`,
      `00371 ${spaced}`,
      `00371-${local.slice(0, 4)}-${local.slice(4)}`,
      `(371) ${local}`,
      spaced,
    ]) {
      expect(idsOf(await search(q), 'user'), q).toContain(staff.userId);
    }
  });

  it('finds a donor by e-mail in any case, leading to the gift’s payment and to its recipient', async () => {
    const charity = await signUpWithCard(t, { activity_type: 'DONATION', public_name: 'Dzīvnieku patversme' });
    const started = await t.call({
      method: 'POST',
      url: `/api/public/cards/${charity.cardId}/donations`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: {
        donor_name: 'Jānis Bērziņš',
        email: 'Janis.Berzins@Example.lv',
        donor_code: '010190-12345',
        amount_cents: 2_000,
        cover_fee: false,
        terms_accepted: true,
      },
    });
    expect(started.status).toBe(201);
    await payAtSandboxCheckout(t, started.body.data);
    await settleSandboxPayment(t, started.body.data.id);
    const hits = await search('janis.berzins@EXAMPLE.lv');
    expect(hits.filter((hit) => hit.kind === 'donation')).toMatchObject([
      { title: 'Janis.Berzins@Example.lv', payment_id: started.body.data.id, user_id: charity.userId },
    ]);
    expect(await search('nobody@example.lv')).toEqual([]);
  });

  it('finds a payout account by its last digits or whole IBAN, and a card by its id', async () => {
    const owner = await signUpWithCard(t);
    for (const method of [SEPA_METHOD, UK_METHOD]) {
      const added = await t.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/payout-methods`,
        token: owner.jwt,
        payload: method,
      });
      expect(added.status).toBe(201);
    }
    const ownersOf = async (q: string) =>
      (await search(q)).filter((hit) => hit.kind === 'payout_method').map((hit) => hit.user_id);
    expect(await ownersOf('0130 00')).toContain(owner.userId);
    expect(await ownersOf('de89370400440532013000')).toContain(owner.userId);
    expect(await ownersOf('6819')).toContain(owner.userId);
    expect(await ownersOf('999999')).not.toContain(owner.userId);
    // The whole account never leaves the database: the hit shows it masked.
    expect(JSON.stringify(await search('013000'))).not.toContain('0532013000');

    const byCard = await search(owner.cardId.toUpperCase());
    expect(byCard.find((hit) => hit.kind === 'card')).toMatchObject({ id: owner.cardId, user_id: owner.userId });
    expect(idsOf(byCard, 'user')).toContain(owner.userId);
  });

  it('finds an invoice and a card order by their numbers (their ids’ first 8 digits), in any case', async () => {
    const invoice = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/invoices`,
      token: staff.jwt,
      payload: { description: 'Wedding photos', amount_cents: 12_000 },
    });
    expect(invoice.status).toBe(201);
    const order = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/card-orders`,
      token: staff.jwt,
      payload: {
        product: 'card',
        quantity: 1,
        country: 'LV',
        city: 'Rīga',
        address: 'Brīvības iela 1',
        apartment: null,
        zip: 'LV-1010',
        first_name: 'Anna',
        last_name: 'Bērziņa',
        additional_info: null,
      },
    });
    expect(order.status).toBe(201);
    const invoiceId = invoice.body.data.id as string;
    const orderId = order.body.data.id as string;
    expect((await search(invoiceId.slice(0, 8).toUpperCase())).find((hit) => hit.kind === 'invoice')).toMatchObject({
      id: invoiceId,
      user_id: staff.userId,
    });
    expect(idsOf(await search(orderId.slice(0, 8)), 'card_order')).toEqual([orderId]);
  });

  it('the payment page tells the payment’s story to any role that looks up users, and refuses an unknown id', async () => {
    const tip = await paidTip(staff.cardId, 20_000);
    const reference = paymentReference(tip.id);
    await t.app.services.tips.sendReceipt(staff.cardId, tip.id, 'guest@example.lv', 'en');
    const refund = (cents: number) =>
      t.call({
        method: 'POST',
        url: `/api/ops/payments/${tip.id}/refunds`,
        token: finance.opsToken,
        headers: { 'idempotency-key': crypto.randomUUID() },
        payload: { amount_cents: cents, reason: 'Charged twice' },
      });
    expect((await refund(5_000)).body.data.status).toBe('refunded');
    // The story lists refunds in the order they were asked for: the second is asked a moment later.
    t.clock.advance(1_000);
    const waiting = (await refund(8_000)).body.data.request_id as string;
    const declined = await t.call({
      method: 'POST',
      url: `/api/ops/refund-requests/${waiting}/decline`,
      token: finance2.opsToken,
      payload: { reason: 'Only one charge was made' },
    });
    expect(declined.status).toBe(200);

    for (const operator of [support, compliance, finance]) {
      const page = await t.call({ method: 'GET', url: `/api/ops/payments/${tip.id}`, token: operator.opsToken });
      expect(page.status).toBe(200);
      expect(page.body.data).toMatchObject({
        id: tip.id,
        reference,
        purpose: 'tip',
        status: 'succeeded',
        total_cents: 20_000,
        refunded_cents: 5_000,
        refundable_cents: 15_000,
        card: { id: staff.cardId, user_id: staff.userId },
        shares: [{ user_id: staff.userId, net_cents: 20_000, reversed_net_cents: 5_000 }],
        refunds: [
          { status: 'refunded', amount_cents: 5_000, requested_by: finance.email, decided_by: null },
          {
            id: waiting,
            status: 'rejected',
            amount_cents: 8_000,
            requested_by: finance.email,
            decided_by: finance2.email,
            decline_reason: 'Only one charge was made',
          },
        ],
      });
      const story = page.body.data;
      expect(story.events.map((event: { type: string }) => event.type)).toContain('payment.succeeded');
      // What the payment caused to be sent: the guest's receipt, the refund's receipt and the staff member's text (the
      // last two written in one transaction, so in no set order).
      expect(story.messages).toHaveLength(3);
      expect(story.messages).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            channel: 'email',
            recipient: 'guest@example.lv',
            subject: expect.stringMatching(/^Your receipt/),
          }),
          expect.objectContaining({
            channel: 'email',
            recipient: 'guest@example.lv',
            subject: expect.stringMatching(/^Refund of €50\.00/),
          }),
          expect.objectContaining({ channel: 'sms', subject: null }),
        ]),
      );
      expect(story.audit.map((record: { action: string }) => record.action).sort()).toEqual([
        'payment.refund',
        'refund.decline',
        'refund.request',
      ]);
    }
    const unknown = await t.call({ method: 'GET', url: `/api/ops/payments/${crypto.randomUUID()}`, token: support.opsToken });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
  });

  it('counts the work waiting for the menu: each role its own queues, null for the others, admin all', async () => {
    const queues = async (operator: Operator) =>
      (await t.call({ method: 'GET', url: '/api/ops/queues', token: operator.opsToken })).body.data;
    const nulls = (except: string[]) =>
      Object.fromEntries(
        ['tickets_waiting', 'verifications_to_review', 'refunds_to_approve', 'batches_to_close', 'dead_messages']
          .filter((key) => !except.includes(key))
          .map((key) => [key, null]),
      );
    expect(await queues(support)).toMatchObject({ tickets_waiting: expect.any(Number), ...nulls(['tickets_waiting']) });
    expect(await queues(compliance)).toMatchObject({
      verifications_to_review: expect.any(Number),
      ...nulls(['verifications_to_review']),
    });
    const financeQueues = await queues(finance);
    expect(financeQueues).toMatchObject({
      refunds_to_approve: expect.any(Number),
      batches_to_close: expect.any(Number),
      dead_messages: expect.any(Number),
      ...nulls(['refunds_to_approve', 'batches_to_close', 'dead_messages']),
    });
    expect(Object.values(await queues(admin)).every((count) => typeof count === 'number')).toBe(true);

    // A refund waiting for approval is counted until it is decided; a ticket opened is counted until answered.
    const tip = await paidTip(staff.cardId, 20_000);
    const asked = await t.call({
      method: 'POST',
      url: `/api/ops/payments/${tip.id}/refunds`,
      token: finance.opsToken,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { amount_cents: 15_000, reason: 'Charged twice' },
    });
    expect((await queues(finance)).refunds_to_approve).toBe(financeQueues.refunds_to_approve + 1);
    await t.call({
      method: 'POST',
      url: `/api/ops/refund-requests/${asked.body.data.request_id}/decline`,
      token: finance2.opsToken,
      payload: { reason: 'Not owed' },
    });
    expect((await queues(finance)).refunds_to_approve).toBe(financeQueues.refunds_to_approve);

    const ticketsBefore = (await queues(support)).tickets_waiting;
    const ticket = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/tickets`,
      token: staff.jwt,
      payload: { title: 'Where is my money?', message: 'A tip has not arrived.' },
    });
    expect(ticket.status).toBe(201);
    expect((await queues(support)).tickets_waiting).toBe(ticketsBefore + 1);
  });
});
