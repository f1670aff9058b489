import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './fixtures.ts';
import { a11yProblems, payTipWithApplePay, signInUserApp, teamOfTwo, untilShares } from './helpers.ts';

/**
 * Split rules (issue 29, decision 0045) at 360 px in French and Spanish: the admin enters today's shifts, previews the
 * hours rule on the past days' team tip against what was received, and saves it; a tip paid after it is split by
 * hours, and the colleague sees the maths of their share.
 */
test.use({ viewport: { width: 360, height: 780 } });

const TEXTS = {
  fr: {
    prefix: '/fr',
    addTitle: 'Saisir un service',
    member: 'Membre',
    start: 'Début',
    end: 'Fin',
    add: 'Ajouter le service',
    hours: /Selon les heures travaillées/,
    preview: 'Aperçu',
    save: 'Enregistrer la règle',
    inForce: 'Selon les heures travaillées',
    shares: 'Comment votre part a été calculée',
    worked: /Vous avez travaillé 2 h 0\d min sur les 6 h 0\d min/,
    teamCard: 'Carte d’équipe',
    teamCardQr: 'QR code de la carte d’équipe',
    records: 'Votre registre de pourboires',
    thisMonth: 'Ce mois-ci',
    csv: 'Télécharger le CSV',
    pdf: 'Télécharger le PDF',
  },
  es: {
    prefix: '/es',
    addTitle: 'Añadir un turno',
    member: 'Miembro',
    start: 'Inicio',
    end: 'Fin',
    add: 'Añadir el turno',
    hours: /Según las horas trabajadas/,
    preview: 'Vista previa',
    save: 'Guardar la regla',
    inForce: 'Según las horas trabajadas',
    shares: 'Cómo se calculó tu parte',
    worked: /Trabajaste 2 h 0\d min de las 6 h 0\d min/,
    teamCard: 'Tarjeta del equipo',
    teamCardQr: 'Código QR de la tarjeta del equipo',
    records: 'Tu registro de propinas',
    thisMonth: 'Este mes',
    csv: 'Descargar CSV',
    pdf: 'Descargar PDF',
  },
} as const;

/** A `datetime-local` value `hours` from now in the browser's zone. */
async function localInput(page: Page, hours: number) {
  return page.evaluate((offset) => {
    const at = new Date(Date.now() + offset * 3_600_000);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}`;
  }, hours);
}

for (const [locale, text] of Object.entries(TEXTS)) {
  test(`${locale}: the admin sets a rule by hours after previewing it, and a member sees the maths of their share`, async ({
    browser,
    page,
    context,
    request,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const { admin, colleague, team } = await teamOfTwo(request);
    // A team tip under the even rule, on a past day of the preview's period.
    await payTipWithApplePay(request, team.card_id, { amount_cents: 1_000 });
    await untilShares(request, team.id, colleague, 1);

    await signInUserApp(context, baseURL!, admin);
    await page.goto(`/#${text.prefix}/workplace`);
    const shifts = page.locator('section', { has: page.getByRole('heading', { name: text.addTitle }) });
    // Anna has worked 4 hours and Bob 2, both still on shift for an hour.
    for (const [name, from] of [
      ['Anna', -4],
      ['Bob', -2],
    ] as const) {
      await shifts.getByLabel(text.member).selectOption({ label: name });
      await shifts.getByLabel(text.start, { exact: true }).fill(await localInput(page, from));
      await shifts.getByLabel(text.end, { exact: true }).fill(await localInput(page, 1));
      await shifts.getByRole('button', { name: text.add }).click();
      await expect(shifts.getByTestId('shifts')).toContainText(name);
    }

    const rule = page.locator('section', { has: page.getByTestId('rule-in-force') });
    await rule.getByRole('radio', { name: text.hours }).check();
    await rule.getByRole('button', { name: text.preview }).click();
    const preview = rule.getByTestId('rule-preview');
    // The even tip (4,75 € each) against the hours rule on today's shifts: about 4 h and 2 h of 6 → 6,33 € and 3,17 €
    // (a minute more or less of work by the time it is paid moves a cent).
    await expect(preview).toContainText('Anna');
    await expect(preview).toContainText('4,75');
    await expect(preview).toContainText(/6,3\d/);
    await expect(preview).toContainText(/3,1\d/);
    // The admin has the team card's QR code to download and print (decision 0048).
    const teamCard = page.locator('section', { has: page.getByRole('heading', { name: text.teamCard, exact: true }) });
    await expect(teamCard.getByRole('img', { name: text.teamCardQr })).toBeVisible();
    expect(await a11yProblems(page)).toEqual([]);
    await page.screenshot({ path: `../test-results/team-rules-preview-${locale}-360.png`, fullPage: true });
    await rule.getByRole('button', { name: text.save }).click();
    await expect(page.getByTestId('rule-in-force')).toContainText(text.inForce);

    // A tip after the rule: split by hours; Bob sees why his share is what it is.
    await payTipWithApplePay(request, team.card_id, { amount_cents: 1_000 });
    await untilShares(request, team.id, colleague, 2);
    const bobContext = await browser.newContext({ viewport: { width: 360, height: 780 }, locale });
    await signInUserApp(bobContext, baseURL!, colleague);
    const bob = await bobContext.newPage();
    await bob.goto(`/#${text.prefix}/workplace`);
    const shares = bob.locator('section', { has: bob.getByRole('heading', { name: text.shares }) });
    await expect(shares.getByTestId('tip-shares').getByRole('listitem').first()).toContainText(text.worked);
    await expect(shares.getByTestId('tip-shares').getByRole('listitem').first()).toContainText(/3,1\d/);
    expect(await a11yProblems(bob)).toEqual([]);
    await bob.screenshot({ path: `../test-results/team-rules-shares-${locale}-360.png`, fullPage: true });

    // Bob's records of this month in two taps (decision 0053): both tips, his lines only, and the PDF.
    const records = bob.locator('section', { has: bob.getByRole('heading', { name: text.records }) });
    await records.getByRole('button', { name: text.thisMonth }).click();
    const [csv] = await Promise.all([bob.waitForEvent('download'), records.getByRole('button', { name: text.csv }).click()]);
    const lines = (await readFile((await csv.path())!, 'utf8')).trim().split('\r\n');
    expect(lines).toHaveLength(3);
    for (const line of lines.slice(1)) expect(line).toMatch(/,Bar Riga,Bar Riga,.*,Bob,[0-9a-f-]{36},/);
    const [pdf] = await Promise.all([bob.waitForEvent('download'), records.getByRole('button', { name: text.pdf }).click()]);
    expect(pdf.suggestedFilename()).toMatch(/^tipcard-tip-records-\d{4}-\d\d-\d\d\.pdf$/);
    expect((await readFile((await pdf.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
    await bobContext.close();
  });
}
