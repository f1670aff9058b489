import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOfPdf } from '../../test/pdf.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';

/**
 * The thank-you back (decision 0047): a card's thank-you text and photo, shown on the receipt (page, PDF, e-mail) and
 * the success page's data; the recipient's one answer to a guest's message, e-mailed to the guest's receipt address.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Staff = Awaited<ReturnType<typeof signUpWithCard>>;
const SCRIPT = '<script>alert(1)</script>';

const patchCard = (staff: Staff, payload: Record<string, unknown>, cardId = staff.cardId) =>
  t.call({ method: 'PATCH', url: `/api/cards/${cardId}`, token: staff.jwt, payload });
const uploadThankYouPhoto = (staff: Staff, content: Buffer, meta: { name: string; mime: string }, cardId = staff.cardId) =>
  t.call({
    method: 'POST',
    url: `/api/cards/${cardId}/thank-you/photo`,
    token: staff.jwt,
    payload: { content: content.toString('base64'), ...meta },
  });
const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc3366' } })
    .png()
    .toBuffer();
/** Text with the typography filter's no-break spaces as plain ones (decision 0035 decides where they go). */
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');
const outboxTo = async (to: string) =>
  (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).body.data as {
    channel: string;
    body: string;
  }[];

/** The history row of a tip the staff member received, found by its message (the test clock stands still). */
async function payinWith(staff: Staff, message: string | null): Promise<string> {
  const page = await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/transactions`, token: staff.jwt });
  return (page.body.data.items as { id: string; message: string | null }[]).find((item) => item.message === message)!.id;
}
const answerUrl = (staff: Staff, transactionId: string) => `/api/clients/${staff.clientId}/transactions/${transactionId}/answer`;

/** A paid tip with a message whose guest asked for the receipt by e-mail in a language. */
async function tipWithContact(staff: Staff, email: string, locale: 'en' | 'fr', message = 'Merci pour le café !') {
  const payment = await receiveTip(t, staff.cardId, 500, { message });
  await t.app.services.receipts.sendTo(payment.id, email, locale);
  return { payment, transactionId: await payinWith(staff, message) };
}

describe('the thank-you text', () => {
  it('is set trimmed on the card, at most 280 characters, cleared by an empty text, only by the owner', async () => {
    const staff = await signUpWithCard(t);
    const set = await patchCard(staff, { thank_you_text: '  Thank you so much!  ' });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ thank_you_text: 'Thank you so much!', thank_you_image_url: null });

    const long = await patchCard(staff, { thank_you_text: 'x'.repeat(281) });
    expect(long.status).toBe(422);
    expect(long.body.validation_errors.thank_you_text).toHaveLength(1);
    const other = await signUpWithCard(t);
    expect((await patchCard(other, { thank_you_text: 'Mine now' }, staff.cardId)).status).toBe(404);
    const cards = await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/cards`, token: staff.jwt });
    expect(cards.body.data[0].thank_you_text).toBe('Thank you so much!');

    // Another field's change leaves it alone; an empty text removes it.
    expect((await patchCard(staff, { title: 'Evening' })).body.data.thank_you_text).toBe('Thank you so much!');
    expect((await patchCard(staff, { thank_you_text: '' })).body.data.thank_you_text).toBeNull();
  });
});

describe('the thank-you photo', () => {
  it('is typed by its content: a PNG named as a PDF is stored as a JPEG, a text named .png is refused', async () => {
    const staff = await signUpWithCard(t);
    const renamed = await uploadThankYouPhoto(staff, await png(), { name: 'thanks.pdf', mime: 'application/pdf' });
    expect(renamed.status).toBe(200);
    const url = renamed.body.data.thank_you_image_url as string;
    expect(url).toMatch(new RegExp(`^/api/cards/${staff.cardId}/thank-you/photo\\?v=[0-9a-f-]{36}$`));
    // The card's own photo is another slot, untouched.
    expect(renamed.body.data.image_url).toBeNull();
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(served.rawPayload).metadata()).format).toBe('jpeg');

    const fake = await uploadThankYouPhoto(staff, Buffer.from('just some words, not a picture'), {
      name: 'thanks.png',
      mime: 'image/png',
    });
    expect(fake.status).toBe(422);
    expect(fake.body.code).toBe('invalid_file');

    const other = await signUpWithCard(t);
    expect((await uploadThankYouPhoto(other, await png(), { name: 'a.png', mime: 'image/png' }, staff.cardId)).status).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `/api/cards/${staff.cardId}/thank-you/photo`, token: other.jwt })).status).toBe(
      404,
    );

    const removed = await t.call({ method: 'DELETE', url: `/api/cards/${staff.cardId}/thank-you/photo`, token: staff.jwt });
    expect(removed.body.data.thank_you_image_url).toBeNull();
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });
});

describe('the thank-you on the receipt and the success page', () => {
  it('shows the text escaped, with the photo, on the receipt page, its PDF and e-mail, and in the success data', async () => {
    const staff = await signUpWithCard(t, { public_name: 'Anna' });
    await patchCard(staff, { thank_you_text: `Merci ! ${SCRIPT}` });
    const photo = (await uploadThankYouPhoto(staff, await png(), { name: 'a.png', mime: 'image/png' })).body.data
      .thank_you_image_url as string;
    const { payment } = await tipWithContact(staff, 'guest-receipt@example.com', 'fr');

    const success = await t.app.services.tips.successOf(staff.cardId, payment.id, 'fr');
    expect(success!.thank_you).toEqual({ text: `Merci ! ${SCRIPT}`, image_url: photo });

    const page = await t.call({ method: 'GET', url: new URL(success!.receipt_url!).pathname });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(SCRIPT);
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).toContain('Anna vous remercie');
    expect(page.body).toContain(`<img src="${photo.replace(/&/g, '&amp;')}"`);

    const pdf = await t.app.inject({ method: 'GET', url: `${new URL(success!.receipt_url!).pathname}/receipt.pdf` });
    expect(await textOfPdf(pdf.rawPayload)).toContain('Anna vous remercie');
    // The photo is drawn too (the stored JPEG, as an image object).
    expect(pdf.rawPayload.toString('latin1')).toContain('/Subtype /Image');

    const [mail] = await outboxTo('guest-receipt@example.com');
    expect(plain(mail!.body)).toContain(`Anna vous remercie :\n« Merci ! ${SCRIPT} »`);
  });

  it('leaves the receipt as it was without a thank-you', async () => {
    const staff = await signUpWithCard(t);
    // A photo alone is not shown: it goes with the text.
    await uploadThankYouPhoto(staff, await png(), { name: 'a.png', mime: 'image/png' });
    const { payment } = await tipWithContact(staff, 'guest-plain@example.com', 'en');
    const success = await t.app.services.tips.successOf(staff.cardId, payment.id, 'en');
    expect(success!.thank_you).toBeNull();
    const page = await t.call({ method: 'GET', url: new URL(success!.receipt_url!).pathname });
    expect(page.body).not.toContain('receipt-thank-you');
    const pdf = await t.app.inject({ method: 'GET', url: `${new URL(success!.receipt_url!).pathname}/receipt.pdf` });
    expect(pdf.rawPayload.toString('latin1')).not.toContain('/Subtype /Image');
    expect((await outboxTo('guest-plain@example.com'))[0]!.body).not.toContain('says thank you');
  });
});

describe("an answer to a guest's message", () => {
  it("goes once, by e-mail in the guest's language, naming the card and neither side's address", async () => {
    const staff = await signUpWithCard(t, { public_name: 'Anna' });
    const { transactionId } = await tipWithContact(staff, 'guest-fr@example.com', 'fr');
    const url = answerUrl(staff, transactionId);

    const before = await t.call({ method: 'GET', url, token: staff.jwt });
    expect(before.body.data).toEqual({ can_answer: true, answer: null });
    // The guest's address never reaches the recipient.
    expect(JSON.stringify(before.body)).not.toContain('guest-fr@example.com');

    const sent = await t.call({ method: 'POST', url, token: staff.jwt, payload: { text: '  Avec plaisir, à bientôt !  ' } });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ can_answer: false, answer: { text: 'Avec plaisir, à bientôt !' } });
    const mails = (await outboxTo('guest-fr@example.com')).filter((mail) => mail.body.includes('a répondu'));
    expect(mails).toHaveLength(1);
    const body = plain(mails[0]!.body);
    expect(body).toContain('Subject: Anna a répondu à votre message');
    expect(body).toContain('« Merci pour le café ! »');
    expect(body).toContain('« Avec plaisir, à bientôt ! »');
    expect(body).not.toContain(staff.phone);

    const again = await t.call({ method: 'POST', url, token: staff.jwt, payload: { text: 'Encore' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('tip_answer_sent');
    expect((await t.call({ method: 'GET', url, token: staff.jwt })).body.data.answer.text).toBe('Avec plaisir, à bientôt !');
  });

  it('sends exactly one e-mail when two answers arrive at once; the other is a 409', async () => {
    const staff = await signUpWithCard(t);
    const { transactionId } = await tipWithContact(staff, 'guest-race@example.com', 'en', 'Great service');
    const url = answerUrl(staff, transactionId);
    const answers = await Promise.all(
      ['First', 'Second'].map((text) => t.call({ method: 'POST', url, token: staff.jwt, payload: { text } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect((await outboxTo('guest-race@example.com')).filter((mail) => mail.body.includes('answered'))).toHaveLength(1);
  });

  it("is refused without the guest's e-mail, without a message, on another user's tip and on a bad body", async () => {
    const staff = await signUpWithCard(t);
    await receiveTip(t, staff.cardId, 500, { message: 'Thanks!' });
    const noEmail = answerUrl(staff, await payinWith(staff, 'Thanks!'));
    expect((await t.call({ method: 'GET', url: noEmail, token: staff.jwt })).body.data).toEqual({
      can_answer: false,
      answer: null,
    });
    const refused = await t.call({ method: 'POST', url: noEmail, token: staff.jwt, payload: { text: 'Hello' } });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('tip_answer_no_email');

    const silent = await receiveTip(t, staff.cardId, 300);
    await t.app.services.receipts.sendTo(silent.id, 'guest-silent@example.com', 'en');
    const noMessage = answerUrl(staff, await payinWith(staff, null));
    expect((await t.call({ method: 'GET', url: noMessage, token: staff.jwt })).body.data.can_answer).toBe(false);
    const refusedToo = await t.call({ method: 'POST', url: noMessage, token: staff.jwt, payload: { text: 'Hello' } });
    expect(refusedToo.status).toBe(422);
    expect(refusedToo.body.code).toBe('tip_answer_no_message');

    const { transactionId } = await tipWithContact(staff, 'guest-other@example.com', 'en');
    const other = await signUpWithCard(t);
    // Neither through the other user's own client nor through the owner's.
    for (const url of [answerUrl(other, transactionId), answerUrl(staff, transactionId)]) {
      const answer = await t.call({ method: 'POST', url, token: other.jwt, payload: { text: 'Hi' } });
      expect(answer.status).toBe(404);
    }
    const url = answerUrl(staff, transactionId);
    const blank = await t.call({ method: 'POST', url, token: staff.jwt, payload: { text: '   ' } });
    expect(blank.status).toBe(422);
    const long = await t.call({ method: 'POST', url, token: staff.jwt, payload: { text: 'x'.repeat(501) } });
    expect(long.status).toBe(422);
    expect(long.body.validation_errors.text).toHaveLength(1);
    expect((await outboxTo('guest-other@example.com')).filter((mail) => mail.body.includes('answered'))).toHaveLength(0);
  });
});
