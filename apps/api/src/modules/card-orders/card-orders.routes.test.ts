import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../db/schema/payments.ts';
import { textOfPdf } from '../../test/pdf.ts';
import { sandboxSigner } from '../../test/sandbox-events.ts';
import { createTestApp, signUp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { platformBalance } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';

const ADDRESS = {
  country: 'LV',
  city: 'Rīga',
  address: 'Brīvības iela 1',
  apartment: '12',
  zip: 'LV-1010',
  first_name: 'Anna',
  last_name: 'Bērziņa',
  additional_info: null,
};
type User = Awaited<ReturnType<typeof signUpWithCard>>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { CARD_PRICE_CENTS: '500' } });
});
afterAll(() => t.close());

const order = (user: User, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.call({
    method: 'POST',
    url: `/api/clients/${user.clientId}/card-orders`,
    token: user.jwt,
    headers,
    payload: { product: 'card', quantity: 1, ...ADDRESS, ...body },
  });
const listOf = async (user: User) =>
  (await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/card-orders`, token: user.jwt })).body.data;
const refOf = (checkoutUrl: string) =>
  JSON.parse(Buffer.from(new URL(checkoutUrl).searchParams.get('c')!.split('.')[0]!, 'base64url').toString()).ref as string;

/** The user pays on the sandbox's hosted page (or cancels there), and the provider's answer is applied at once. */
async function settleAtCheckout(checkoutUrl: string, action: 'pay' | 'cancel' | 'decline') {
  const url = new URL(checkoutUrl);
  const cancel = action === 'cancel';
  const answer = await t.call({
    method: 'POST',
    url: `${url.pathname}${cancel ? '/cancel' : ''}${url.search}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: cancel ? '' : `method=card&card_number=${action === 'pay' ? '4242424242424242' : '4000000000000002'}`,
  });
  expect(answer.status).toBe(303);
  await t.app.services.payments.applyEvent('sandbox', (await sandboxSigner(t).fetchStatus(refOf(checkoutUrl)))!);
  return String(answer.headers.location);
}

describe('card shop: rules with the spec’s texts', () => {
  it('lists both products with their print sizes and the price', async () => {
    const products = await t.call({ method: 'GET', url: '/api/card-products' });
    expect(products.status).toBe(200);
    expect(products.body.data).toEqual([
      { id: 'card', width_mm: 85.6, height_mm: 54, bleed_mm: 3, unit_price_cents: 500, currency: 'EUR' },
      { id: 'sticker', width_mm: 50, height_mm: 50, bleed_mm: 3, unit_price_cents: 500, currency: 'EUR' },
    ]);
  });

  it('places the first order free at once, with 3–4 day delivery left to production', async () => {
    const user = await signUpWithCard(t);
    expect(await listOf(user)).toMatchObject({
      orders: [],
      next_order_free: true,
      items_ordered: 0,
      items_left: 10,
      max_items_per_order: 3,
      unit_price_cents: 500,
    });
    const placed = await order(user, { quantity: 2 });
    expect(placed.status).toBe(201);
    expect(placed.body.data).toMatchObject({
      status: 'placed',
      free: true,
      total_cents: 0,
      quantity: 2,
      checkout_url: null,
      city: 'Rīga',
      apartment: '12',
    });
    expect(await listOf(user)).toMatchObject({ next_order_free: false, items_ordered: 2, items_left: 8 });
    const one = await t.call({
      method: 'GET',
      url: `/api/clients/${user.clientId}/card-orders/${placed.body.data.id}`,
      token: user.jwt,
    });
    expect(one.body.data.id).toBe(placed.body.data.id);
  });

  it('refuses more than 3 items in an order with the spec’s text, changing nothing', async () => {
    const user = await signUpWithCard(t);
    const refused = await order(user, { quantity: 4 });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'card_order_too_many_items',
      errors: ['More than 3 cards in an order requires contacting support'],
    });
    expect((await listOf(user)).orders).toEqual([]);
  });

  it('refuses an order past 10 items per user with the spec’s text', async () => {
    const user = await signUpWithCard(t);
    expect((await order(user, { quantity: 3 })).status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const paid = await order(user, { quantity: 3 });
      expect(paid.body.data.status).toBe('awaiting_payment');
      await settleAtCheckout(paid.body.data.checkout_url, 'pay');
    }
    const refused = await order(user, { quantity: 2 });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'card_order_limit',
      errors: ['You have already ordered too many cards. Contact support if you need more.'],
    });
    expect((await order(user, { quantity: 1 })).status).toBe(201);
    expect(await listOf(user)).toMatchObject({ items_ordered: 10, items_left: 0 });
  });

  it('answers a bad form with the field errors, a user without a card, and others’ orders, without changing anything', async () => {
    const user = await signUpWithCard(t);
    const blank = await order(user, { city: ' ', zip: undefined, quantity: 0, product: 'mug' });
    expect(blank.status).toBe(422);
    expect(blank.body.validation_errors).toMatchObject({
      city: ['This value should not be blank.'],
      zip: ['This value should not be blank.'],
    });
    expect(Object.keys(blank.body.validation_errors)).toEqual(expect.arrayContaining(['quantity', 'product']));
    const cardless = await signUp(t);
    const noCard = await t.call({
      method: 'POST',
      url: `/api/clients/${cardless.clientId}/card-orders`,
      token: cardless.jwt,
      payload: { product: 'card', quantity: 1, ...ADDRESS },
    });
    expect(noCard.body.code).toBe('card_order_no_card');
    const placed = await order(user, {});
    const other = await signUpWithCard(t);
    for (const url of [
      `/api/clients/${user.clientId}/card-orders`,
      `/api/clients/${other.clientId}/card-orders/${placed.body.data.id}`,
      `/api/clients/${other.clientId}/card-orders/${placed.body.data.id}/preview`,
    ]) {
      expect((await t.call({ method: 'GET', url, token: other.jwt })).status).toBe(404);
    }
    expect((await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/card-orders` })).status).toBe(401);
  });

  it('answers the same order to a retry with the same Idempotency-Key, and refuses the key with another body', async () => {
    const user = await signUpWithCard(t);
    const key = { 'idempotency-key': crypto.randomUUID() };
    const first = await order(user, { quantity: 2 }, key);
    const again = await order(user, { quantity: 2 }, key);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await order(user, { quantity: 3 }, key)).body.code).toBe('idempotency_key_reused');
    expect(await listOf(user)).toMatchObject({ items_ordered: 2 });
  });
});

describe('card shop: which card is printed', () => {
  it('prints the team card for the team admin who asks for it, the own card otherwise, and no card of another', async () => {
    const admin = await signUpWithCard(t);
    const created = await t.call({
      method: 'POST',
      url: `/api/clients/${admin.clientId}/workplace`,
      token: admin.jwt,
      payload: { name: 'Café Brīvība', country: 'LV' },
    });
    const team = created.body.data.team as { id: string; card_id: string };
    const member = await signUpWithCard(t);
    const asked = await t.call({ method: 'POST', url: `/api/teams/${team.id}/requests`, token: member.jwt });
    const approved = await t.call({
      method: 'POST',
      url: `/api/teams/${team.id}/requests/${asked.body.data.id}/approve`,
      token: admin.jwt,
    });
    expect(approved.status).toBe(200);
    const pdf = (who: typeof admin, url: string) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${who.jwt}` } });
    const preview = (who: typeof admin, cardId?: string) =>
      pdf(who, `/api/clients/${who.clientId}/card-orders/preview?product=card${cardId ? `&card_id=${cardId}` : ''}`);
    const teamPreview = await preview(admin, team.card_id);
    expect(teamPreview.statusCode).toBe(200);
    expect(await textOfPdf(teamPreview.rawPayload)).toContain('Café Brīvība');
    const ownPreview = await textOfPdf((await preview(admin)).rawPayload);
    expect(ownPreview).toContain('Anna');
    expect(ownPreview).not.toContain('Café Brīvība');

    const placed = await order(admin, { card_id: team.card_id });
    expect(placed.status).toBe(201);
    expect(placed.body.data.card_id).toBe(team.card_id);
    const own = await order(admin, {});
    expect(own.body.data.card_id).not.toBe(team.card_id);
    const printed = await pdf(admin, `/api/clients/${admin.clientId}/card-orders/${placed.body.data.id}/preview`);
    expect(await textOfPdf(printed.rawPayload)).toContain('Café Brīvība');

    // A member who does not run the team, and anyone else, learn nothing of its card and order nothing with it.
    expect((await preview(member, team.card_id)).statusCode).toBe(404);
    const refused = await t.call({
      method: 'POST',
      url: `/api/clients/${member.clientId}/card-orders`,
      token: member.jwt,
      payload: { product: 'card', quantity: 1, ...ADDRESS, card_id: team.card_id },
    });
    expect(refused.status).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `/api/clients/${member.clientId}/card-orders`, token: member.jwt })).body.data,
    ).toMatchObject({ orders: [], items_ordered: 0 });
  });
});

describe('card shop: paying, canceling and refunding', () => {
  it('takes a later order through the checkout: success places it and credits card_sales', async () => {
    const user = await signUpWithCard(t);
    await order(user, {});
    const salesBefore = await platformBalance(t.app.db, 'card_sales');
    const paid = await order(user, { quantity: 3, product: 'sticker' });
    expect(paid.body.data).toMatchObject({ status: 'awaiting_payment', free: false, total_cents: 1500 });
    expect(paid.body.data.checkout_url).toContain('/api/sandbox/checkout');
    const back = await settleAtCheckout(paid.body.data.checkout_url, 'pay');
    expect(back).toMatch(new RegExp(`/#/card-orders/payment/success\\?order=${paid.body.data.id}&payment=`));
    const after = (await listOf(user)).orders.find((o: { id: string }) => o.id === paid.body.data.id);
    expect(after).toMatchObject({ id: paid.body.data.id, status: 'placed', checkout_url: null });
    expect(await platformBalance(t.app.db, 'card_sales')).toBe(salesBefore + 1500);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('cancels the order when the payer cancels or is declined, freeing its items', async () => {
    const user = await signUpWithCard(t);
    await order(user, { quantity: 3 });
    // Ordered in Latvian: the provider sends the user back to the Latvian page.
    const canceled = await order(user, { quantity: 3 }, { 'accept-language': 'lv' });
    const back = await settleAtCheckout(canceled.body.data.checkout_url, 'cancel');
    expect(back).toContain(`/#/lv/card-orders/payment/canceled?order=${canceled.body.data.id}`);
    const declined = await order(user, { quantity: 3 });
    await settleAtCheckout(declined.body.data.checkout_url, 'decline');
    const list = await listOf(user);
    expect(list.orders.filter((o: { status: string }) => o.status === 'canceled')).toHaveLength(2);
    expect(list).toMatchObject({ items_ordered: 3, next_order_free: false });
  });

  it('moves an order through production, shipping and delivery, and refuses moves out of order', async () => {
    const user = await signUpWithCard(t);
    const { id } = (await order(user, {})).body.data;
    const shop = t.app.services.cardOrders;
    await expect(shop.ship(id, 'LV123')).rejects.toMatchObject({ code: 'card_order_status' });
    expect(await shop.startProduction(id)).toMatchObject({ status: 'in_production' });
    expect(await shop.ship(id, ' RR123456789LV ')).toMatchObject({ status: 'shipped', tracking_reference: 'RR123456789LV' });
    await expect(shop.cancelOrder(id)).rejects.toMatchObject({ code: 'card_order_status' });
    expect(await shop.markDelivered(id)).toMatchObject({ status: 'delivered' });
    expect((await listOf(user)).orders[0]).toMatchObject({ status: 'delivered', tracking_reference: 'RR123456789LV' });
  });

  it('refunds a canceled paid order in full through the provider, once, and cancels a free one without money', async () => {
    const user = await signUpWithCard(t);
    const free = (await order(user, {})).body.data;
    const paid = (await order(user, { quantity: 2 })).body.data;
    await settleAtCheckout(paid.checkout_url, 'pay');
    const sales = await platformBalance(t.app.db, 'card_sales');
    const shop = t.app.services.cardOrders;
    const answers = await Promise.allSettled(Array.from({ length: 5 }, () => shop.cancelOrder(paid.id)));
    expect(answers.filter((a) => a.status === 'fulfilled').length).toBeGreaterThan(0);
    expect((await listOf(user)).orders.find((o: { id: string }) => o.id === paid.id).status).toBe('canceled');
    expect(await platformBalance(t.app.db, 'card_sales')).toBe(sales - 1000);
    const [payment] = await t.app.db.select().from(payments).where(eq(payments.subjectId, paid.id));
    expect(payment).toMatchObject({ status: 'refunded' });
    expect(payment!.refundedCents).toBe(1000);
    expect(await shop.cancelOrder(free.id)).toMatchObject({ status: 'canceled' });
    // The free order canceled, the next one is free again.
    expect(await listOf(user)).toMatchObject({ next_order_free: true, items_ordered: 0 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});

describe('card shop: payments that arrive for canceled orders', () => {
  const paymentOf = async (orderId: string) =>
    (await t.app.db.select().from(payments).where(eq(payments.subjectId, orderId)))[0]!;
  /** The guest pays at the sandbox's page, and the provider's success is applied (its webhook not yet sent). */
  async function payLate(checkoutUrl: string) {
    const url = new URL(checkoutUrl);
    const paid = await t.call({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'method=card&card_number=4242424242424242',
    });
    expect(paid.status).toBe(303);
    return t.app.services.payments.applyEvent('sandbox', (await sandboxSigner(t).fetchStatus(refOf(checkoutUrl)))!);
  }

  it('gives back in full a checkout paid after the back office canceled its order, never placing it past 10 items', async () => {
    const user = await signUpWithCard(t);
    await order(user, { quantity: 3 }); // free
    const canceled = (await order(user, { quantity: 3 })).body.data;
    expect(await t.app.services.cardOrders.cancelOrder(canceled.id)).toMatchObject({ status: 'canceled' });
    // Its items are free again, and the user orders up to the limit.
    for (const quantity of [3, 3, 1]) expect((await order(user, { quantity })).status).toBe(201);
    const sales = await platformBalance(t.app.db, 'card_sales');

    expect(await payLate(canceled.checkout_url)).toBe('applied');
    expect((await listOf(user)).orders.find((o: { id: string }) => o.id === canceled.id)).toMatchObject({ status: 'canceled' });
    expect((await listOf(user)).items_ordered).toBe(10);
    await t.runJob('card-orders.refund-canceled');
    expect(await paymentOf(canceled.id)).toMatchObject({ status: 'refunded', refundedCents: 1_500 });
    expect(await platformBalance(t.app.db, 'card_sales')).toBe(sales);
    // Given back once: the job finds nothing more to do.
    expect(await t.app.services.jobs.find((job) => job.name === 'card-orders.refund-canceled')!.runOne(t.clock.now())).toBe(
      false,
    );
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('places a late capture after the checkout was reported closed while items allow, and gives it back when they do not', async () => {
    const user = await signUpWithCard(t);
    await order(user, { quantity: 3 }); // free
    /** An order whose checkout the provider reported closed (its cancel event overtook the capture). */
    const closed = async (quantity: number) => {
      const awaiting = (await order(user, { quantity })).body.data;
      const event = {
        id: `evt_${crypto.randomUUID()}`,
        type: 'payment.canceled' as const,
        provider_ref: refOf(awaiting.checkout_url),
        payment_id: (await paymentOf(awaiting.id)).id,
        amount_cents: 0,
        currency: 'EUR',
        created_at: t.clock.now().getTime(),
      };
      expect(await t.app.services.payments.applyEvent('sandbox', event)).toBe('applied');
      expect((await listOf(user)).orders.find((o: { id: string }) => o.id === awaiting.id).status).toBe('canceled');
      return awaiting;
    };
    const roomy = await closed(2);
    await payLate(roomy.checkout_url);
    expect((await listOf(user)).orders.find((o: { id: string }) => o.id === roomy.id)).toMatchObject({ status: 'placed' });

    const full = await closed(3);
    for (const quantity of [2, 3]) expect((await order(user, { quantity })).status).toBe(201);
    await payLate(full.checkout_url);
    expect((await listOf(user)).orders.find((o: { id: string }) => o.id === full.id)).toMatchObject({ status: 'canceled' });
    expect((await listOf(user)).items_ordered).toBe(10);
    await t.runJob('card-orders.refund-canceled');
    expect(await paymentOf(full.id)).toMatchObject({ status: 'refunded', refundedCents: 1_500 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});

describe('card shop: concurrency', () => {
  it('20 concurrent orders by one user never exceed 10 items, 3 per order, or one free order', async () => {
    const user = await signUpWithCard(t);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => order(user, { quantity: 1 + (i % 4) })));
    const created = answers.filter((a) => a.status === 201).map((a) => a.body.data);
    const codes = answers.filter((a) => a.status !== 201).map((a) => a.body.code);
    expect(new Set(codes)).toEqual(new Set(['card_order_too_many_items', 'card_order_limit']));
    expect(created.every((o) => o.quantity <= 3)).toBe(true);
    expect(created.reduce((sum, o) => sum + o.quantity, 0)).toBeLessThanOrEqual(10);
    expect(created.filter((o) => o.free)).toHaveLength(1);
    const list = await listOf(user);
    expect(list.items_ordered).toBe(created.reduce((sum, o) => sum + o.quantity, 0));
    expect(list.orders.filter((o: { free: boolean }) => o.free)).toHaveLength(1);
  });
});
