import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from './fixtures.ts';
import { extractText } from 'unpdf';
import { a11yProblems, createStaffWithCard, totp } from './helpers.ts';
import { addOperator, OPS_PASSWORD, signInFirstAdmin, startOpsServer, type OpsServer } from './ops-server.ts';

/**
 * Issue 30 "Receipts" and issue 27's refund notice, on a server of its own (its back office starts with no operator):
 * a French guest pays a tip at the sandbox's checkout, opens the receipt from the success page, downloads its PDF and
 * has it e-mailed; a finance operator refunds part of the payment, and the guest's refund receipt is in the outbox and
 * the receipt page says "partly refunded". Screenshots of the receipt at 360 px in French and Spanish and at 1280 px.
 */
test.describe.configure({ mode: 'serial' });

let ops: OpsServer;
let api: APIRequestContext;
let financeToken = '';

test.beforeAll(async ({ ownServerPort }) => {
  test.setTimeout(180_000);
  ops = await startOpsServer(ownServerPort);
  ({ api } = ops);
  const financeSecret = await addOperator(ops, await signInFirstAdmin(ops), 'finance@ops.example', 'finance');
  const finance = await api.post('/api/ops/sign-in', {
    data: { email: 'finance@ops.example', password: OPS_PASSWORD, code: totp(financeSecret) },
  });
  financeToken = (await finance.json()).data.token as string;
});

test.afterAll(async () => {
  await ops?.stop();
});

test('a guest pays, opens the receipt in French, downloads its PDF, and gets the refund receipt after a back-office refund', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const staff = await createStaffWithCard(api, { public_name: 'Café Rīga' });
  const email = `guest-${testInfo.project.name}-${Date.now()}@example.fr`;

  // The guest's checkout opened in French (the page's language goes to the provider and back).
  const opened = await api.post(`/api/public/cards/${staff.cardId}/payments`, {
    headers: { 'Idempotency-Key': crypto.randomUUID(), 'Accept-Language': 'fr' },
    data: { amount_cents: 800, cover_fee: true, terms_accepted: true },
  });
  expect(opened.status()).toBe(201);
  const payment = (await opened.json()).data as { id: string; checkout_url: string };
  await page.goto(payment.checkout_url);
  await page.locator('#card_number').fill('5555 5555 5555 4444');
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.locator('button.pay').click();
  await expect(page).toHaveURL(new RegExp(`/fr/payment/${staff.cardId}/success\\?payment=${payment.id}`), { timeout: 30_000 });

  await page.getByTestId('receipt-link').click();
  await expect(page).toHaveURL(/\/fr\/receipts\/[0-9a-f]{64}$/);
  const receiptUrl = page.url();
  const reference = payment.id.replace(/-/g, '').slice(0, 8).toUpperCase();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Reçu ${reference}`);
  await expect(page.getByText('Café Rīga')).toBeVisible();
  await expect(page.getByText('Mastercard se terminant par 4444')).toBeVisible();
  await expect(page.getByText('Frais pris en charge')).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Télécharger le PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`receipt-${reference}.pdf`);
  const { text } = await extractText(new Uint8Array(readFileSync((await download.path())!)), { mergePages: true });
  const pdf = text.replace(/\s+/g, ' ');
  expect(pdf).toContain(`Reçu ${reference}`);
  expect(pdf).toContain('Café Rīga');
  expect(pdf).toContain('Total payé 8,40');

  await page.getByLabel('M’envoyer ce reçu par e-mail').fill(email);
  await page.getByRole('button', { name: 'Envoyer' }).click();
  await expect(page.getByRole('status')).toContainText('Le reçu est en route');
  const mails = async () =>
    ((await (await api.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()).data as { body: string }[]).map(
      (mail) => mail.body,
    );
  await expect.poll(async () => (await mails()).some((body) => body.includes('Votre reçu Tipcard'))).toBe(true);

  for (const [width, lang] of [
    [360, 'fr'],
    [360, 'es'],
    [1280, 'fr'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 360 ? 760 : 900 });
    await page.goto(receiptUrl.replace('/fr/receipts/', `/${lang}/receipts/`));
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`receipt-${lang}-${width}.png`), fullPage: true });
  }

  // A finance operator gives 3 EUR back (below the approval threshold: at once).
  const refunded = await api.post(`/api/ops/payments/${payment.id}/refunds`, {
    headers: { Authorization: `Bearer ${financeToken}`, 'Idempotency-Key': crypto.randomUUID() },
    data: { amount_cents: 300, reason: 'The guest asked' },
  });
  expect(refunded.status()).toBe(200);
  await expect
    .poll(async () => (await mails()).filter((body) => body.includes('Remboursement de 3,00')).length, { timeout: 30_000 })
    .toBe(1);
  const refundMail = (await mails()).find((body) => body.includes('Remboursement de 3,00'))!;
  expect(refundMail).toContain(receiptUrl);

  await page.goto(receiptUrl);
  await expect(page.getByRole('definition').filter({ hasText: 'Remboursé en partie' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: /^3,00\s€$/ })).toBeVisible();
});
