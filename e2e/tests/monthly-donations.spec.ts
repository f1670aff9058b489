import { expect, test, type APIRequestContext } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, type Staff } from './helpers.ts';

/**
 * A monthly donation on a phone, in Latvian and in Spanish: the donor chooses "monthly" on a DONATION card's page,
 * pays the first month on the sandbox's checkout (which saves the card), finds the receipt e-mail in the dev outbox
 * and cancels the plan from its signed link; the link then says it was used.
 */
test.describe.configure({ mode: 'serial' });

let charity: Staff;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  charity = await createStaffWithCard(request, { public_name: 'Ķepu draugi', activity_type: 'DONATION' });
  await request.dispose();
});

/** The newest e-mail to `to` whose subject matches, read from the dev outbox as a developer would. */
async function mailTo(request: APIRequestContext, to: string, subject: RegExp): Promise<string> {
  let found = '';
  await expect
    .poll(async () => {
      const answer = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
      const messages = ((await answer.json()) as { data: { body: string }[] }).data;
      found = messages.find((message) => subject.test(message.body))?.body ?? '';
      return found;
    })
    .not.toBe('');
  return found;
}

const JOURNEYS = [
  {
    locale: 'lv',
    monthly: 'Katru mēnesi',
    pay: 'Maksāt 10,00 €',
    cardNumber: 'Kartes numurs',
    success: 'Jūsu ikmēneša ziedojums 10,00 € saņēmējam Ķepu draugi ir sācies.',
    receipt: /Subject: Kvīts par jūsu ziedojumu 10,00\s€ saņēmējam Ķepu draugi/,
    cancelLine: /Atcelt ikmēneša ziedojumu: \S+\/actions\/([0-9a-f]{64})/,
    question: 'Atcelt ikmēneša ziedojumu?',
    confirm: 'Atcelt ikmēneša ziedojumu',
    done: 'Jūsu ikmēneša ziedojums ir atcelts',
    used: 'Šī saite jau ir izmantota',
    pauseLine: /Apturēt to uz vienu līdz trim mēnešiem: \S+\/actions\/[0-9a-f]{64}/,
    changeLine: /Mainīt summu: \S+\/actions\/[0-9a-f]{64}/,
    listTitle: 'Ziedojumi',
    ended: 'Beidzies',
  },
  {
    locale: 'es',
    monthly: 'Cada mes',
    pay: 'Pagar 10,00 €',
    cardNumber: 'Número de tarjeta',
    success: 'Tu donación mensual de 10,00 € a Ķepu draugi ha comenzado.',
    receipt: /Subject: Recibo de tu donación de 10,00\s€ a Ķepu draugi/,
    cancelLine: /Cancelar la donación mensual: \S+\/actions\/([0-9a-f]{64})/,
    question: '¿Cancelar tu donación mensual?',
    confirm: 'Cancelar la donación mensual',
    done: 'Tu donación mensual está cancelada',
    used: 'Este enlace ya se ha utilizado',
    pauseLine: /Pausarla de uno a tres meses: \S+\/actions\/[0-9a-f]{64}/,
    changeLine: /Cambiar el importe: \S+\/actions\/[0-9a-f]{64}/,
    listTitle: 'Donaciones',
    ended: 'Finalizado',
  },
] as const;

for (const journey of JOURNEYS) {
  test(`a donor gives 10 EUR each month and cancels from the e-mail (${journey.locale})`, async ({ page, request, baseURL }) => {
    const email = `monthly-${journey.locale}-${Date.now()}@example.com`;
    const { hostname } = new URL(baseURL!);
    await page.context().addCookies([{ name: 'locale', value: journey.locale, domain: hostname, path: '/' }]);
    await page.goto(`/payment/${charity.cardId}`);
    await page.getByRole('radio', { name: '10 €', exact: true }).check();
    await page.getByRole('radio', { name: journey.monthly }).check();
    await page.locator('input[name="donor_name"]').fill('Anna Kalniņa');
    await page.locator('input[name="email"]').fill(email);
    await page.locator('input[name="donor_code"]').fill('010190-12345');
    await page.locator('input[name="terms"]').check();
    expect(await a11yProblems(page)).toEqual([]);
    await page.getByRole('button', { name: journey.pay }).click();

    // The provider's page is in the donor's language too.
    await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
    await page.getByLabel(journey.cardNumber).fill('4242 4242 4242 4242');
    await page.locator('#expiry').fill('12 / 34');
    await page.locator('#cvc').fill('123');
    await page.getByRole('button', { name: journey.pay }).click();
    await expect(page.getByTestId('success-amount')).toHaveText(journey.success);
    // When the next month is charged, and that every e-mail can pause, change or cancel it.
    await expect(page.getByTestId('success-next-charge')).toBeVisible();

    const receipt = await mailTo(request, email, journey.receipt);
    // The first e-mail already has what the form promised: pause and change beside cancel.
    expect(receipt).toMatch(journey.pauseLine);
    expect(receipt).toMatch(journey.changeLine);
    const cancel = journey.cancelLine.exec(receipt)![1]!;
    await page.goto(`/actions/${cancel}`);
    await expect(page.getByRole('heading', { name: journey.question })).toBeVisible();
    await expect(page.getByTestId('action-amount')).toContainText('10,00 €');
    expect(await a11yProblems(page)).toEqual([]);
    await page.getByRole('button', { name: journey.confirm }).click();
    await expect(page.getByTestId('action-done')).toContainText(journey.done);

    await page.reload();
    await expect(page.getByTestId('action-used')).toContainText(journey.used);
    await expect(page.getByRole('button', { name: journey.confirm })).toHaveCount(0);

    // The charity's list says the plan has ended, not "monthly" as if it went on.
    await page.context().addCookies([
      { name: 'qtfo__token', value: charity.jwt, domain: hostname, path: '/' },
      { name: 'refresh__key', value: charity.refreshToken, domain: hostname, path: '/' },
    ]);
    await page.goto(`/#/${journey.locale}/donations`);
    await expect(page.getByRole('heading', { name: journey.listTitle, level: 1 })).toBeVisible();
    const row = page.getByTestId('donation-row').filter({ hasText: email });
    await expect(row.getByTestId('donation-plan')).toHaveText(journey.ended);
  });
}
