import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import sharp from 'sharp';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donations } from '../../db/schema/donations.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { deliverSandboxEvent, openPayment, payAtSandboxCheckout } from '../../test/sandbox-events.ts';
import { BOOT_SCRIPT_CSP_HASH } from '../web-shell/web-shell.service.ts';

/**
 * The guest's pages as the server renders them: with the web app's own renderer (its source, as `vite build --ssr`
 * bundles it), a built public.html with a stylesheet to inline, and the real app on a clean database.
 */
let t: TestApp;
let cardId: string;
let ownerJwt: string;
const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };

const dataOf = (html: string) => JSON.parse(/<script type="application\/json" id="tipcard-data">(.*?)<\/script>/.exec(html)![1]!);

beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), 'tipcard-pay-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'public-x.css'), '.guest-page-css{color:red}');
  writeFileSync(
    join(webDist, 'public.html'),
    '<!doctype html><html lang="en"><head><title>Pay</title><script type="module" crossorigin src="/assets/public-x.js"></script><link rel="stylesheet" crossorigin href="/assets/public-x.css"></head><body><div id="root"></div></body></html>',
  );
  t = await createTestApp({
    config: { webDist, webServerEntry: fileURLToPath(new URL('../../../../web/src/public-server.tsx', import.meta.url)) },
  });
  ({ cardId, jwt: ownerJwt } = await signUpWithCard(t, { public_name: 'Jānis </script> $&' }));
});

afterAll(() => t.close());

describe('the guest page rendered on the server', () => {
  it('answers /payment/{id} with the form as HTML, the CSS inlined and the data for hydration', async () => {
    const page = await t.call({ method: 'GET', url: `/payment/${cardId}`, headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<style>.guest-page-css{color:red}</style>');
    expect(page.body).not.toContain('rel="stylesheet"');
    expect(page.body).toContain('<html lang="fr"');
    // The form is in the markup, posting to the page, with an amount chosen and Pay in the reader's decimal mark.
    const form = /<form[^>]*>/.exec(page.body)![0];
    // It posts under the page's language, so a refused form comes back in French too.
    expect(form).toContain(`action="/fr/payment/${cardId}"`);
    expect(form).toContain('method="post"');
    expect(page.body).toMatch(/<input[^>]*name="amount" checked="" value="500"/);
    expect(page.body).toContain('Payer <span data-testid="summary-total">5,00 €</span>');
    expect(page.body).toContain('Jānis &lt;/script&gt; $&amp;');
    const data = dataOf(page.body);
    expect(data).toMatchObject({ card: { id: cardId, public_name: 'Jānis </script> $&' }, locale: 'fr', start: null });
    // Every guest gets these bytes (the page is cached): no per-view key in them (see "cached for every guest").
    expect(data.form_key).toBeUndefined();
    expect(page.body).not.toContain('name="idempotency_key"');
    // The script starts after the first paint, from the one inline script the CSP allows: nothing else to fetch first.
    expect(page.body).toMatch(/<script data-entry="\/assets\/public-x\.js">[^<]+<\/script>\s*<\/body>/);
    expect(page.body).not.toContain('type="module"');
    expect(page.headers['content-security-policy']).toContain(`script-src 'self' ${BOOT_SCRIPT_CSP_HASH}`);
  });

  it('answers an unknown card with 404 and the "no longer active" page', async () => {
    for (const url of [`/payment/${crypto.randomUUID()}`, '/payment/not-a-card']) {
      const missing = await t.call({ method: 'GET', url });
      expect(missing.status).toBe(404);
      expect(dataOf(missing.body).card).toBeNull();
      expect(missing.body).toContain('This link is no longer active');
    }
  });

  it('renders the page in the language its path names (/lv/payment/…), whatever the browser and the cookie say', async () => {
    const page = await t.call({
      method: 'GET',
      url: `/lv/payment/${cardId}`,
      headers: { 'accept-language': 'fr-FR,fr;q=0.9', cookie: 'locale=es' },
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<html lang="lv"');
    expect(dataOf(page.body)).toMatchObject({ card: { id: cardId }, locale: 'lv' });
    expect(page.body).toContain('Maksāt <span data-testid="summary-total">5,00 €</span>');
    const unknownLanguage = await t.call({ method: 'GET', url: `/de/payment/${cardId}`, headers: { accept: 'text/html' } });
    expect(unknownLanguage.body).not.toContain('Maksāt');
  });

  it("answers an address it cannot read with a page saying so, in the reader's language, not with the API's JSON", async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/payment/%E0%A4%A',
      headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': 'es' },
    });
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<html lang="es">');
    expect(page.body).toContain('<h1>Este enlace ya no está activo o se ha eliminado...</h1>');
    expect(page.body).toContain('<a href="/">');
    expect(page.body).not.toContain('Malformed request');
    const call = await t.app.inject({ method: 'GET', url: '/api/public/cards/%E0%A4%A', headers: { accept: 'text/html' } });
    expect(call.statusCode).toBe(400);
    expect(call.json()).toMatchObject({ code: 'bad_request' });
  });
});

describe('the form page and the public card, cached for every guest', () => {
  const cardUrls = () => [`/payment/${cardId}`, `/api/public/cards/${cardId}`];
  const get = (url: string, headers: Record<string, string> = {}) => t.call({ method: 'GET', url, headers });

  it('carry a tag and a short public max-age, and answer 304 to the tag the client has', async () => {
    for (const url of cardUrls()) {
      const first = await get(url);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('public, max-age=30');
      expect(first.headers.etag).toMatch(/^W\/".+"$/);
      const again = await get(url);
      expect(again.headers.etag).toBe(first.headers.etag);
      const revalidated = await get(url, { 'if-none-match': String(first.headers.etag) });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body).toBe('');
      expect((await get(url, { 'if-none-match': 'W/"something-else"' })).status).toBe(200);
    }
    expect(String((await get(`/payment/${cardId}`)).headers.vary)).toMatch(/Accept-Language, Cookie, Accept-Encoding/);
  });

  it('sends the page compressed as the browser accepts, the same page as uncompressed', async () => {
    const plain = await get(`/payment/${cardId}`);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/payment/${cardId}`,
        headers: { 'accept-encoding': `${encoding}, deflate` },
      });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(decode(response.rawPayload).toString('utf8')).toBe(plain.body);
    }
  });

  it('change their tag when the card changes: its public fields, then its photo', async () => {
    const tags = async () => Promise.all(cardUrls().map(async (url) => String((await get(url)).headers.etag)));
    const before = await tags();
    const patched = await t.call({
      method: 'PATCH',
      url: `/api/cards/${cardId}`,
      token: ownerJwt,
      payload: { welcome_phrase: 'Paldies!' },
    });
    expect(patched.status).toBe(200);
    const afterPatch = await tags();
    for (const [index, url] of cardUrls().entries()) {
      expect(afterPatch[index]).not.toBe(before[index]);
      const fresh = await get(url, { 'if-none-match': before[index]! });
      expect(fresh.status).toBe(200);
      expect(JSON.stringify(fresh.body)).toContain('Paldies!');
    }
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a7' } })
      .png()
      .toBuffer();
    const photo = await t.call({
      method: 'POST',
      url: `/api/cards/${cardId}/photo`,
      token: ownerJwt,
      payload: { content: png.toString('base64'), name: 'me.png', mime: 'image/png' },
    });
    expect(photo.status).toBe(200);
    const afterPhoto = await tags();
    for (const index of [0, 1]) expect(afterPhoto[index]).not.toBe(afterPatch[index]);
    // The page shows it in its avatar size.
    expect((await get(`/payment/${cardId}`)).body).toContain(`${photo.body.data.image_url}&size=avatar`.replace(/&/g, '&amp;'));
  });

  it("offer the owner's own amounts at once, the first guest after the change included", async () => {
    const before = await get(`/payment/${cardId}`);
    const chosen = await t.call({
      method: 'PATCH',
      url: `/api/cards/${cardId}`,
      token: ownerJwt,
      payload: { preset_amounts_cents: [150, 250, 400, 800] },
    });
    expect(chosen.status).toBe(200);
    const page = await get(`/payment/${cardId}`, { 'if-none-match': String(before.headers.etag) });
    expect(page.status).toBe(200);
    expect(dataOf(page.body).card.preset_amounts_cents).toEqual([150, 250, 400, 800]);
    expect(page.body).toMatch(/<input[^>]*name="amount"[^>]*value="800"/);
    await t.call({ method: 'PATCH', url: `/api/cards/${cardId}`, token: ownerJwt, payload: { preset_amounts_cents: null } });
    // Back to the activity's amounts, which the page had before.
    expect(dataOf((await get(`/payment/${cardId}`)).body).card.preset_amounts_cents).toEqual(
      dataOf(before.body).card.preset_amounts_cents,
    );
  });

  it("differ by language: the browser's and the stored choice", async () => {
    const en = await get(`/payment/${cardId}`, { 'accept-language': 'en' });
    const fr = await get(`/payment/${cardId}`, { 'accept-language': 'fr' });
    const lv = await get(`/payment/${cardId}`, { 'accept-language': 'fr', cookie: 'locale=lv' });
    expect(new Set([en, fr, lv].map((page) => page.headers.etag)).size).toBe(3);
    expect([en, fr, lv].map((page) => dataOf(page.body).locale)).toEqual(['en', 'fr', 'lv']);
    expect((await get(`/payment/${cardId}`, { 'accept-language': 'fr', 'if-none-match': String(en.headers.etag) })).status).toBe(
      200,
    );
  });

  it("never make two guests' tips (or one guest's two) share an idempotency key, whoever got the cached page", async () => {
    const first = await get(`/payment/${cardId}`);
    const second = await get(`/payment/${cardId}`, { 'if-none-match': String(first.headers.etag) });
    expect(second.status).toBe(304); // the second guest's browser shows the first one's bytes
    // What the page's plain form sends without a script: its fields, and no key since the page has none.
    const fields = new URLSearchParams({ amount: '500', custom_amount: '', terms: '1' }).toString();
    const submit = () => t.call({ method: 'POST', url: `/payment/${cardId}`, headers: FORM, payload: fields });
    const [a, b] = [await submit(), await submit()];
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.headers.location).not.toBe(b.headers.location);
    // A refused plain POST comes back as this guest's own page (not cached) with a key, so sending it again is one try.
    const refused = await t.call({ method: 'POST', url: `/payment/${cardId}`, headers: FORM, payload: 'amount=500' });
    expect(refused.status).toBe(422);
    expect(refused.headers.etag).toBeUndefined();
    expect(refused.headers['cache-control']).toBe('no-cache');
    const { form_key: formKey } = dataOf(refused.body);
    const fixed = new URLSearchParams({ amount: '500', terms: '1', idempotency_key: formKey }).toString();
    const [c, d] = [
      await t.call({ method: 'POST', url: `/payment/${cardId}`, headers: FORM, payload: fixed }),
      await t.call({ method: 'POST', url: `/payment/${cardId}`, headers: FORM, payload: fixed }),
    ];
    expect(c.status).toBe(303);
    expect(d.headers.location).toBe(c.headers.location);
  });
});

describe('the tip form without JavaScript', () => {
  const post = (fields: Record<string, string>, headers: Record<string, string> = FORM) =>
    t.call({ method: 'POST', url: `/payment/${cardId}`, headers, payload: new URLSearchParams(fields).toString() });

  it('answers a valid tip with 303 to the checkout, once per key, with the wallet the guest tapped', async () => {
    const fields = {
      amount: '1000',
      custom_amount: '',
      rating: '4',
      message: 'Merci',
      terms: '1',
      idempotency_key: crypto.randomUUID(),
      wallet: 'apple_pay',
    };
    // A French guest: the page they submit is in French.
    const french = { ...FORM, cookie: 'locale=fr' };
    const first = await post(fields, french);
    expect(first.status).toBe(303);
    const checkout = new URL(String(first.headers.location));
    expect(checkout.pathname).toBe('/api/sandbox/checkout');
    expect(checkout.searchParams.get('wallet')).toBe('apple_pay');
    // The sandbox's page opens on that wallet's sheet, in the page's language.
    const sheet = await t.call({ method: 'GET', url: `${checkout.pathname}${checkout.search}` });
    expect(sheet.body).toContain('<p class="amount">10,00 €</p>');
    expect(sheet.body).toContain('Payer avec Apple Pay');
    expect(sheet.body).not.toContain('Google Pay');
    // A second tap or a reload of the POST: the same payment.
    const again = await post(fields, french);
    expect(again.headers.location).toBe(first.headers.location);
  });

  it('shows the form again with everything entered and the problems, and opens nothing', async () => {
    const refused = await post({
      amount: '',
      custom_amount: '0,5',
      rating: '5',
      message: 'Paldies',
      idempotency_key: crypto.randomUUID(),
    });
    expect(refused.status).toBe(422);
    const { start } = dataOf(refused.body);
    expect(start).toMatchObject({
      custom: '0,5',
      rating: 5,
      message: 'Paldies',
      terms: false,
      errors: { amount: true, terms: true },
    });
    expect(refused.body).toContain('Paldies</textarea>');
    expect(refused.body).toContain('value="0,5"');
  });

  it("shares the JSON call's budget per address, and answers its limit with the form and a message", async () => {
    const { cardId: fresh } = await signUpWithCard(t);
    const json = () =>
      t.call({
        method: 'POST',
        url: `/api/public/cards/${fresh}/payments`,
        headers: { 'idempotency-key': crypto.randomUUID() },
        payload: { amount_cents: 500, cover_fee: false, terms_accepted: true },
        remoteAddress: '10.8.8.8',
      });
    for (let i = 0; i < 30; i += 1) expect((await json()).status).toBe(201);
    const fields = new URLSearchParams({
      amount: '500',
      terms: '1',
      message: 'Thanks',
      idempotency_key: crypto.randomUUID(),
    }).toString();
    const limited = await t.call({
      method: 'POST',
      url: `/payment/${fresh}`,
      headers: FORM,
      payload: fields,
      remoteAddress: '10.8.8.8',
    });
    expect(limited.status).toBe(429);
    expect(dataOf(limited.body).start).toMatchObject({
      preset_cents: 500,
      message: 'Thanks',
      terms: true,
      notice: 'rate_limited',
    });
    expect(limited.body).toContain('Too many attempts');
    expect(
      (await t.call({ method: 'POST', url: `/payment/${fresh}`, headers: FORM, payload: fields, remoteAddress: '10.8.8.9' }))
        .status,
    ).toBe(303);
  });

  it('takes a donation without JavaScript: refused fields come back as typed, monthly still monthly; a valid one opens the checkout', async () => {
    const { cardId: charity, userId: charityUser } = await signUpWithCard(t, { activity_type: 'DONATION' });
    const send = (fields: Record<string, string>) =>
      t.call({ method: 'POST', url: `/payment/${charity}`, headers: FORM, payload: new URLSearchParams(fields).toString() });
    const donor = { donor_name: 'Ana García', email: 'not-an-address', donor_code: 'X1234567L', frequency: 'monthly' };
    const refused = await send({ amount: '1000', terms: '1', ...donor });
    expect(refused.status).toBe(422);
    expect(dataOf(refused.body).start).toMatchObject({
      preset_cents: 1000,
      terms: true,
      donor: { name: 'Ana García', email: 'not-an-address', code: 'X1234567L', monthly: true },
      errors: { email: true },
    });
    expect(refused.body).toContain('value="Ana García"');

    const key = dataOf(refused.body).form_key as string;
    const opened = await send({ amount: '1000', terms: '1', ...donor, email: 'ana@example.es', idempotency_key: key });
    expect(opened.status).toBe(303);
    expect(String(opened.headers.location)).toContain('/api/sandbox/checkout');
    const [gift] = await t.app.db.select().from(donations).where(eq(donations.userId, charityUser));
    expect(gift).toMatchObject({ kind: 'monthly', donorName: 'Ana García', donorEmail: 'ana@example.es', amountCents: 1_000 });
  });

  it('refuses a POST that another site sent', async () => {
    const fields = { amount: '500', terms: '1', idempotency_key: crypto.randomUUID() };
    const refused = await post(fields, { ...FORM, 'sec-fetch-site': 'cross-site' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    const { 'sec-fetch-site': _site, ...legacy } = FORM;
    expect((await post(fields, { ...legacy, origin: 'https://evil.example' })).status).toBe(403);
  });
});

/** A DONATION card and a monthly donation to it, opened at the sandbox's checkout (not paid yet). */
async function startMonthlyDonation(donor: { donor_name: string; email: string; donor_code: string; amount_cents: number }) {
  const { cardId: charity } = await signUpWithCard(t, { activity_type: 'DONATION' });
  const started = await t.call({
    method: 'POST',
    url: `/api/public/cards/${charity}/donations`,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { ...donor, monthly: true, terms_accepted: true },
  });
  expect(started.status).toBe(201);
  return { charity, payment: started.body.data };
}

describe('after the checkout', () => {
  it("brings a declined payment back to a filled form with the spec's message", async () => {
    const payment = await openPayment(t, cardId, 1234, { rating: 3, message: 'Gracias', cover_fee: true });
    await payAtSandboxCheckout(t, payment, 'method=card&card_number=4000000000000002');
    expect(await deliverSandboxEvent(t, payment, 'payment.failed')).toBe('applied');
    const back = await t.call({ method: 'GET', url: `/payment/walletto-result?payment=${payment.id}` });
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe(`/payment/${cardId}/failed?payment=${payment.id}`);
    const form = await t.call({ method: 'GET', url: String(back.headers.location) });
    expect(dataOf(form.body).start).toMatchObject({
      preset_cents: null,
      custom: '12.34',
      cover_fee: true,
      rating: 3,
      message: 'Gracias',
      terms: true,
      notice: 'failed',
    });
    expect(form.body).toContain('Oops... Something went wrong');
  });

  it("says on a monthly donation's success page when the next month is charged", async () => {
    const { charity, payment } = await startMonthlyDonation({
      donor_name: 'Ana',
      email: 'ana@example.es',
      donor_code: 'X1',
      amount_cents: 1_000,
    });
    await payAtSandboxCheckout(t, payment);
    // The provider's answer, with the card it saved for the next months, as the return page asks for it.
    t.clock.advance(5_000);
    await t.app.services.payments.getPublicPayment(payment.id);
    const page = await t.call({ method: 'GET', url: `/payment/${charity}/success?payment=${payment.id}` });
    const { success } = dataOf(page.body);
    expect(success.next_charge_at).toEqual(expect.any(String));
    expect(new Date(success.next_charge_at).getTime()).toBeGreaterThan(t.clock.now().getTime() + 27 * 86_400_000);
    expect(page.body).toContain('Your monthly donation of');
  });

  it('brings a declined monthly donation back with the donor, the e-mail, the code and monthly still chosen', async () => {
    const { charity, payment } = await startMonthlyDonation({
      donor_name: 'SIA Labie Darbi',
      email: 'gramatvediba@labie.lv',
      donor_code: '40003123456',
      amount_cents: 1_500,
    });
    await payAtSandboxCheckout(t, payment, 'method=card&card_number=4000000000000002');
    expect(await deliverSandboxEvent(t, payment, 'payment.failed')).toBe('applied');
    const form = await t.call({ method: 'GET', url: `/payment/${charity}/failed?payment=${payment.id}` });
    expect(dataOf(form.body).start).toMatchObject({
      preset_cents: null,
      custom: '15.00',
      notice: 'failed',
      donor: { name: 'SIA Labie Darbi', email: 'gramatvediba@labie.lv', code: '40003123456', monthly: true },
    });
    expect(form.body).toContain('value="gramatvediba@labie.lv"');
  });

  it('brings a canceled or unconfirmed payment back to a filled form too, with its own message', async () => {
    const payment = await openPayment(t, cardId, 300, { message: 'Merci' });
    const canceled = await t.call({
      method: 'GET',
      url: `/payment/${cardId}/canceled?payment=${payment.id}`,
      headers: { cookie: 'locale=fr' },
    });
    expect(dataOf(canceled.body).start).toMatchObject({ preset_cents: 300, message: 'Merci', terms: true, notice: 'canceled' });
    expect(canceled.body).toContain('Paiement annulé');
    const timedOut = await t.call({ method: 'GET', url: `/payment/${cardId}/timeout?payment=${payment.id}` });
    expect(dataOf(timedOut.body).start).toMatchObject({ preset_cents: 300, notice: 'timeout', payment_id: payment.id });
    expect(timedOut.body).toContain('Timeout reached!');
    // Another card's payment fills nothing in: only the message, with an amount chosen.
    const other = await signUpWithCard(t);
    const foreign = await t.call({ method: 'GET', url: `/payment/${other.cardId}/failed?payment=${payment.id}` });
    expect(dataOf(foreign.body).start).toMatchObject({
      preset_cents: 500,
      message: '',
      terms: false,
      notice: 'failed',
      payment_id: null,
    });
  });

  it('brings a guest who paid in French back to French pages, whatever their browser asks for', async () => {
    const created = await t.call({
      method: 'POST',
      url: `/api/public/cards/${cardId}/payments`,
      headers: { 'idempotency-key': crypto.randomUUID(), 'accept-language': 'fr' },
      payload: { amount_cents: 500, cover_fee: false, terms_accepted: true },
    });
    const payment = created.body.data as { id: string; total_cents: number; checkout_url: string };
    const paid = await payAtSandboxCheckout(t, payment, 'method=card&card_number=4000000000000002');
    expect(paid.headers.location).toBe(`${t.app.config.publicUrl}/fr/payment/walletto-result?payment=${payment.id}`);
    expect(await deliverSandboxEvent(t, payment, 'payment.failed')).toBe('applied');
    const back = await t.call({
      method: 'GET',
      url: `/fr/payment/walletto-result?payment=${payment.id}`,
      headers: { 'accept-language': 'en-GB,en' },
    });
    expect(back.headers.location).toBe(`/fr/payment/${cardId}/failed?payment=${payment.id}`);
    const form = await t.call({ method: 'GET', url: String(back.headers.location), headers: { 'accept-language': 'en' } });
    expect(form.body).toContain('<html lang="fr"');
  });

  it('says "Thank you!" only for this card\'s paid payment, with its reference', async () => {
    const made = await t.call({ method: 'GET', url: `/payment/${cardId}/success?payment=${crypto.randomUUID()}` });
    expect(made.status).toBe(404);
    expect(made.body).not.toContain('Thank you!');
    expect(dataOf(made.body).success).toBeNull();

    const payment = await openPayment(t, cardId, 500);
    const pending = await t.call({ method: 'GET', url: `/payment/${cardId}/success?payment=${payment.id}` });
    expect(pending.status).toBe(303);
    expect(pending.headers.location).toBe(`/payment/walletto-result?payment=${payment.id}`);

    expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');
    const other = await signUpWithCard(t);
    expect((await t.call({ method: 'GET', url: `/payment/${other.cardId}/success?payment=${payment.id}` })).status).toBe(404);
    const paid = await t.call({ method: 'GET', url: `/payment/${cardId}/success?payment=${payment.id}` });
    expect(paid.status).toBe(200);
    expect(paid.body).toContain('Thank you!');
    const reference = payment.id.replace(/-/g, '').slice(0, 8).toUpperCase();
    expect(dataOf(paid.body).success).toMatchObject({ id: payment.id, reference, amount_cents: 500 });
    expect(paid.body).toContain(`Reference ${reference}`);
  });

  it("shows the card owner's thank-you on the success page, its markup inert (decision 0047)", async () => {
    const staff = await signUpWithCard(t, { public_name: 'Marta' });
    const thanks = 'Gracias <script>alert(1)</script> & <b>hasta pronto</b>';
    const set = await t.call({
      method: 'PATCH',
      url: `/api/cards/${staff.cardId}`,
      token: staff.jwt,
      payload: { thank_you_text: thanks },
    });
    expect(set.status).toBe(200);
    const payment = await openPayment(t, staff.cardId, 500);
    expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');
    const paid = await t.call({ method: 'GET', url: `/es/payment/${staff.cardId}/success?payment=${payment.id}` });
    expect(paid.status).toBe(200);
    expect(paid.body).toContain('Marta te da las gracias');
    expect(paid.body).toContain('Gracias &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;hasta pronto&lt;/b&gt;');
    expect(paid.body).not.toContain('<script>alert(1)');
    expect(paid.body).not.toContain('<b>hasta');
    expect(dataOf(paid.body).success.thank_you).toEqual({ text: thanks, image_url: null });
    // The receipt form keeps the page's language: the receipt and a later answer to the guest are written in it.
    expect(paid.body).toContain(`action="/es/payment/${staff.cardId}/receipt"`);

    // Without a thank-you the page is as before.
    const plain = await openPayment(t, cardId, 500);
    expect(await deliverSandboxEvent(t, plain, 'payment.succeeded')).toBe('applied');
    const page = await t.call({ method: 'GET', url: `/payment/${cardId}/success?payment=${plain.id}` });
    expect(page.body).not.toContain('thank-you-note');
    expect(dataOf(page.body).success.thank_you).toBeNull();
  });

  it('e-mails a receipt of a paid payment through the outbox, three times at most per payment', async () => {
    const payment = await openPayment(t, cardId, 700);
    expect(await deliverSandboxEvent(t, payment, 'payment.succeeded')).toBe('applied');
    const ask = (email: string, id = payment.id) =>
      t.call({
        method: 'POST',
        url: `/payment/${cardId}/receipt`,
        headers: FORM,
        payload: new URLSearchParams({ payment: id, email }).toString(),
      });

    expect((await ask('not-an-address')).headers.location).toMatch(/receipt=invalid$/);
    const sent = await ask('guest@example.com');
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe(`/payment/${cardId}/success?payment=${payment.id}&receipt=sent`);
    const outbox = await t.call({ method: 'GET', url: '/api/dev/outbox?to=guest%40example.com' });
    expect(outbox.body.data).toHaveLength(1);
    expect(outbox.body.data[0].body).toContain('Paid: €7.00');
    // The one receipt (docs/decisions/0042): its signed link, which the success page shows too.
    const link = /Your receipt, to view or download as a PDF: (\S+)/.exec(outbox.body.data[0].body)![1]!;
    expect(link).toBe(
      dataOf((await t.call({ method: 'GET', url: `/payment/${cardId}/success?payment=${payment.id}` })).body).success.receipt_url,
    );
    expect(outbox.body.data[0].body).toContain(payment.id.replace(/-/g, '').slice(0, 8).toUpperCase());
    // The date in the reader's words, not the database's "2026-11-20".
    expect(outbox.body.data[0].body).toContain('Date: November 20, 2026');

    await ask('guest@example.com');
    expect((await ask('guest@example.com')).headers.location).toMatch(/receipt=sent$/);
    expect((await ask('guest@example.com')).headers.location).toMatch(/receipt=rate_limited$/);
    // Only a paid payment of this card has a receipt.
    const unpaid = await openPayment(t, cardId, 300);
    expect((await ask('guest@example.com', unpaid.id)).status).toBe(404);

    const paidInFrench = await openPayment(t, cardId, 700);
    expect(await deliverSandboxEvent(t, paidInFrench, 'payment.succeeded')).toBe('applied');
    await t.call({
      method: 'POST',
      url: `/payment/${cardId}/receipt`,
      headers: { ...FORM, cookie: 'locale=fr' },
      payload: new URLSearchParams({ payment: paidInFrench.id, email: 'invite@example.com' }).toString(),
    });
    const french = (await t.call({ method: 'GET', url: '/api/dev/outbox?to=invite%40example.com' })).body.data[0].body;
    expect(french).toContain('Payé\u00A0: 7,00\u00A0€');
    expect(french).toMatch(/PDF\u00A0: http:\/\/\S+\/fr\/receipts\/[0-9a-f]{64}/);
    expect(french).toContain('Date\u00A0: 20 novembre 2026');
  });
});
