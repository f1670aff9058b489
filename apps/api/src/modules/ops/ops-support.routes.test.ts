import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cardOrders } from '../../db/schema/card-orders.ts';
import { deliverDueSandboxEvents, payAtSandboxCheckout } from '../../test/sandbox-events.ts';
import { createTestApp, signUp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { findPaymentWithShares } from '../payments/payments.service.ts';
import { signInOperator } from './ops.test-support.ts';

type Operator = Awaited<ReturnType<typeof signInOperator>>;
type User = Awaited<ReturnType<typeof signUp>>;

const ADDRESS = {
  country: 'LV',
  city: 'Rīga',
  address: 'Brīvības iela 1',
  apartment: null,
  zip: 'LV-1010',
  first_name: 'Anna',
  last_name: 'Bērziņa',
  additional_info: null,
};

describe('back office: support inbox, card orders, the user screen, ledger health over time', () => {
  let t: TestApp;
  let support: Operator;
  beforeAll(async () => {
    t = await createTestApp({ env: { CARD_PRICE_CENTS: '500', SANDBOX_WEBHOOK_DELAY_MS: '0' } });
    support = await signInOperator(t, 'support');
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await checkLedgerInvariants(t.app.db)).toEqual([]));

  const auditCount = async () => (await t.app.services.ops.listAudit({}, 10_000)).length;
  /** An operator call answered with how many audit records it wrote. */
  async function audited(method: 'GET' | 'POST', url: string, payload?: object) {
    const before = await auditCount();
    const answer = await t.call({ method, url: `/api/ops${url}`, token: support.opsToken, payload });
    return { ...answer, audits: (await auditCount()) - before };
  }
  const get = (url: string) => t.call({ method: 'GET', url: `/api/ops${url}`, token: support.opsToken });

  async function newTicket(user: User, title: string) {
    const created = await t.call({
      method: 'POST',
      url: `/api/clients/${user.clientId}/tickets`,
      token: user.jwt,
      payload: { title, message: 'My payout did not arrive.' },
    });
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  }
  const png = () =>
    sharp({ create: { width: 24, height: 16, channels: 3, background: '#0f766e' } })
      .png()
      .toBuffer();

  /**
   * Delivers the sandbox's event of the order's payment and waits until the order is placed: the app's own sandbox
   * sender may have claimed the event first and still be delivering it.
   */
  const placedByPayment = (orderId: string) =>
    vi.waitFor(
      async () => {
        await deliverDueSandboxEvents(t);
        expect((await get('/card-orders?status=placed')).body.data.map((row: { id: string }) => row.id)).toContain(orderId);
      },
      { timeout: 10_000 },
    );
  it('lists tickets by status, the longest waiting first, with the user’s phone', async () => {
    const user = await signUp(t);
    const older = await newTicket(user, 'Older question');
    t.clock.advance(60_000);
    const newer = await newTicket(user, 'Newer question');
    const open = (await get('/tickets?status=open')).body.data as { id: string; phone: string; user_id: string }[];
    const ids = open.map((ticket) => ticket.id);
    expect(ids.indexOf(older)).toBeLessThan(ids.indexOf(newer));
    expect(open.find((ticket) => ticket.id === older)).toMatchObject({ phone: user.phone, user_id: user.userId });
    expect((await get('/tickets?status=closed')).body.data.map((ticket: { id: string }) => ticket.id)).not.toContain(older);
    expect((await get('/tickets?status=nonsense')).status).toBe(422);
  });

  it('answers with a file: one audit record, waiting for the user, texted, the badge counts it, the user downloads it', async () => {
    const user = await signUp(t);
    const id = await newTicket(user, 'Where is my money?');
    const file = await png();
    const replied = await audited('POST', `/tickets/${id}/reply`, {
      message: 'It was sent again today.',
      attachments: [{ name: '../receipt.png', content: file.toString('base64') }],
    });
    expect([replied.status, replied.audits]).toEqual([200, 1]);
    expect(replied.body.data).toMatchObject({
      status: 'waiting_for_user',
      user: { id: user.userId, phone: user.phone },
      messages: [{ author: 'user' }, { author: 'operator', message: 'It was sent again today.' }],
      attachments: [{ author: 'operator', name: 'receipt.png', mime: 'image/png' }],
    });
    const [record] = await t.app.services.ops.listAudit({ subjectId: id });
    expect(record).toMatchObject({
      operator_id: support.id,
      action: 'ticket.reply',
      subject_type: 'ticket',
      before: { status: 'open' },
      after: { status: 'waiting_for_user', attachments: ['receipt.png'] },
    });
    expect(await t.app.services.support.waitingForUser(user.userId)).toBe(1);
    const outbox = await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(user.phone)}` });
    expect(outbox.body.data[0].body).toContain(`/#/support/${id}`);

    // The operator's file reaches the user as the user's own files do, and the operator reads it safely typed.
    const attachmentId = replied.body.data.attachments[0].id as string;
    const mine = await t.call({
      method: 'GET',
      url: `/api/clients/${user.clientId}/tickets/${id}/attachments/${attachmentId}`,
      token: user.jwt,
    });
    expect([mine.status, mine.headers['content-type']]).toEqual([200, 'image/png']);
    const theirs = await get(`/tickets/${id}/attachments/${attachmentId}`);
    expect(theirs.status).toBe(200);
    expect(theirs.headers['content-disposition']).toMatch(/^attachment;/);
    expect(theirs.headers['x-content-type-options']).toBe('nosniff');
    expect(theirs.headers['content-security-policy']).toContain('sandbox');
    expect((await get(`/tickets/${crypto.randomUUID()}/attachments/${attachmentId}`)).status).toBe(404);
  });

  it('refuses a blank reply, a file that is not a document and an unknown ticket, writing nothing', async () => {
    const user = await signUp(t);
    const id = await newTicket(user, 'Card question');
    const blank = await audited('POST', `/tickets/${id}/reply`, { message: '   ' });
    expect([blank.status, blank.audits]).toEqual([422, 0]);
    const html = Buffer.from('<html><script>alert(1)</script></html>').toString('base64');
    const bad = await audited('POST', `/tickets/${id}/reply`, {
      message: 'See file',
      attachments: [{ name: 'x.png', content: html }],
    });
    expect([bad.status, bad.audits, Object.keys(bad.body.validation_errors)]).toEqual([422, 0, ['attachments.0.content']]);
    const unknown = await audited('POST', `/tickets/${crypto.randomUUID()}/reply`, { message: 'Hello' });
    expect([unknown.status, unknown.audits]).toEqual([404, 0]);
    expect((await get(`/tickets/${id}`)).body.data).toMatchObject({
      status: 'open',
      messages: [{ author: 'user' }],
      attachments: [],
    });
  });

  it('closes and reopens once each, one audit record per change; the user cannot write to a closed ticket', async () => {
    const user = await signUp(t);
    const id = await newTicket(user, 'Close me');
    const closed = await audited('POST', `/tickets/${id}/close`);
    expect([closed.status, closed.body.data.status, closed.audits]).toEqual([200, 'closed', 1]);
    const again = await audited('POST', `/tickets/${id}/close`);
    expect([again.status, again.body.code, again.audits]).toEqual([409, 'ops_conflict', 0]);
    const userReply = await t.call({
      method: 'POST',
      url: `/api/clients/${user.clientId}/tickets/${id}/messages`,
      token: user.jwt,
      payload: { message: 'Hello?' },
    });
    expect(userReply.body.code).toBe('ticket_closed');
    const reopened = await audited('POST', `/tickets/${id}/reopen`);
    expect([reopened.status, reopened.body.data.status, reopened.audits]).toEqual([200, 'open', 1]);
    expect((await audited('POST', `/tickets/${id}/reopen`)).status).toBe(409);
    expect((await t.app.services.ops.listAudit({ subjectId: id })).map((record) => record.action)).toEqual([
      'ticket.reopen',
      'ticket.close',
    ]);
  });

  it('moves a card order through production, shipping and delivery, one audit record each, in order only', async () => {
    const owner = await signUpWithCard(t);
    const placed = await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/card-orders`,
      token: owner.jwt,
      payload: { product: 'card', quantity: 2, ...ADDRESS },
    });
    const id = placed.body.data.id as string;
    const queue = (await get('/card-orders?status=placed')).body.data as { id: string; phone: string }[];
    expect(queue.find((row) => row.id === id)).toMatchObject({ phone: owner.phone, quantity: 2, city: 'Rīga' });

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/ops/card-orders/${id}/print-file`,
      headers: { authorization: `Bearer ${support.opsToken}` },
    });
    expect([pdf.statusCode, pdf.headers['content-type']]).toEqual([200, 'application/pdf']);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const early = await audited('POST', `/card-orders/${id}/status`, { status: 'shipped', tracking_reference: 'RR1LV' });
    expect([early.status, early.body.code, early.audits]).toEqual([422, 'card_order_status', 0]);
    const blank = await audited('POST', `/card-orders/${id}/status`, { status: 'shipped', tracking_reference: ' ' });
    expect([blank.status, blank.audits]).toEqual([422, 0]);
    for (const move of [
      { status: 'in_production' },
      { status: 'shipped', tracking_reference: 'RR123456789LV' },
      { status: 'delivered' },
    ]) {
      const moved = await audited('POST', `/card-orders/${id}/status`, move);
      expect([moved.status, moved.body.data.status, moved.audits]).toEqual([200, move.status, 1]);
    }
    const records = await t.app.services.ops.listAudit({ subjectId: id });
    expect(records.map((record) => record.action)).toEqual([
      'card_order.delivered',
      'card_order.shipped',
      'card_order.in_production',
    ]);
    expect(records[1]).toMatchObject({
      before: { status: 'in_production' },
      after: { status: 'shipped', tracking_reference: 'RR123456789LV' },
    });
    const mine = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/card-orders/${id}`, token: owner.jwt });
    expect(mine.body.data).toMatchObject({ status: 'delivered', tracking_reference: 'RR123456789LV' });
    const late = await audited('POST', `/card-orders/${id}/cancel`);
    expect([late.status, late.audits]).toEqual([422, 0]);
  });

  it('cancels a paid order with a full refund, one audit record', async () => {
    const owner = await signUpWithCard(t);
    const order = async () =>
      t.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/card-orders`,
        token: owner.jwt,
        payload: { product: 'sticker', quantity: 1, ...ADDRESS },
      });
    await order(); // the first one is free
    const paid = (await order()).body.data as { id: string; checkout_url: string };
    await payAtSandboxCheckout(t, { checkout_url: paid.checkout_url } as Parameters<typeof payAtSandboxCheckout>[1]);
    await placedByPayment(paid.id);

    const canceled = await audited('POST', `/card-orders/${paid.id}/cancel`);
    expect([canceled.status, canceled.body.data.status, canceled.audits]).toEqual([200, 'canceled', 1]);
    const [record] = await t.app.services.ops.listAudit({ subjectId: paid.id });
    expect(record).toMatchObject({
      action: 'card_order.cancel',
      before: { status: 'placed' },
      after: { status: 'canceled', refunded_cents: 500 },
    });
    expect(await t.app.services.cardOrders.get(owner.userId, owner.clientId, paid.id)).toMatchObject({ status: 'canceled' });
    const [row] = await t.app.db.select({ paymentId: cardOrders.paymentId }).from(cardOrders).where(eq(cardOrders.id, paid.id));
    expect((await findPaymentWithShares(t.app.db, row!.paymentId!))?.payment).toMatchObject({
      status: 'refunded',
      refundedCents: 500,
    });
  });

  it('18 concurrent cancels of a paid order: one is answered and audited, the payment refunded once, the others refused', async () => {
    const owner = await signUpWithCard(t);
    const order = () =>
      t.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/card-orders`,
        token: owner.jwt,
        payload: { product: 'card', quantity: 2, ...ADDRESS },
      });
    await order(); // the first one is free
    const paid = (await order()).body.data as { id: string; checkout_url: string };
    await payAtSandboxCheckout(t, { checkout_url: paid.checkout_url } as Parameters<typeof payAtSandboxCheckout>[1]);
    await placedByPayment(paid.id);
    const before = await auditCount();

    const answers = await Promise.all(
      Array.from({ length: 18 }, () =>
        t.call({ method: 'POST', url: `/api/ops/card-orders/${paid.id}/cancel`, token: support.opsToken }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(
      new Set(answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body.code}`)),
    ).toEqual(new Set(['422 card_order_status']));
    expect((await auditCount()) - before).toBe(1);
    const records = await t.app.services.ops.listAudit({ subjectId: paid.id });
    expect(records).toMatchObject([{ action: 'card_order.cancel', after: { status: 'canceled', refunded_cents: 1_000 } }]);
    const [row] = await t.app.db.select({ paymentId: cardOrders.paymentId }).from(cardOrders).where(eq(cardOrders.id, paid.id));
    expect((await findPaymentWithShares(t.app.db, row!.paymentId!))?.payment).toMatchObject({
      status: 'refunded',
      refundedCents: 1_000,
      adjustments: 1,
    });
  });

  it("shows the user's team, invoices, donations and tickets", async () => {
    const owner = await signUpWithCard(t);
    const workplace = await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/workplace`,
      token: owner.jwt,
      payload: { name: 'Café Riga', country: 'LV' },
    });
    expect(workplace.status).toBe(201);
    const invoice = await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/invoices`,
      token: owner.jwt,
      payload: { description: 'Catering', amount_cents: 2500 },
    });
    expect(invoice.status).toBe(201);
    const ticket = await newTicket(owner, 'Team question');
    const detail = (await get(`/users/${owner.userId}`)).body.data;
    expect(detail.team).toMatchObject({ title: 'Café Riga', workplace: 'Café Riga', admin: true, members: 1 });
    expect(detail.invoices).toMatchObject([{ id: invoice.body.data.id, amount_cents: 2500, status: 'open' }]);
    expect(detail.donations).toEqual([]);
    expect(detail.tickets).toMatchObject([{ id: ticket, title: 'Team question', status: 'open' }]);
    const nobody = (await get(`/users/${(await signUp(t)).userId}`)).body.data;
    expect([nobody.team, nobody.invoices, nobody.tickets]).toEqual([null, [], []]);
  });

  it('takes one ledger-health snapshot an hour and shows the worst of each of the last 14 days', async () => {
    const finance = await signInOperator(t, 'finance');
    const ops = t.app.services.ops;
    const now = t.clock.now();
    expect(await ops.takeHealthSnapshot(now)).toBe(true);
    expect(await ops.takeHealthSnapshot(new Date(now.getTime() + 60_000))).toBe(false);
    // Workers racing for the next hour: one writes it, the others find it taken.
    const next = new Date(now.getTime() + 3_600_000);
    const raced = await Promise.all(Array.from({ length: 4 }, () => ops.takeHealthSnapshot(next)));
    expect(raced.filter(Boolean)).toHaveLength(1);
    const health = await t.call({ method: 'GET', url: '/api/ops/ledger-health', token: finance.opsToken });
    const history = health.body.data.history as { day: string; snapshots: number; invariant_problems: number | null }[];
    expect(history).toHaveLength(14);
    const today = history.at(-1)!;
    expect(today).toMatchObject({ day: now.toISOString().slice(0, 10), invariant_problems: 0, dead_messages: 0 });
    // The test clock's day starts at 10:00, so the next hour's snapshot is the same day's.
    expect(today.snapshots).toBe(2);
    expect(history[0]).toMatchObject({ snapshots: 0, invariant_problems: null, pending_payments: null });
  });
});
