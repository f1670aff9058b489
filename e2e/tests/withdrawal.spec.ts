import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import {
  a11yProblems,
  createStaffWithCard,
  ONE_PAGE_PDF,
  payTipWithApplePay,
  png,
  signInUserApp,
  type Staff,
} from './helpers.ts';

/**
 * A withdrawal that leaves no question open, on a 360×640 phone in French and Spanish: the verification modal names
 * the limit and says payouts are paused, the documents go in, and a withdrawal under review is told so (not asked
 * again); with four accounts the slide is in view; a returned payout names the bank's reason. The config's 36-second
 * hold and the sandbox rail (4 s, and an IBAN that always comes back) make it quick.
 */
test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 360, height: 640 } });

/** The sandbox rail's account that always comes back (AC04), and other valid SEPA accounts. */
const RETURNED_IBAN = 'LV97HABA0012345678910';
const IBANS = ['LV80BANK0000435195001', 'DE89370400440532013000', 'FR1420041010050500013M02606'];

async function mainBalance(request: APIRequestContext, staff: Staff): Promise<number> {
  const response = await request.get(`/api/clients/${staff.clientId}/account`, {
    headers: { Authorization: `Bearer ${staff.jwt}` },
  });
  const account = ((await response.json()) as { data: { account_balances: { type: string; balance: number }[] } }).data;
  return account.account_balances.find((item) => item.type === 'main')?.balance ?? 0;
}

async function addAccount(request: APIRequestContext, staff: Staff, iban: string, bic: string) {
  const added = await request.post(`/api/clients/${staff.clientId}/payout-methods`, {
    headers: { Authorization: `Bearer ${staff.jwt}`, 'Idempotency-Key': crypto.randomUUID() },
    data: { kind: 'sepa', iban, bic, holder_last_name: 'Ozola', address: 'Brīvības iela 1, Rīga' },
  });
  expect(added.status(), await added.text()).toBe(201);
}

async function payoutCode(request: APIRequestContext, staff: Staff): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(staff.phone)}`);
      const messages = ((await response.json()) as { data: { body: string }[] }).data;
      code = messages.map((message) => /\b(\d{6})\b/.exec(message.body)?.[1]).find(Boolean);
      return code;
    })
    .toBeTruthy();
  return code!;
}

/** Whether the element lies wholly inside the 640 px high window, with no scrolling. */
async function inView(page: Page, testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox();
  const height = page.viewportSize()!.height;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

let verifying: Staff;
let withdrawing: Staff;

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(150_000);
  const request = await playwright.request.newContext({ baseURL });
  verifying = await createStaffWithCard(request, { public_name: 'Camille' });
  await payTipWithApplePay(request, verifying.cardId, { amount_cents: 50_000, cover_fee: true });
  await payTipWithApplePay(request, verifying.cardId, { amount_cents: 50_000, cover_fee: true });
  await addAccount(request, verifying, IBANS[0]!, 'HABALV22');
  withdrawing = await createStaffWithCard(request, { public_name: 'Lucía' });
  await payTipWithApplePay(request, withdrawing.cardId, { amount_cents: 2_000, cover_fee: true });
  for (const [index, iban] of IBANS.entries())
    await addAccount(request, withdrawing, iban, ['HABALV22', 'COBADEFFXXX', 'PSSTFRPPXXX'][index]!);
  await addAccount(request, withdrawing, RETURNED_IBAN, 'HABALV22');
  await expect.poll(() => mainBalance(request, withdrawing), { timeout: 120_000, intervals: [1_000, 2_000] }).toBe(2_000);
  await expect.poll(() => mainBalance(request, verifying), { timeout: 120_000, intervals: [1_000, 2_000] }).toBe(100_000);
  await request.dispose();
});

test('fr: the modal names the limit and the pause, the documents go in, and a withdrawal under review is told so', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await signInUserApp(context, baseURL!, verifying);
  await page.goto('/#/fr/overview');
  const modal = page.getByRole('dialog', { name: 'Vérification' });
  // A cold load on a busy machine: the first page may take a while.
  await expect(modal).toContainText('Vos pourboires ont atteint 1 000,00 €', { timeout: 30_000 });
  await expect(modal).toContainText('Les retraits sont suspendus');
  expect(await a11yProblems(page, { scope: 'dialog' })).toEqual([]);
  await modal.getByRole('button', { name: 'Aller à la vérification' }).click();
  await expect(page).toHaveURL(/#\/fr\/verification$/);

  const form = page.getByRole('form', { name: 'Particulier' });
  await form.getByLabel('Prénom').fill('Camille');
  await form.getByLabel('Nom', { exact: true }).fill('Durand');
  await form.getByLabel('Date de naissance').fill('1992-06-14');
  await form.getByLabel('Numéro d’identification personnel').fill('140692-11223');
  await form.getByLabel('Adresse').fill('Brīvības iela 12, Rīga, LV-1010');
  await form
    .getByLabel('Pièce d’identité : recto')
    .setInputFiles({ name: 'recto.png', mimeType: 'image/png', buffer: png(32, 20) });
  await form
    .getByLabel('Pièce d’identité : verso')
    .setInputFiles({ name: 'verso.pdf', mimeType: 'application/pdf', buffer: ONE_PAGE_PDF });
  await form.getByRole('button', { name: 'Envoyer pour examen' }).click();
  await expect(page.locator('section[data-status]')).toHaveAttribute('data-status', 'pending');

  // A withdrawal while under review: its own explanation, nothing asked again, and the dialog behind steps aside.
  await page.goto('/#/fr/payouts?withdraw=1');
  const dialog = page.getByRole('dialog', { name: 'Retirer de l’argent' });
  await expect(dialog.getByRole('textbox', { name: 'Montant à retirer' })).toBeFocused();
  await page.keyboard.type('10');
  await page.keyboard.press('Enter');
  await dialog.getByRole('slider').focus();
  await page.keyboard.press('Enter');
  const review = page.getByRole('dialog', { name: 'En cours d’examen' });
  await expect(review).toContainText('Vous n’avez rien d’autre à envoyer');
  await expect(review).toContainText('Nous vous enverrons un SMS');
  await expect(review.getByRole('button', { name: 'Aller à la vérification' })).toHaveCount(0);
  await expect(dialog).toBeHidden();
  await page.screenshot({ path: '../test-results/withdrawal-under-review-fr-360.png' });
});

test('es: four accounts keep the slide in view, and a returned payout gives the bank’s reason', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  await signInUserApp(context, baseURL!, withdrawing);
  await page.goto('/#/es/overview');
  await page.getByRole('link', { name: 'Retirar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retirar dinero' });
  await expect(dialog.getByRole('textbox', { name: 'Importe a retirar' })).toBeFocused();
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  const accounts = dialog.getByRole('combobox', { name: 'Enviar a' });
  await accounts.selectOption({ label: 'LV•• •••• 8910 · Ozola' });
  expect(await inView(page, 'slide-to-confirm')).toBe(true);
  await page.screenshot({ path: '../test-results/withdrawal-four-accounts-es-360.png' });
  await dialog.getByRole('slider').focus();
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/#\/es\/payouts\/[0-9a-f-]{36}\/confirmation$/);
  const code = page.getByRole('textbox', { name: 'Código de confirmación' });
  await code.fill('000000');
  await page.getByRole('button', { name: /^Confirmar/ }).click();
  await expect(code).toHaveValue('');
  await expect(code).toBeFocused();
  await code.fill(await payoutCode(request, withdrawing));
  await page.getByRole('button', { name: /^Confirmar/ }).click();
  await expect(page.getByTestId('payout-status')).toHaveText('En camino');

  // The sandbox bank sends it back a few seconds later: the reason in Spanish, the fee no longer charged.
  await expect(page.getByTestId('payout-outcome')).toHaveAttribute('data-status', 'returned', { timeout: 30_000 });
  await expect(page.getByTestId('outcome-return-reason')).toHaveText('Motivo del banco: Cuenta cerrada.');
  await page.goto('/#/es/payouts');
  const row = page.getByTestId('payout').first();
  await expect(row.getByTestId('payout-return-reason')).toHaveText('Motivo: Cuenta cerrada');
  await expect(row.getByTestId('payout-fee')).toHaveText('Comisión 2,00 € devuelta');
  expect(await a11yProblems(page)).toEqual([]);
});
