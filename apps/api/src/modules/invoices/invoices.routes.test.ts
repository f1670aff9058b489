import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverSandboxEvent, payAtSandboxCheckout } from '../../test/sandbox-events.ts';
import { createTestApp, signUp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';

let t: TestApp;
beforeAll(async () => {
  // The sandbox's own webhook deliveries are held back: each test delivers the events itself, in the order it needs.
  t = await createTestApp({ env: { SANDBOX_WEBHOOK_DELAY_MS: '60000', HOLD_HOURS: '24', FEE_PERCENT: '5' } });
});
afterAll(() => t.close());

type Staff = Awaited<ReturnType<typeof signUpWithCard>>;

const createInvoice = (staff: Staff, payload: object) =>
  t.call({ method: 'POST', url: `/api/clients/${staff.clientId}/invoices`, token: staff.jwt, payload });
async function openInvoice(staff: Staff, amount_cents = 12_000, description = 'Wedding photos') {
  const created = await createInvoice(staff, { description, amount_cents });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; url: string; status: string; amount_cents: number };
}
const startPaying = (invoiceId: string, key: string = crypto.randomUUID()) =>
  t.call({
    method: 'POST',
    url: `/api/public/invoices/${invoiceId}/payments`,
    headers: { 'idempotency-key': key },
    payload: { terms_accepted: true },
  });
const listInvoices = async (staff: Staff) =>
  (await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/invoices`, token: staff.jwt })).body.data as {
    id: string;
    status: string;
  }[];
const history = async (staff: Staff) =>
  (await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/transactions`, token: staff.jwt })).body.data.items as {
    type: string;
    status: string;
    amount_cents: number;
    description: string;
  }[];
const publicStatus = async (invoiceId: string) =>
  (await t.call({ method: 'GET', url: `/api/public/invoices/${invoiceId}` })).body.data.status as string;
const expectBooksBalanced = async () => expect(await checkLedgerInvariants(t.app.db)).toEqual([]);

/** A payer opens a checkout and pays at the sandbox's hosted page (the charge exists); the event is not delivered yet. */
async function payerCharged(invoiceId: string) {
  const started = await startPaying(invoiceId);
  expect(started.status).toBe(201);
  await payAtSandboxCheckout(t, started.body.data);
  return started.body.data as { id: string; total_cents: number; checkout_url: string };
}

describe('an owner’s invoices', () => {
  it('creates, lists and cancels an invoice, with its public page and QR code', async () => {
    const staff = await signUpWithCard(t);
    const invoice = await openInvoice(staff, 4_550, 'Guitar lesson');
    expect(invoice).toMatchObject({
      status: 'open',
      amount_cents: 4_550,
      description: 'Guitar lesson',
      url: `${t.app.config.publicUrl}/invoice/${invoice.id}`,
    });
    expect((await listInvoices(staff)).map((i) => i.id)).toEqual([invoice.id]);

    const shown = await t.call({ method: 'GET', url: `/api/public/invoices/${invoice.id}` });
    expect(shown.body.data).toEqual({
      id: invoice.id,
      description: 'Guitar lesson',
      amount_cents: 4_550,
      currency: 'EUR',
      status: 'open',
      recipient: { public_name: 'Anna', title: 'Bar Riga', image_url: null },
    });
    expect(JSON.stringify(shown.body)).not.toContain(staff.phone);

    const qr = await t.call({
      method: 'GET',
      url: `/api/clients/${staff.clientId}/invoices/${invoice.id}/qr_code`,
      token: staff.jwt,
      headers: { accept: 'image/svg+xml' },
    });
    expect(qr.status).toBe(200);
    expect(String(qr.headers['content-type'])).toContain('image/svg+xml');

    const canceled = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/invoices/${invoice.id}/cancel`,
      token: staff.jwt,
    });
    expect(canceled.body.data).toMatchObject({ status: 'canceled', canceled_at: expect.any(String) });
    const again = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/invoices/${invoice.id}/cancel`,
      token: staff.jwt,
    });
    expect(again).toMatchObject({
      status: 422,
      body: { code: 'invoice_not_open', errors: ['This invoice is already paid or canceled'] },
    });
  });

  it('refuses bad input with clear 4xx and stores nothing', async () => {
    const staff = await signUpWithCard(t);
    expect((await createInvoice(staff, { description: '', amount_cents: 500 })).body.validation_errors.description).toEqual([
      'This value should not be blank.',
    ]);
    expect((await createInvoice(staff, { description: 'x', amount_cents: 99 })).body.validation_errors.amount_cents).toEqual([
      'Enter an amount from €1.00 to €5\u00a0000.00',
    ]);
    expect((await createInvoice(staff, { description: 'x', amount_cents: 500_001 })).status).toBe(422);
    expect((await createInvoice(staff, { description: 'x', amount_cents: 10.5 })).status).toBe(422);
    expect((await createInvoice(staff, { description: 'x'.repeat(201), amount_cents: 500 })).status).toBe(422);
    expect(await listInvoices(staff)).toEqual([]);

    const noCard = await signUp(t);
    const refused = await t.call({
      method: 'POST',
      url: `/api/clients/${noCard.clientId}/invoices`,
      token: noCard.jwt,
      payload: { description: 'x', amount_cents: 500 },
    });
    expect(refused).toMatchObject({ status: 422, body: { code: 'invoice_needs_card' } });
  });

  it('hides other users’ invoices: 404 on list, cancel and QR', async () => {
    const owner = await signUpWithCard(t);
    const other = await signUpWithCard(t);
    const invoice = await openInvoice(owner);
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/invoices`, token: other.jwt })).status).toBe(404);
    expect(
      (await t.call({ method: 'POST', url: `/api/clients/${other.clientId}/invoices/${invoice.id}/cancel`, token: other.jwt }))
        .status,
    ).toBe(404);
    expect(
      (await t.call({ method: 'POST', url: `/api/clients/${owner.clientId}/invoices/${invoice.id}/cancel`, token: other.jwt }))
        .status,
    ).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `/api/clients/${other.clientId}/invoices/${invoice.id}/qr_code`, token: other.jwt }))
        .status,
    ).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/invoices` })).status).toBe(401);
    expect(await publicStatus(invoice.id)).toBe('open');
  });
});

describe('paying an invoice', () => {
  it('is a PAYIN on hold for the owner, less the fee; the invoice is paid and cannot be paid again', async () => {
    const staff = await signUpWithCard(t);
    const invoice = await openInvoice(staff, 12_000);
    const payment = await payerCharged(invoice.id);
    expect(payment).toMatchObject({
      card_id: invoice.id,
      amount_cents: 12_000,
      fee_cents: 600,
      total_cents: 12_000,
      status: 'pending',
    });
    expect(new URL(payment.checkout_url).pathname).toBe('/api/sandbox/checkout');
    expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');

    expect(await publicStatus(invoice.id)).toBe('paid');
    expect((await listInvoices(staff))[0]).toMatchObject({ status: 'paid' });
    expect(await userBalances(t.app.db, staff.userId)).toEqual({ main: 0, hold: 11_400, debt: 0 });
    expect(await history(staff)).toEqual([
      expect.objectContaining({ type: 'PAYIN', status: 'HOLD', amount_cents: 11_400, description: 'Invoice: Wedding photos' }),
    ]);

    expect((await startPaying(invoice.id)).body).toMatchObject({ code: 'invoice_not_open' });
    const canceled = await t.call({
      method: 'POST',
      url: `/api/clients/${staff.clientId}/invoices/${invoice.id}/cancel`,
      token: staff.jwt,
    });
    expect(canceled.body.code).toBe('invoice_not_open');
    expect(await t.runJob('invoices.refund-duplicates')).toBe(0);
    await expectBooksBalanced();
  });

  it('refuses payment of a canceled invoice and opens no checkout', async () => {
    const staff = await signUpWithCard(t);
    const invoice = await openInvoice(staff);
    await t.call({ method: 'POST', url: `/api/clients/${staff.clientId}/invoices/${invoice.id}/cancel`, token: staff.jwt });
    const refused = await startPaying(invoice.id);
    expect(refused).toMatchObject({
      status: 422,
      body: { code: 'invoice_not_open', errors: ['This invoice is already paid or canceled'] },
    });
    expect((await startPaying(crypto.randomUUID())).status).toBe(404);
    expect(
      (
        await t.call({
          method: 'POST',
          url: `/api/public/invoices/${invoice.id}/payments`,
          headers: { 'idempotency-key': crypto.randomUUID() },
          payload: {},
        })
      ).status,
    ).toBe(422);
  });

  it('gives back a payment that went through after the owner canceled', async () => {
    const staff = await signUpWithCard(t);
    const invoice = await openInvoice(staff, 3_000);
    const payment = await payerCharged(invoice.id);
    await t.call({ method: 'POST', url: `/api/clients/${staff.clientId}/invoices/${invoice.id}/cancel`, token: staff.jwt });
    expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');
    expect(await t.runJob('invoices.refund-duplicates')).toBe(1);

    expect(await publicStatus(invoice.id)).toBe('canceled');
    expect((await t.call({ method: 'GET', url: `/api/public/payments/${payment.id}` })).body.data.status).toBe('refunded');
    expect(await userBalances(t.app.db, staff.userId)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect(await history(staff)).toEqual([expect.objectContaining({ type: 'PAYIN', status: 'REFUNDED' })]);
    expect(await t.runJob('invoices.refund-duplicates')).toBe(0);
    await expectBooksBalanced();
  });

  it('keeps one of two payers paying at the same moment and refunds the other automatically', async () => {
    const staff = await signUpWithCard(t);
    const invoice = await openInvoice(staff, 8_000);
    const [first, second] = await Promise.all([payerCharged(invoice.id), payerCharged(invoice.id)]);
    const outcomes = await Promise.all([
      deliverSandboxEvent(t, first!, 'payment.succeeded'),
      deliverSandboxEvent(t, second!, 'payment.succeeded'),
    ]);
    expect(outcomes).toEqual(['applied', 'applied']);
    // Both workers may try at once: the refund happens once.
    const done = await Promise.all([t.runJob('invoices.refund-duplicates'), t.runJob('invoices.refund-duplicates')]);
    expect(done[0]! + done[1]!).toBe(1);

    const statuses = await Promise.all(
      [first!, second!].map(async (p) => (await t.call({ method: 'GET', url: `/api/public/payments/${p.id}` })).body.data.status),
    );
    expect(statuses.sort()).toEqual(['refunded', 'succeeded']);
    expect(await publicStatus(invoice.id)).toBe('paid');
    expect(await userBalances(t.app.db, staff.userId)).toEqual({ main: 0, hold: 7_600, debt: 0 });
    expect((await history(staff)).map((row) => row.status).sort()).toEqual(['HOLD', 'REFUNDED']);
    await expectBooksBalanced();
  });

  it('answers a repeated Idempotency-Key with the same checkout', async () => {
    const staff = await signUpWithCard(t);
    const invoice = await openInvoice(staff);
    const key = crypto.randomUUID();
    const answers = await Promise.all([startPaying(invoice.id, key), startPaying(invoice.id, key), startPaying(invoice.id, key)]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
  });
});

describe('invoice invariants', () => {
  it('whatever the payers and a cancel do, at most one payment is kept, the rest are given back, and the books balance', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 500_000 }),
        fc.integer({ min: 1, max: 3 }),
        fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
        async (amount, payers, cancelAfter) => {
          const staff = await signUpWithCard(t);
          const invoice = await openInvoice(staff, amount);
          const charged = await Promise.all(Array.from({ length: payers }, () => payerCharged(invoice.id)));
          for (const [index, payment] of charged.entries()) {
            if (cancelAfter === index)
              await t.call({
                method: 'POST',
                url: `/api/clients/${staff.clientId}/invoices/${invoice.id}/cancel`,
                token: staff.jwt,
              });
            expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');
          }
          await t.runJob('invoices.refund-duplicates');

          const statuses = await Promise.all(
            charged.map(
              async (p) => (await t.call({ method: 'GET', url: `/api/public/payments/${p.id}` })).body.data.status as string,
            ),
          );
          const kept = statuses.filter((status) => status === 'succeeded').length;
          const canceledFirst = cancelAfter === 0;
          expect(kept).toBe(canceledFirst ? 0 : 1);
          expect(statuses.filter((status) => status === 'refunded').length).toBe(payers - kept);
          expect(await publicStatus(invoice.id)).toBe(canceledFirst ? 'canceled' : 'paid');
          const fee = Math.floor((amount * 500 + 5_000) / 10_000);
          expect(await userBalances(t.app.db, staff.userId)).toEqual({ main: 0, hold: kept * (amount - fee), debt: 0 });
          await expectBooksBalanced();
        },
      ),
      { numRuns: 8 },
    );
  });
});
