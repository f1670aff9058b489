import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOfPdf } from '../../test/pdf.ts';
import { deliverSandboxEvent, payAtSandboxCheckout, sandboxRefOf } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';

/**
 * The payer's receipt (docs/decisions/0042): at its signed link as a page and a PDF, for a tip, a donation and an
 * invoice; e-mailed in the payer's language; a refund receipt and the recipient's text once per refund.
 */
let t: TestApp;
const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };
const NBSP = '\u00A0';

beforeAll(async () => {
  // The sandbox's own webhook deliveries are held back: each test delivers the events it needs.
  t = await createTestApp({
    env: {
      SANDBOX_WEBHOOK_DELAY_MS: '60000',
      FEE_PERCENT: '5',
      COMPANY_NAME: 'SIA Tipcard Test',
      COMPANY_REGISTRATION_NUMBER: '40203999999',
      COMPANY_ADDRESS: 'Brīvības iela 1, Rīga',
    },
  });
});
afterAll(() => t.close());

type Paid = { id: string; total_cents: number; checkout_url: string };

/** A guest pays a tip at the sandbox's hosted page with a Visa test card, and the provider's event is applied. */
async function paidTip(cardId: string, cents: number, coverFee: boolean): Promise<Paid> {
  const created = await t.call({
    method: 'POST',
    url: `/api/public/cards/${cardId}/payments`,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { amount_cents: cents, cover_fee: coverFee, terms_accepted: true },
  });
  expect(created.status).toBe(201);
  const payment = created.body.data as Paid;
  await payAtSandboxCheckout(t, payment, 'method=card&card_number=5555555555554444');
  await settle(payment);
  return payment;
}

/** Applies the sandbox's due events (its success, with the card's digits) now. */
async function settle(payment: Paid) {
  const event = await t.app.services.sandbox!.fetchStatus(sandboxRefOf(payment));
  expect(event).not.toBeNull();
  await t.app.services.payments.applyEvent('sandbox', event!);
}

/** The receipt link the success page shows (its data, as the page inlines it: payment-pages.routes.test.ts). */
const receiptUrlOf = async (cardId: string, paymentId: string, locale: 'en' | 'fr' = 'en') =>
  (await t.app.services.tips.successOf(cardId, paymentId, locale))!.receipt_url!;
/** A PDF's text as pdf.js reads it. */
const pdfTextOf = async (url: string) => {
  const response = await t.app.inject({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  return textOfPdf(response.rawPayload);
};
const pathOf = (url: string) => new URL(url).pathname;
const outboxTo = async (to: string) =>
  (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).body.data as { body: string }[];

describe('the receipt of a tip', () => {
  it('shows amount, fee covered, recipient, date, reference, card and the operator at a signed link, as a page and a PDF', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Anna <Café Rīga>' });
    const payment = await paidTip(staff.cardId, 500, true);
    const url = await receiptUrlOf(staff.cardId, payment.id);
    expect(url).toMatch(/^http:\/\/[^/]+\/receipts\/[0-9a-f]{64}$/);
    const reference = payment.id.replace(/-/g, '').slice(0, 8).toUpperCase();

    const page = await t.call({ method: 'GET', url: pathOf(url), headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page.body).toContain('Anna &lt;Café Rīga&gt;');
    expect(page.body).not.toContain('<Café');
    for (const text of [
      `Receipt ${reference}`,
      '<dt>Amount</dt><dd>€5.00</dd>',
      '<dt>Fee you covered</dt><dd>€0.25</dd>',
      '<dt>Total paid</dt><dd>€5.25</dd>',
      '<dt>Date</dt><dd>November 20, 2026</dd>',
      '<dt>Paid with</dt><dd>Mastercard ending in 4444</dd>',
      '<dt>Status</dt><dd>Paid</dd>',
      'SIA Tipcard Test',
      'Registration number 40203999999',
      'Brīvības iela 1, Rīga',
    ])
      expect(page.body).toContain(text);
    // Works without a script: a link to the PDF and a plain form for the e-mail.
    expect(page.body).not.toContain('<script');
    expect(page.body).toContain(`href="${pathOf(url)}/receipt.pdf"`);
    expect(page.body).toContain(`<form method="post" action="${pathOf(url)}/email">`);

    const pdf = await t.call({ method: 'GET', url: `${pathOf(url)}/receipt.pdf` });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="receipt-${reference}.pdf"`);
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    const text = await pdfTextOf(`${pathOf(url)}/receipt.pdf`);
    for (const line of [
      `Receipt ${reference}`,
      'Anna <Café Rīga>',
      '€5.00',
      'Fee you covered €0.25',
      'Total paid €5.25',
      'November 20, 2026',
      'Mastercard ending in 4444',
      'SIA Tipcard Test',
      'Registration number 40203999999',
    ])
      expect(text).toContain(line);
  });

  it('speaks the payer’s language: page, PDF and e-mail in French', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Marie' });
    const payment = await paidTip(staff.cardId, 1_000, false);
    const url = await receiptUrlOf(staff.cardId, payment.id, 'fr');
    expect(pathOf(url)).toMatch(/^\/fr\/receipts\//);
    const page = await t.call({ method: 'GET', url: pathOf(url), headers: { 'accept-language': 'en' } });
    expect(page.body).toContain('<html lang="fr">');
    expect(page.body).toContain(`<dt>Montant</dt><dd>10,00${NBSP}€</dd>`);
    expect(page.body).toContain('<dt>Payé avec</dt><dd>Mastercard se terminant par 4444</dd>');
    expect(page.body).not.toContain('Frais pris en charge');
    expect(page.body).toContain('Télécharger le PDF');
    // Without a prefix, the browser's language.
    const plain = pathOf(url).replace(/^\/fr/, '');
    expect((await t.call({ method: 'GET', url: plain, headers: { 'accept-language': 'es-ES' } })).body).toContain('Recibo ');

    const pdf = await pdfTextOf(`${pathOf(url)}/receipt.pdf`);
    expect(pdf).toContain('Reçu ');
    expect(pdf).toContain('Total payé 10,00');
    expect(pdf).toContain('20 novembre 2026');

    const asked = await t.call({
      method: 'POST',
      url: `${pathOf(url)}/email`,
      headers: FORM,
      payload: new URLSearchParams({ email: 'marie.payeur@example.fr' }).toString(),
    });
    expect(asked.status).toBe(303);
    expect(asked.headers.location).toBe(`${pathOf(url)}?email=sent`);
    const [mail] = await outboxTo('marie.payeur@example.fr');
    expect(mail!.body).toContain('Subject: Votre reçu Tipcard');
    expect(mail!.body).toContain(`Payé${NBSP}: 10,00${NBSP}€`);
    expect(mail!.body).toContain(url);
    const after = await t.call({ method: 'GET', url: `${pathOf(url)}?email=sent` });
    expect(after.body).toContain('Le reçu est en route');
  });

  it('draws the page in the pseudo-locale for the sweep when the locale cookie asks, amounts and dates in English', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Marie' });
    const payment = await paidTip(staff.cardId, 1_000, false);
    const plain = pathOf(await receiptUrlOf(staff.cardId, payment.id));
    const page = await t.call({ method: 'GET', url: plain, headers: { cookie: 'locale=pseudo' } });
    expect(page.body).toContain('<html lang="en-XA">');
    expect(page.body).toMatch(/<dt>\[Åɱöûñţ[^\]]*\]<\/dt><dd>€10\.00<\/dd>/);
    expect(page.body).toContain(`href="${plain}/receipt.pdf"`);
    // A language prefix names the language whatever the cookie says; a made-up link's 404 is in the pseudo-locale too.
    const french = await t.call({ method: 'GET', url: `/fr${plain}`, headers: { cookie: 'locale=pseudo' } });
    expect(french.body).toContain('<html lang="fr">');
    const missing = await t.call({ method: 'GET', url: '/receipts/made-up', headers: { cookie: 'locale=pseudo' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<html lang="en-XA">');
  });

  it('cannot be guessed: a made-up, altered or bare-id link is a 404 that names nothing', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Secret Name' });
    const payment = await paidTip(staff.cardId, 300, false);
    const url = pathOf(await receiptUrlOf(staff.cardId, payment.id));
    const token = url.split('/').pop()!;
    const flipped = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    const otherSigned = t.app.services.receipts.tokenOf(crypto.randomUUID());
    for (const wrong of [
      `/receipts/${flipped}`,
      `/receipts/${payment.id}`,
      `/receipts/${payment.id.replace(/-/g, '')}`,
      `/receipts/${otherSigned}`,
      `/receipts/${flipped}/receipt.pdf`,
      '/receipts/x',
    ]) {
      const answer = await t.call({ method: 'GET', url: wrong });
      expect(answer.status, wrong).toBe(404);
      expect(answer.body).not.toContain('Secret Name');
      expect(answer.body).not.toContain('€3.00');
      expect(answer.headers['cache-control']).toBe('private, no-store');
    }
    const posted = await t.call({
      method: 'POST',
      url: `/receipts/${flipped}/email`,
      headers: FORM,
      payload: 'email=a%40example.com',
    });
    expect(posted.status).toBe(404);
    // A payment not paid yet has no receipt either.
    const created = await t.call({
      method: 'POST',
      url: `/api/public/cards/${staff.cardId}/payments`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { amount_cents: 300, cover_fee: false, terms_accepted: true },
    });
    const unpaid = t.app.services.receipts.tokenOf(created.body.data.id);
    expect((await t.call({ method: 'GET', url: `/receipts/${unpaid}` })).status).toBe(404);
    // Another site cannot make the payer's browser send the receipt elsewhere.
    const forged = await t.call({
      method: 'POST',
      url: `${url}/email`,
      headers: { ...FORM, 'sec-fetch-site': 'cross-site' },
      payload: 'email=a%40example.com',
    });
    expect(forged.status).toBe(403);
  });
});

describe('the receipt of a donation and of an invoice', () => {
  it('e-mails a one-off donor the receipt at once, in the donor’s language, and shows it', async () => {
    const charity = await signUpWithCard(t, { activity_type: 'DONATION', public_name: 'Dzīvnieku patversme' });
    const created = await t.call({
      method: 'POST',
      url: `/api/public/cards/${charity.cardId}/donations`,
      headers: { 'idempotency-key': crypto.randomUUID(), 'accept-language': 'fr' },
      payload: {
        donor_name: 'Jeanne',
        email: 'jeanne@example.fr',
        donor_code: 'FR-123',
        amount_cents: 2_000,
        cover_fee: false,
        terms_accepted: true,
        locale: 'fr',
      },
    });
    expect(created.status).toBe(201);
    const payment = created.body.data as Paid;
    await payAtSandboxCheckout(t, payment);
    await settle(payment);
    const mails = await outboxTo('jeanne@example.fr');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain('Merci pour votre paiement à Dzīvnieku patversme.');
    const url = /(http:\/\/\S+\/fr\/receipts\/[0-9a-f]{64})/.exec(mails[0]!.body)![1]!;
    const page = await t.call({ method: 'GET', url: pathOf(url) });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<dt>Payé à</dt><dd>Dzīvnieku patversme</dd>');
    expect(page.body).toContain('<dt>Donateur</dt><dd>Jeanne</dd>');
    expect(page.body).toContain(`<dt>Total payé</dt><dd>20,00${NBSP}€</dd>`);
    const pdf = await pdfTextOf(`${pathOf(url)}/receipt.pdf`);
    expect(pdf).toContain('Dzīvnieku patversme');
    expect(pdf).toContain(`20,00`);
  });

  it('shows what an invoice was for', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Foto Studija' });
    const invoice = (
      await t.call({
        method: 'POST',
        url: `/api/clients/${staff.clientId}/invoices`,
        token: staff.jwt,
        payload: { description: 'Wedding photos', amount_cents: 12_000 },
      })
    ).body.data as { id: string };
    const created = await t.call({
      method: 'POST',
      url: `/api/public/invoices/${invoice.id}/payments`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { terms_accepted: true },
    });
    const payment = created.body.data as Paid;
    // The return page the payer polls links the receipt once the books hold the payment, in the page's language.
    const polled = (locale: string) =>
      t.call({ method: 'GET', url: `/api/public/payments/${payment.id}`, headers: { 'accept-language': locale } });
    expect((await polled('en')).body.data.receipt_url).toBeNull();
    await payAtSandboxCheckout(t, payment);
    await settle(payment);
    const url = t.app.services.receipts.urlOf(payment.id, 'en');
    expect((await polled('en')).body.data.receipt_url).toBe(url);
    expect((await polled('fr')).body.data.receipt_url).toBe(t.app.services.receipts.urlOf(payment.id, 'fr'));
    const page = await t.call({ method: 'GET', url: pathOf(url) });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<dt>Paid to</dt><dd>Foto Studija</dd>');
    expect(page.body).toContain('<dt>For</dt><dd>Wedding photos</dd>');
    expect(page.body).toContain('<dt>Paid with</dt><dd>Visa ending in 4242</dd>');
    const pdf = await pdfTextOf(`${pathOf(url)}/receipt.pdf`);
    expect(pdf).toContain('Wedding photos');
    expect(pdf).toContain('€120.00');
  });
});

describe('a refund', () => {
  /** The provider's refund event as its webhook sends it: the same id each time it is delivered again. */
  function deliverRefund(payment: Paid, refundedCents: number, id = `evt_refund_${payment.id}_${refundedCents}`) {
    return deliverSandboxEvent(t, payment, 'payment.refunded', { id, amountCents: refundedCents });
  }

  it('sends the payer one refund receipt and the recipient one text per refund, however often the event comes', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Pēteris' });
    const payment = await paidTip(staff.cardId, 1_000, false);
    const url = pathOf(await receiptUrlOf(staff.cardId, payment.id));
    await t.call({ method: 'POST', url: `${url}/email`, headers: FORM, payload: 'email=guest.refund%40example.com' });

    // The back office's refund of 4 EUR: through the provider, whose answer and webhook both reach the books.
    await t.app.services.payments.refundPayment(payment.id, 400, `ops:${payment.id}:1`);
    expect(await deliverRefund(payment, 400)).not.toBe('applied');
    expect(await deliverRefund(payment, 400)).toBe('duplicate');
    expect(await deliverRefund(payment, 400, 'evt_other_id_same_refund')).toBe('ignored');

    const mails = await outboxTo('guest.refund@example.com');
    const refunds = mails.filter((mail) => mail.body.includes('Subject: Refund of'));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.body).toContain('Subject: Refund of €4.00 from Tipcard');
    expect(refunds[0]!.body).toContain('€4.00 of your payment of €10.00 to Pēteris was refunded');
    expect(refunds[0]!.body).toContain(`Your updated receipt: ${t.app.config.publicUrl}${url}`);
    const texts = await outboxTo(staff.phone);
    expect(texts.filter((text) => text.body.includes('was refunded to the payer'))).toHaveLength(1);

    const page = await t.call({ method: 'GET', url });
    expect(page.body).toContain('<dt>Refunded</dt><dd>€4.00</dd>');
    expect(page.body).toContain('<dt>Status</dt><dd>Partly refunded</dd>');

    // The rest, told once more: 6 EUR this time, 10 in all.
    await t.app.services.payments.refundPayment(payment.id, 600, `ops:${payment.id}:2`);
    expect(await deliverRefund(payment, 1_000)).not.toBe('applied');
    const second = (await outboxTo('guest.refund@example.com')).filter((mail) => mail.body.includes('Subject: Refund of'));
    expect(second).toHaveLength(2);
    expect(second.some((mail) => mail.body.includes('Refunded in all: €10.00'))).toBe(true);
    expect((await t.call({ method: 'GET', url })).body).toContain('<dt>Status</dt><dd>Refunded</dd>');
    const pdf = await pdfTextOf(`${url}/receipt.pdf`);
    expect(pdf).toContain('Refunded €10.00');
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('tells of one refund once when its events race each other and the back office’s own answer', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Race' });
    const payment = await paidTip(staff.cardId, 900, false);
    await t.app.services.receipts.sendTo(payment.id, 'race@example.com', 'en');
    await Promise.all([
      t.app.services.payments.refundPayment(payment.id, 900, `ops:${payment.id}`),
      ...Array.from({ length: 4 }, (_, i) => deliverRefund(payment, 900, `evt_race_${i}_${payment.id}`)),
    ]);
    const refunds = (await outboxTo('race@example.com')).filter((mail) => mail.body.includes('Subject: Refund of'));
    expect(refunds).toHaveLength(1);
    expect((await outboxTo(staff.phone)).filter((text) => text.body.includes('refunded to the payer'))).toHaveLength(1);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('texts a recipient in their stored language, and not at all once they turned refund texts off', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Laura' });
    await t.call({
      method: 'PATCH',
      url: `/api/clients/${staff.clientId}/language`,
      token: staff.jwt,
      payload: { language: 'es' },
    });
    const first = await paidTip(staff.cardId, 500, false);
    await t.app.services.payments.refundPayment(first.id, 500, `ops:${first.id}`);
    const spanish = (await outboxTo(staff.phone)).filter((text) => text.body.includes('reembolsado al pagador'));
    expect(spanish).toHaveLength(1);
    // All GSM-7 but its no-break space, so it goes out with a plain one, in 160-character parts (decision 0035).
    expect(spanish[0]!.body).toContain('5,00 €');

    await t.call({
      method: 'PATCH',
      url: `/api/clients/${staff.clientId}/notifications`,
      token: staff.jwt,
      payload: { sms_support_replies: true, sms_payouts: true, sms_refunds: false },
    });
    const second = await paidTip(staff.cardId, 500, false);
    await t.app.services.payments.refundPayment(second.id, 500, `ops:${second.id}`);
    expect((await outboxTo(staff.phone)).filter((text) => text.body.includes('reembolsado al pagador'))).toHaveLength(1);
  });

  it('is told of a refund that came before the success only once the books hold the payment', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Ilze' });
    const created = await t.call({
      method: 'POST',
      url: `/api/public/cards/${staff.cardId}/payments`,
      headers: { 'idempotency-key': crypto.randomUUID() },
      payload: { amount_cents: 800, cover_fee: false, terms_accepted: true },
    });
    const payment = created.body.data as Paid;
    await t.app.services.receipts.sendTo(payment.id, 'early@example.com', 'en').catch(() => undefined);
    expect(await deliverRefund(payment, 300)).toBe('applied');
    expect((await outboxTo(staff.phone)).filter((text) => text.body.includes('refunded to the payer'))).toHaveLength(0);
    expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');
    expect((await outboxTo(staff.phone)).filter((text) => text.body.includes('refunded to the payer'))).toHaveLength(1);
  });
});
