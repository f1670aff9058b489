import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
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
 * The payee-name check on a 360×640 phone in French and Spanish (decision 0043): the sandbox bank holds "Dupont" and
 * "García López" for its test accounts, so a name a letter off is a close match, corrected with one tap; and the
 * verification journey from the withdrawal's modal to "Under review" to approved (the operator's decision through
 * `verification:review`, on the server's own database).
 */
test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 360, height: 640 } });

const ROOT = resolve(import.meta.dirname, '../..');

async function fillAccount(
  page: Page,
  labels: { holder: string; address: string },
  account: { iban: string; bic: string; holder: string },
) {
  await page.getByRole('textbox', { name: 'IBAN' }).fill(account.iban);
  await page.getByRole('textbox', { name: /^BIC/ }).fill(account.bic);
  await page.getByRole('textbox', { name: new RegExp(`^${labels.holder}`) }).fill(account.holder);
  await page.getByRole('textbox', { name: labels.address }).fill('1 rue de la Paix, Paris');
}

async function mainBalance(request: APIRequestContext, staff: Staff): Promise<number> {
  const response = await request.get(`/api/clients/${staff.clientId}/account`, {
    headers: { Authorization: `Bearer ${staff.jwt}` },
  });
  const account = ((await response.json()) as { data: { account_balances: { type: string; balance: number }[] } }).data;
  return account.account_balances.find((item) => item.type === 'main')?.balance ?? 0;
}

test('fr: a close-match name is corrected with one tap and saved as confirmed by the bank', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const staff = await createStaffWithCard(request, { public_name: 'Camille' });
  await signInUserApp(context, baseURL!, staff);
  await page.goto('/#/fr/payouts/add-method?return=settings');
  await fillAccount(
    page,
    { holder: 'Nom du titulaire du compte', address: 'Adresse' },
    { iban: 'FR76 3000 6000 0112 3456 7890 189', bic: 'AGRIFRPP', holder: 'Dupond' },
  );
  await page.getByRole('button', { name: 'Enregistrer le compte de retrait' }).click();
  const title = page.getByRole('heading', { name: 'La banque écrit le nom autrement' });
  await expect(title).toBeFocused({ timeout: 20_000 });
  await expect(page.getByTestId('payee-check-notice')).toContainText('la banque connaît le nom « Dupont », et non « Dupond »');
  expect(await a11yProblems(page)).toEqual([]);
  await page.screenshot({ path: '../test-results/payee-close-match-fr-360.png' });

  await page.getByRole('button', { name: 'Utiliser « Dupont »' }).click();
  await expect(page).toHaveURL(/#\/fr\/settings\/payout$/);
  const method = page.getByTestId('payout-method').first();
  await expect(method).toContainText('Dupont');
  await expect(method.getByTestId('payee-check-line')).toContainText('Nom confirmé par la banque');
  await page.screenshot({ path: '../test-results/payee-method-list-fr-360.png' });
});

test('es: a close match on the words’ order is corrected with one tap; a kept mismatch is shown as such', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  const staff = await createStaffWithCard(request, { public_name: 'Lucía' });
  await signInUserApp(context, baseURL!, staff);
  await page.goto('/#/es/payouts/add-method?return=settings');
  const labels = { holder: 'Apellido del titular de la cuenta', address: 'Dirección' };
  await fillAccount(page, labels, { iban: 'ES7921000813610123456789', bic: 'CAIXESBB', holder: 'López García' });
  await page.getByRole('button', { name: 'Guardar cuenta de retiro' }).click();
  await expect(page.getByRole('heading', { name: 'El banco escribe el nombre de otra forma' })).toBeFocused({
    timeout: 20_000,
  });
  await expect(page.getByTestId('payee-check-notice')).toContainText('el banco tiene el nombre «García López»');
  await page.screenshot({ path: '../test-results/payee-close-match-es-360.png' });
  await page.getByRole('button', { name: 'Usar «García López»' }).click();
  await expect(page).toHaveURL(/#\/es\/settings\/payout$/);
  await expect(page.getByTestId('payout-method').first().getByTestId('payee-check-line')).toContainText(
    'Nombre confirmado por el banco',
  );

  // No match: nothing saved until the user says so; then the list says the bank did not confirm the name.
  await page.goto('/#/es/payouts/add-method?return=settings');
  await fillAccount(page, labels, { iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP', holder: 'Martin' });
  await page.getByRole('button', { name: 'Guardar cuenta de retiro' }).click();
  await expect(page.getByRole('heading', { name: 'Este nombre no coincide con la cuenta' })).toBeFocused({ timeout: 20_000 });
  await page.screenshot({ path: '../test-results/payee-no-match-es-360.png' });
  await page.getByRole('button', { name: 'He revisado los datos: guardar de todos modos' }).click();
  await expect(page).toHaveURL(/#\/es\/settings\/payout$/);
  await expect(page.getByTestId('payout-method').filter({ hasText: 'Martin' }).getByTestId('payee-check-line')).toContainText(
    'El banco no ha confirmado este nombre',
  );
  expect(await a11yProblems(page)).toEqual([]);
});

test('es: the verification journey from the modal to “Under review” to approved, then the withdrawal goes through', async ({
  page,
  context,
  baseURL,
  request,
  server,
}) => {
  test.skip(!server.databaseUrl, 'the approval runs verification:review on the server’s database (DATABASE_URL)');
  test.setTimeout(180_000);
  const staff = await createStaffWithCard(request, { public_name: 'Lucía' });
  await payTipWithApplePay(request, staff.cardId, { amount_cents: 50_000, cover_fee: true });
  await payTipWithApplePay(request, staff.cardId, { amount_cents: 50_000, cover_fee: true });
  const added = await request.post(`/api/clients/${staff.clientId}/payout-methods`, {
    headers: { Authorization: `Bearer ${staff.jwt}`, 'Idempotency-Key': crypto.randomUUID() },
    data: {
      kind: 'sepa',
      iban: 'ES7921000813610123456789',
      bic: 'CAIXESBB',
      holder_last_name: 'García López',
      address: 'Calle Mayor 1, Madrid',
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  await expect.poll(() => mainBalance(request, staff), { timeout: 120_000, intervals: [1_000, 2_000] }).toBe(100_000);

  await signInUserApp(context, baseURL!, staff);
  await page.goto('/#/es/overview');
  const modal = page.getByRole('dialog', { name: 'Verificación' });
  await expect(modal).toContainText('Tus propinas han llegado a', { timeout: 30_000 });
  await expect(modal).toContainText('Los retiros están en pausa');
  await modal.getByRole('button', { name: 'Ir a la verificación' }).click();
  await expect(page).toHaveURL(/#\/es\/verification$/);

  const form = page.getByRole('form', { name: 'Particular' });
  await form.getByLabel('Nombre', { exact: true }).fill('Lucía');
  await form.getByLabel('Apellidos').fill('García López');
  await form.getByLabel('Fecha de nacimiento').fill('1992-06-14');
  await form.getByLabel('Número de identificación personal').fill('140692-11223');
  await form.getByLabel('Dirección').fill('Calle Mayor 1, Madrid');
  await form
    .getByLabel('Documento de identidad: anverso')
    .setInputFiles({ name: 'anverso.png', mimeType: 'image/png', buffer: png(32, 20) });
  await form
    .getByLabel('Documento de identidad: reverso')
    .setInputFiles({ name: 'reverso.pdf', mimeType: 'application/pdf', buffer: ONE_PAGE_PDF });
  await form.getByRole('button', { name: 'Enviar para revisión' }).click();
  const status = page.locator('section[data-status]');
  await expect(status).toHaveAttribute('data-status', 'pending');
  await expect(status).toContainText('En revisión');

  // A withdrawal under review answers 451: the modal says so and asks for nothing again.
  await page.goto('/#/es/payouts?withdraw=1');
  const dialog = page.getByRole('dialog', { name: 'Retirar dinero' });
  await expect(dialog.getByRole('textbox', { name: 'Importe a retirar' })).toBeFocused();
  await page.keyboard.type('10');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('payee-check-line')).toContainText('Nombre confirmado por el banco');
  await dialog.getByRole('slider').focus();
  await page.keyboard.press('Enter');
  const review = page.getByRole('dialog', { name: 'En revisión' });
  await expect(review).toContainText('No tienes que enviar nada más');
  await expect(review.getByRole('button', { name: 'Ir a la verificación' })).toHaveCount(0);
  await page.screenshot({ path: '../test-results/payee-journey-under-review-es-360.png' });
  await review.getByRole('button', { name: 'De acuerdo' }).click();

  // The operator approves (the back office's decision, from the command line).
  execFileSync('node', ['--import', 'tsx', 'apps/api/src/cli/verification-review.ts', staff.phone, 'approve'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: server.databaseUrl, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
  const verification = async () =>
    (
      (await (
        await request.get(`/api/clients/${staff.clientId}/verification`, { headers: { Authorization: `Bearer ${staff.jwt}` } })
      ).json()) as { data: { status: string } }
    ).data.status;
  await expect.poll(verification).toBe('approved');
  // The app learns it on its next load (the SMS tells the user to open it).
  await page.goto('/#/es/verification');
  await page.reload();
  await expect(page.locator('section[data-status]')).toHaveAttribute('data-status', 'approved');
  await expect(page.locator('section[data-status]')).toContainText('Tu cuenta está verificada');
  await page.screenshot({ path: '../test-results/payee-journey-approved-es-360.png' });

  await page.goto('/#/es/payouts?withdraw=1');
  await expect(dialog.getByRole('textbox', { name: 'Importe a retirar' })).toBeFocused();
  await page.keyboard.type('10');
  await page.keyboard.press('Enter');
  await dialog.getByRole('slider').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/es\/payouts\/[0-9a-f-]{36}\/confirmation$/);
  await expect(page.getByRole('dialog', { name: 'En revisión' })).toHaveCount(0);
});
