import { expect, test, type APIRequestContext } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, payTipWithApplePay, signInUserApp, type Staff } from './helpers.ts';

/**
 * Issue 31 on a 360×640 phone, in French and Spanish: automatic payouts set once with the texted code, and a SEPA
 * Instant payout that is Paid as soon as its code is confirmed. Swedbank Latvia (HABALV) takes instant transfers in the
 * sandbox's table (decision 0044); the config's 36-second hold makes the tips available quickly.
 */
test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 360, height: 640 } });

async function mainBalance(request: APIRequestContext, staff: Staff): Promise<number> {
  const response = await request.get(`/api/clients/${staff.clientId}/account`, {
    headers: { Authorization: `Bearer ${staff.jwt}` },
  });
  const account = ((await response.json()) as { data: { account_balances: { type: string; balance: number }[] } }).data;
  return account.account_balances.find((item) => item.type === 'main')?.balance ?? 0;
}

async function addInstantAccount(request: APIRequestContext, staff: Staff) {
  const added = await request.post(`/api/clients/${staff.clientId}/payout-methods`, {
    headers: { Authorization: `Bearer ${staff.jwt}`, 'Idempotency-Key': crypto.randomUUID() },
    data: {
      kind: 'sepa',
      iban: 'LV80BANK0000435195001',
      bic: 'HABALV22',
      holder_last_name: 'Ozola',
      address: 'Brīvības iela 1, Rīga',
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  expect(((await added.json()) as { data: { instant: boolean } }).data.instant).toBe(true);
}

/** The newest six-digit code texted to the staff member whose text has `marker`. */
async function textedCode(request: APIRequestContext, staff: Staff, marker: RegExp): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(staff.phone)}`);
      const messages = ((await response.json()) as { data: { body: string }[] }).data;
      code = messages.filter((message) => marker.test(message.body)).map((message) => /\b(\d{6})\b/.exec(message.body)?.[1])[0];
      return code;
    })
    .toBeTruthy();
  return code!;
}

const scheduling: Record<string, Staff> = {};
const instant: Record<string, Staff> = {};

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(150_000);
  const request = await playwright.request.newContext({ baseURL });
  for (const language of ['fr', 'es']) {
    scheduling[language] = await createStaffWithCard(request, { public_name: 'Camille' });
    await addInstantAccount(request, scheduling[language]!);
    instant[language] = await createStaffWithCard(request, { public_name: 'Lucía' });
    await payTipWithApplePay(request, instant[language]!.cardId, { amount_cents: 2_000, cover_fee: true });
    await addInstantAccount(request, instant[language]!);
  }
  for (const staff of Object.values(instant))
    await expect.poll(() => mainBalance(request, staff), { timeout: 120_000, intervals: [1_000, 2_000] }).toBe(2_000);
  await request.dispose();
});

const LANGUAGES = {
  fr: {
    off: 'Les retraits automatiques sont désactivés',
    setUp: 'Activer les retraits automatiques',
    form: 'Calendrier des retraits automatiques',
    weekly: 'Chaque semaine',
    weekday: 'Jour de la semaine',
    friday: 'vendredi',
    send: 'M’envoyer le code',
    codeForm: 'Saisissez le code reçu par SMS',
    every: 'Chaque vendredi',
    codeLabel: 'Code reçu par SMS',
    confirm: 'Confirmer',
    next: 'Prochain retrait',
    sms: /retraits automatiques/i,
    dialog: 'Retirer de l’argent',
    amount: 'Montant à retirer',
    arrives: 'Arrive en quelques secondes',
    payoutCode: 'Code de confirmation',
    paid: 'Versé',
  },
  es: {
    off: 'Los retiros automáticos están desactivados',
    setUp: 'Activar los retiros automáticos',
    form: 'Calendario de retiros automáticos',
    weekly: 'Cada semana',
    weekday: 'Día de la semana',
    friday: 'viernes',
    send: 'Envíame el código',
    codeForm: 'Introduce el código que te hemos enviado por SMS',
    every: 'Cada viernes',
    codeLabel: 'Código del SMS',
    confirm: 'Confirmar',
    next: 'Próximo retiro',
    sms: /retiros automáticos/i,
    dialog: 'Retirar dinero',
    amount: 'Importe a retirar',
    arrives: 'Llega en unos segundos',
    payoutCode: 'Código de confirmación',
    paid: 'Pagado',
  },
} as const;

for (const [language, text] of Object.entries(LANGUAGES)) {
  test(`${language}: automatic payouts every Friday, put in force by the texted code`, async ({
    page,
    context,
    baseURL,
    request,
  }) => {
    test.setTimeout(90_000);
    const staff = scheduling[language]!;
    await signInUserApp(context, baseURL!, staff);
    await page.goto(`/#/${language}/payouts`);
    const panel = page.getByTestId('payout-schedule');
    await expect(panel).toContainText(text.off, { timeout: 30_000 });
    await page.getByRole('button', { name: text.setUp }).click();

    const form = page.getByRole('form', { name: text.form });
    await form.getByLabel(text.weekly).check();
    await form.getByLabel(text.weekday).selectOption({ label: text.friday });
    await page.screenshot({ path: `../test-results/payout-schedule-form-${language}-360.png`, fullPage: true });
    await form.getByRole('button', { name: text.send }).click();

    const confirm = page.getByRole('form', { name: text.codeForm });
    await expect(confirm).toContainText(text.every);
    await confirm.getByLabel(text.codeLabel).fill(await textedCode(request, staff, text.sms));
    await confirm.getByRole('button', { name: text.confirm }).click();

    await expect(panel).toContainText(text.every);
    await expect(panel).toContainText('LV•• •••• 5001');
    await expect(page.getByTestId('schedule-next-run')).toContainText(text.next);
    await page.screenshot({ path: `../test-results/payout-schedule-set-${language}-360.png`, fullPage: true });
    expect(await a11yProblems(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test(`${language}: an instant payout is Paid as soon as its code is confirmed`, async ({ page, context, baseURL, request }) => {
    test.setTimeout(90_000);
    const staff = instant[language]!;
    await signInUserApp(context, baseURL!, staff);
    await page.goto(`/#/${language}/payouts?withdraw=1`);
    const dialog = page.getByRole('dialog', { name: text.dialog });
    await expect(dialog.getByRole('textbox', { name: text.amount })).toBeFocused({ timeout: 30_000 });
    await page.keyboard.type('10');
    await page.keyboard.press('Enter');
    await dialog.getByTestId('withdraw-instant').check();
    await expect(dialog).toContainText(text.arrives);
    await page.screenshot({ path: `../test-results/payout-instant-dialog-${language}-360.png` });
    await dialog.getByRole('slider').focus();
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(new RegExp(`#/${language}/payouts/[0-9a-f-]{36}/confirmation$`));
    await page.getByRole('textbox', { name: text.payoutCode }).fill(await textedCode(request, staff, /\d{6}/));
    await page.getByRole('button', { name: new RegExp(`^${text.confirm}`) }).click();
    // The sandbox bank answers an instant transfer at once; no business day to wait for.
    await expect(page.getByTestId('payout-status')).toHaveText(text.paid, { timeout: 30_000 });
    await page.screenshot({ path: `../test-results/payout-instant-paid-${language}-360.png` });
    expect(await a11yProblems(page)).toEqual([]);
    await expect.poll(() => mainBalance(request, staff)).toBe(2_000 - 1_000 - 200);
  });
}
