import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, png, signInUserApp, type Staff } from './helpers.ts';

/**
 * Issue 30 "A thank-you back" (decision 0047), in Spanish on a 360 px phone: the staff member writes a thank-you with
 * a photo in the card editor; a guest tips with a message, sees the thank-you on the success page, asks for the receipt
 * by e-mail and finds the thank-you on the receipt; the staff member answers the message once from the transaction's
 * details, and the answer is in the guest's mailbox (the dev outbox), in the guest's language, without the staff
 * member's phone.
 */
test.use({ viewport: { width: 360, height: 740 } });

const THANKS = '¡Mil gracias por tu visita! Te esperamos pronto.';
const MESSAGE = 'Un café perfecto';
const ANSWER = '¡Gracias a ti! Vuelve cuando quieras.';

let staff: Staff;
let api: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  api = await playwright.request.newContext({ baseURL });
  staff = await createStaffWithCard(api, { public_name: 'Lucía' });
});
test.afterAll(async () => {
  await api.dispose();
});

const mailsTo = async (email: string) =>
  ((await (await api.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()).data as { body: string }[]).map((mail) =>
    mail.body.replace(/[\u00A0\u202F]/g, ' '),
  );
const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('the staff sets a thank-you in Spanish, a guest sees it after paying, and gets the one answer by e-mail', async ({
  browser,
  context,
  page,
  baseURL,
}, testInfo) => {
  test.setTimeout(240_000);
  const email = `guest-thanks-${Date.now()}@example.es`;

  // The staff member writes the thank-you and adds a photo in the card editor.
  await signInUserApp(context, baseURL!, staff);
  await page.goto('/#/es/account/edit');
  const section = page.getByRole('region', { name: 'Mensaje de agradecimiento' });
  await expect(section).toBeVisible();
  const text = section.getByRole('textbox', { name: /^Tu agradecimiento/ });
  await text.fill(THANKS);
  await expect(section.getByTestId('thank-you-counter')).toHaveText(`Caracteres: ${THANKS.length}/280`);
  await section.getByRole('button', { name: 'Guardar agradecimiento' }).click();
  await expect(page.getByText('Tu agradecimiento se ha guardado')).toBeVisible();
  await section
    .getByTestId('thank-you-photo-input')
    .setInputFiles({ name: 'gracias.png', mimeType: 'image/png', buffer: png(64, 48) });
  await expect(section.getByRole('img', { name: 'La foto que tus clientes ven con tu agradecimiento' })).toBeVisible();
  expect(await fitsTheScreen(page)).toBe(true);
  expect(await a11yProblems(page, { scope: '[data-testid="thank-you-section"]' })).toEqual([]);
  await section.screenshot({ path: testInfo.outputPath('thank-you-section-es-360.png') });

  // A guest (another browser, no session) tips with a message, in Spanish.
  const guestContext = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const guest = await guestContext.newPage();
  await guest.goto(`/es/payment/${staff.cardId}`);
  await guest.getByRole('radio', { name: '5 €', exact: true }).check();
  await guest.getByText('Añadir un mensaje').click();
  await guest.getByRole('textbox', { name: 'Mensaje' }).fill(MESSAGE);
  await guest.getByRole('checkbox', { name: /Acepto las condiciones de uso/ }).check();
  await guest.getByRole('button', { name: /^Pagar \d/ }).click();
  await expect(guest).toHaveURL(/\/api\/sandbox\/checkout/);
  // The hosted checkout speaks the guest's language: its fields by their ids.
  await guest.locator('#card_number').fill('4242 4242 4242 4242');
  await guest.locator('#expiry').fill('12 / 34');
  await guest.locator('#cvc').fill('123');
  await guest.locator('button.pay').click();
  await expect(guest).toHaveURL(new RegExp(`/es/payment/${staff.cardId}/success\\?payment=`), { timeout: 30_000 });
  const note = guest.getByTestId('thank-you-note');
  await expect(note.getByRole('heading', { name: 'Lucía te da las gracias' })).toBeVisible();
  await expect(note).toContainText(THANKS);
  await expect(note.getByTestId('thank-you-photo')).toBeVisible();
  expect(await fitsTheScreen(guest)).toBe(true);
  expect(await a11yProblems(guest)).toEqual([]);
  await guest.screenshot({ path: testInfo.outputPath('success-es-360.png'), fullPage: true });
  const successUrl = guest.url();
  await guest.goto(successUrl.replace('/es/payment/', '/fr/payment/'));
  await expect(guest.getByRole('heading', { name: 'Lucía vous remercie' })).toBeVisible();
  expect(await fitsTheScreen(guest)).toBe(true);
  await guest.screenshot({ path: testInfo.outputPath('success-fr-360.png'), fullPage: true });
  await guest.goto(successUrl);

  // The receipt by e-mail, then the receipt page: the thank-you is on both.
  await guest.getByLabel('Enviarme el recibo por correo electrónico').fill(email);
  await guest.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect.poll(async () => (await mailsTo(email)).some((body) => body.includes(`«${THANKS}»`))).toBe(true);
  await guest.getByTestId('receipt-link').click();
  await expect(guest).toHaveURL(/\/es\/receipts\/[0-9a-f]{64}$/);
  await expect(guest.getByTestId('receipt-thank-you')).toContainText(THANKS);
  await expect(guest.getByRole('heading', { name: 'Lucía te da las gracias' })).toBeVisible();
  expect(await fitsTheScreen(guest)).toBe(true);
  await guest.screenshot({ path: testInfo.outputPath('receipt-es-360.png'), fullPage: true });
  await guest.goto(guest.url().replace('/es/receipts/', '/fr/receipts/'));
  await expect(guest.getByRole('heading', { name: 'Lucía vous remercie' })).toBeVisible();
  await guest.screenshot({ path: testInfo.outputPath('receipt-fr-360.png'), fullPage: true });
  await guestContext.close();

  // The staff member answers the message once from the transaction's details.
  await page.goto('/#/es/transactions');
  await page
    .getByRole('button', { name: /^Detalles/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Responder', exact: true }).click();
  await dialog.getByRole('textbox', { name: /^Tu respuesta/ }).fill(ANSWER);
  expect(await fitsTheScreen(page)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('answer-es-360.png') });
  await dialog.getByTestId('tip-answer').screenshot({ path: testInfo.outputPath('answer-form-es-360.png') });
  await dialog.getByRole('button', { name: 'Enviar respuesta' }).click();
  await expect(dialog.getByTestId('tip-answer-sent')).toContainText(ANSWER);
  await expect(dialog.getByRole('button', { name: 'Responder', exact: true })).toHaveCount(0);
  expect(await a11yProblems(page, { scope: 'dialog[open]' })).toEqual([]);

  await expect
    .poll(async () => (await mailsTo(email)).filter((body) => body.includes('Lucía ha respondido a tu mensaje')).length)
    .toBe(1);
  const answer = (await mailsTo(email)).find((body) => body.includes('Lucía ha respondido a tu mensaje'))!;
  expect(answer).toContain(`«${MESSAGE}»`);
  expect(answer).toContain(`«${ANSWER}»`);
  expect(answer).not.toContain(staff.phone);
  expect(answer).not.toContain(staff.phone.slice(1));

  await dialog.getByTestId('tip-answer').screenshot({ path: testInfo.outputPath('answer-sent-es-360.png') });
  // The same in French: the editor's section and the answered tip.
  await page.goto('/#/fr/account/edit');
  const frenchSection = page.getByRole('region', { name: 'Message de remerciement' });
  await expect(frenchSection.getByRole('textbox', { name: /^Votre remerciement/ })).toHaveValue(THANKS);
  expect(await fitsTheScreen(page)).toBe(true);
  await frenchSection.screenshot({ path: testInfo.outputPath('thank-you-section-fr-360.png') });
  await page.goto('/#/fr/transactions');
  await page
    .getByRole('button', { name: /^Détails/ })
    .first()
    .click();
  await expect(page.getByRole('dialog').getByTestId('tip-answer-sent')).toContainText(ANSWER);
  await page.screenshot({ path: testInfo.outputPath('answer-sent-fr-360.png') });

  // The guest's address never reached the staff member's screen; the answer cannot go twice.
  await expect(page.getByText(email)).toHaveCount(0);
  const list = await api.get(`/api/clients/${staff.clientId}/transactions`, {
    headers: { Authorization: `Bearer ${staff.jwt}` },
  });
  const transactionId = ((await list.json()).data.items[0] as { id: string }).id;
  const again = await api.post(`/api/clients/${staff.clientId}/transactions/${transactionId}/answer`, {
    headers: { Authorization: `Bearer ${staff.jwt}` },
    data: { text: 'Otra vez' },
  });
  expect(again.status()).toBe(409);
  expect((await again.json()).code).toBe('tip_answer_sent');
});
