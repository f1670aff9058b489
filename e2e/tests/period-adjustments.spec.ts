import { expect, test, type Browser, type Page } from './fixtures.ts';
import {
  a11yProblems,
  auth,
  moveTeamBack,
  payTipWithApplePay,
  signInUserApp,
  teamOfTwo,
  untilShares,
  type Staff,
} from './helpers.ts';

/**
 * An adjustment of a locked period (issue 29, decision 0059) at 360 px in French and Spanish: last month is closed,
 * confirmed and locked through the API; the admin opens "Add an adjustment", is told inline what is wrong, reviews and
 * moves money to the member, who sees it in the period. Needs the worker's PostgreSQL (DATABASE_URL) to move the team
 * a month back.
 */
test.use({ viewport: { width: 360, height: 780 } });

const TEXTS = {
  fr: {
    prefix: '/fr',
    add: 'Ajouter un ajustement',
    from: 'De',
    to: 'À',
    amount: 'Montant',
    reason: 'Raison',
    review: 'Vérifier',
    send: 'Déplacer l’argent',
    tooMuch: /Saisissez un montant entre/,
    line: /2,50\s€ de Anna à Bob/,
  },
  es: {
    prefix: '/es',
    add: 'Añadir un ajuste',
    from: 'De',
    to: 'A',
    amount: 'Importe',
    reason: 'Motivo',
    review: 'Revisar',
    send: 'Mover el dinero',
    tooMuch: /Introduce un importe entre/,
    line: /2,50\s€ de Anna a Bob/,
  },
} as const;

async function workplaceAs(browser: Browser, baseURL: string, staff: Staff, locale: string, prefix: string, width = 360) {
  const context = await browser.newContext({ viewport: { width, height: 780 }, locale });
  await signInUserApp(context, baseURL, staff);
  const page: Page = await context.newPage();
  await page.goto(`/#${prefix}/workplace`);
  return page;
}

for (const [locale, text] of Object.entries(TEXTS)) {
  test(`${locale}: the admin adjusts a locked period and the member sees it`, async ({ browser, request, baseURL, server }) => {
    test.skip(!server.databaseUrl, 'moves the team a month back in the server’s database (DATABASE_URL)');
    test.setTimeout(150_000);
    const { admin, colleague, team } = await teamOfTwo(request);
    await payTipWithApplePay(request, team.card_id, { amount_cents: 2_000 });
    await untilShares(request, team.id, colleague, 1);
    await moveTeamBack(server.databaseUrl!, team.id);
    const now = new Date();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const period = (who: Staff, action: string) =>
      request.post(`/api/teams/${team.id}/periods/${month}/${action}`, { headers: auth(who) });
    expect((await period(admin, 'close')).status()).toBe(200);
    expect((await period(colleague, 'confirm')).status()).toBe(200);
    expect((await period(admin, 'confirm')).status()).toBe(200);
    expect((await period(admin, 'lock')).status()).toBe(200);
    // The admin's share leaves hold for main within a minute (HOLD_HOURS of the test server).
    await expect
      .poll(
        async () => {
          const account = (await (
            await request.get(`/api/clients/${admin.clientId}/account`, { headers: auth(admin) })
          ).json()) as {
            data: { account_balances: { type: string; balance: number }[] };
          };
          return account.data.account_balances.find((row) => row.type === 'main')?.balance ?? 0;
        },
        { timeout: 90_000, intervals: [2_000] },
      )
      .toBeGreaterThanOrEqual(250);

    const anna = await workplaceAs(browser, baseURL!, admin, locale, text.prefix);
    const annaPeriod = anna.getByTestId(`period-${month}`);
    await annaPeriod.getByRole('button', { name: text.add }).click();
    const form = annaPeriod.getByTestId('adjustment-form');
    await form.getByLabel(text.from, { exact: true }).selectOption({ label: 'Anna' });
    await form.getByLabel(text.to, { exact: true }).selectOption({ label: 'Bob' });
    await form.getByLabel(text.amount).fill('600');
    await form.getByLabel(text.reason).fill('Bob a couvert le bar le 30. / Bob cubrió la barra el día 30.');
    await form.getByRole('button', { name: text.review }).click();
    await expect(form).toContainText(text.tooMuch);
    expect(await a11yProblems(anna)).toEqual([]);
    await form.scrollIntoViewIfNeeded();
    await anna.screenshot({ path: `../test-results/period-adjustment-form-${locale}-360.png`, fullPage: true });

    await form.getByLabel(text.amount).fill('2,50');
    await form.getByRole('button', { name: text.review }).click();
    const review = anna.getByRole('dialog');
    await expect(review).toContainText('Anna');
    await anna.screenshot({ path: `../test-results/period-adjustment-review-${locale}-360.png` });
    await review.getByRole('button', { name: text.send }).click();
    await expect(annaPeriod.getByTestId('period-adjustment')).toContainText(text.line);
    expect(await a11yProblems(anna)).toEqual([]);

    const bob = await workplaceAs(browser, baseURL!, colleague, locale, text.prefix);
    const bobPeriod = bob.getByTestId(`period-${month}`);
    await expect(bobPeriod.getByTestId('period-adjustment')).toContainText(text.line);
    await expect(bobPeriod.getByRole('button', { name: text.add })).toHaveCount(0);
    await bobPeriod.scrollIntoViewIfNeeded();
    await bob.screenshot({ path: `../test-results/period-adjustment-member-${locale}-360.png`, fullPage: true });
    expect(await a11yProblems(bob)).toEqual([]);

    // The same page on a desktop, with the form open.
    const wide = await workplaceAs(browser, baseURL!, admin, locale, text.prefix, 1280);
    const widePeriod = wide.getByTestId(`period-${month}`);
    await widePeriod.getByRole('button', { name: text.add }).click();
    await widePeriod.getByTestId('adjustment-form').scrollIntoViewIfNeeded();
    await wide.screenshot({ path: `../test-results/period-adjustment-${locale}-1280.png`, fullPage: true });
    for (const page of [anna, bob, wide]) await page.context().close();
  });
}
