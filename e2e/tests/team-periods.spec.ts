import { expect, test, type Browser, type Page } from './fixtures.ts';
import { a11yProblems, moveTeamBack, payTipWithApplePay, signInUserApp, teamOfTwo, untilShares, type Staff } from './helpers.ts';

/**
 * Team periods (issue 29, decision 0055) at 360 px in French and Spanish: the admin closes last month, a member
 * objects, the admin answers; both members with a share confirm, so the admin locks the period without waiting the
 * 24 hours. The server's clock cannot move, so the team and its tip are moved a month back in its database, as the
 * simulator's time jump does: the journey needs the worker's PostgreSQL (DATABASE_URL).
 */
test.use({ viewport: { width: 360, height: 780 } });

const TEXTS = {
  fr: {
    prefix: '/fr',
    periods: 'Périodes',
    close: 'Clôturer la période',
    closed: 'Clôturée',
    object: 'Contester',
    objection: 'Votre contestation',
    send: 'Envoyer la contestation',
    answer: 'Votre réponse',
    sendAnswer: 'Envoyer la réponse',
    confirm: 'Ma part est juste',
    lock: 'Verrouiller la période',
    locked: 'Verrouillée',
    banner: /Clôturez et verrouillez/,
  },
  es: {
    prefix: '/es',
    periods: 'Periodos',
    close: 'Cerrar el periodo',
    closed: 'Cerrado',
    object: 'Objetar',
    objection: 'Tu objeción',
    send: 'Enviar la objeción',
    answer: 'Tu respuesta',
    sendAnswer: 'Enviar la respuesta',
    confirm: 'Mi parte es correcta',
    lock: 'Bloquear el periodo',
    locked: 'Bloqueado',
    banner: /Cierra y bloquea/,
  },
} as const;

async function workplaceAs(browser: Browser, baseURL: string, staff: Staff, locale: string, prefix: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, locale });
  await signInUserApp(context, baseURL, staff);
  const page = await context.newPage();
  await page.goto(`/#${prefix}/workplace`);
  return page;
}

for (const [locale, text] of Object.entries(TEXTS)) {
  test(`${locale}: the admin closes last month, a member objects, the admin answers and locks it`, async ({
    browser,
    request,
    baseURL,
    server,
  }) => {
    test.skip(!server.databaseUrl, 'moves the team a month back in the server’s database (DATABASE_URL)');
    test.setTimeout(120_000);
    const { admin, colleague, team } = await teamOfTwo(request);
    await payTipWithApplePay(request, team.card_id, { amount_cents: 1_000 });
    await untilShares(request, team.id, colleague, 1);
    await moveTeamBack(server.databaseUrl!, team.id);
    const now = new Date();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);

    // The admin is warned when last month's deadline is a week away or less, and closes it after confirming.
    const anna = await workplaceAs(browser, baseURL!, admin, locale, text.prefix);
    if (now.getUTCDate() >= new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate() - 6)
      await expect(anna.getByTestId('deadline-banner')).toContainText(text.banner);
    const annaPeriod = anna.getByTestId(`period-${month}`);
    await annaPeriod.getByRole('button', { name: text.close }).click();
    await anna.getByRole('dialog').getByRole('button', { name: text.close }).click();
    await expect(annaPeriod.getByTestId('period-state')).toHaveText(text.closed);

    // Bob objects within the 24 hours.
    const bob = await workplaceAs(browser, baseURL!, colleague, locale, text.prefix);
    const bobPeriod = bob.getByTestId(`period-${month}`);
    await bobPeriod.getByRole('button', { name: text.object }).click();
    await bobPeriod.getByLabel(text.objection).fill('Il manque mon service du samedi. / Falta mi turno del sábado.');
    await bobPeriod.getByRole('button', { name: text.send }).click();
    await expect(bobPeriod.getByTestId('period-objection')).toContainText('samedi');
    expect(await a11yProblems(bob)).toEqual([]);
    await bobPeriod.scrollIntoViewIfNeeded();
    await bob.screenshot({ path: `../test-results/team-periods-objection-${locale}-360.png`, fullPage: true });

    // Anna answers it; the lock waits for the members with a share, so both confirm.
    await anna.reload();
    await annaPeriod.getByLabel(text.answer).fill('Vu : corrigé en décembre. / Visto: corregido en diciembre.');
    await annaPeriod.getByRole('button', { name: text.sendAnswer }).click();
    await expect(annaPeriod.getByTestId('period-answer')).toBeVisible();
    await expect(annaPeriod.getByRole('button', { name: text.lock })).toHaveCount(0);
    await bob.reload();
    await expect(bobPeriod.getByTestId('period-answer')).toContainText('corrig');
    await bobPeriod.getByRole('button', { name: text.confirm }).click();
    await expect(bobPeriod.getByRole('button', { name: text.confirm })).toHaveCount(0);
    await annaPeriod.getByRole('button', { name: text.confirm }).click();

    // Anna locks it after confirming; the deadline warning goes.
    await annaPeriod.getByRole('button', { name: text.lock }).click();
    await anna.getByRole('dialog').getByRole('button', { name: text.lock }).click();
    await expect(annaPeriod.getByTestId('period-state')).toHaveText(text.locked);
    await expect(anna.getByTestId('deadline-banner')).toHaveCount(0);
    expect(await a11yProblems(anna)).toEqual([]);
    await anna.screenshot({ path: `../test-results/team-periods-locked-${locale}-360.png`, fullPage: true });
    await anna.context().close();
    await bob.context().close();
  });
}
