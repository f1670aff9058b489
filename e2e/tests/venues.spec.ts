import { expect, test } from './fixtures.ts';
import { a11yProblems, signInUserApp, teamOfTwo } from './helpers.ts';

/**
 * Venues (issue 29, decision 0057) at 360 px in French and Spanish: the venue admin adds a kitchen to the venue, sets a
 * rule by hours on the first team and keeps the kitchen even with a rule of its own, switching between the two, and
 * makes a colleague a second venue admin.
 */

const TEXTS = {
  fr: {
    prefix: '/fr',
    venue: 'Équipes de l’établissement',
    addLabel: 'Ajouter une équipe',
    add: 'Ajouter l’équipe',
    kitchen: 'Cuisine',
    teamsList: 'Équipes de Bar Riga',
    ownTeam: /Bar Riga \(votre équipe\)/,
    hours: /Selon les heures travaillées/,
    even: /À parts égales/,
    save: 'Enregistrer la règle',
    managing: 'Vous gérez cette équipe en tant qu’administrateur de l’établissement',
    makeAdmin: 'Nommer admin de l’établissement',
  },
  es: {
    prefix: '/es',
    venue: 'Equipos del establecimiento',
    addLabel: 'Añadir un equipo',
    add: 'Añadir el equipo',
    kitchen: 'Cocina',
    teamsList: 'Equipos de Bar Riga',
    ownTeam: /Bar Riga \(tu equipo\)/,
    hours: /Según las horas trabajadas/,
    even: /A partes iguales/,
    save: 'Guardar la regla',
    managing: 'Gestionas este equipo como administrador del establecimiento',
    makeAdmin: 'Nombrar admin del establecimiento',
  },
} as const;

test.describe('at 360 px', () => {
  // Its own 360×780 viewport: only the phone project (isMobile) runs it, the desktop one would run the same again.
  test.skip(({ isMobile }) => !isMobile, 'walked at 360 px, on the phone project');
  test.use({ viewport: { width: 360, height: 780 } });

  for (const [locale, text] of Object.entries(TEXTS)) {
    test(`${locale}: a venue admin adds a second team and sets a different split rule on each`, async ({
      page,
      context,
      request,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      const { admin, colleague } = await teamOfTwo(request);
      await signInUserApp(context, baseURL!, admin);
      await page.goto(`/#${text.prefix}/workplace`);

      const venue = page.locator('section', { has: page.getByRole('heading', { name: text.venue }) });
      await venue.getByLabel(text.addLabel).fill(text.kitchen);
      await venue.getByRole('button', { name: text.add }).click();
      // The new team opens for its management: no member yet, its own rule, managed as the venue's admin.
      await expect(page.getByRole('heading', { level: 1, name: text.kitchen })).toBeVisible();
      await expect(page.getByTestId('venue-managing')).toContainText(text.managing);
      const teams = venue.getByRole('list', { name: text.teamsList }).getByRole('listitem');
      await expect(teams).toHaveCount(2);
      await expect(venue.getByRole('button', { name: new RegExp(text.kitchen) })).toHaveAttribute('aria-pressed', 'true');

      const rule = page.locator('section', { has: page.getByTestId('rule-in-force') });
      await rule.getByRole('radio', { name: text.even }).check();
      await rule.getByRole('button', { name: text.save }).click();
      await expect(page.getByTestId('rule-in-force')).toContainText(text.even);
      expect(await a11yProblems(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.screenshot({ path: `../test-results/venue-kitchen-${locale}-360.png`, fullPage: true });

      // Back to the first team: its own rule, by hours.
      await venue.getByRole('button', { name: text.ownTeam }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Bar Riga' })).toBeVisible();
      await expect(page.getByTestId('venue-managing')).toHaveCount(0);
      await rule.getByRole('radio', { name: text.hours }).check();
      await rule.getByRole('button', { name: text.save }).click();
      await expect(page.getByTestId('rule-in-force')).toContainText(text.hours);

      // Bob, a member of the first team, becomes a second venue admin.
      // Every member action fits the phone's width, the longest labels on lines of their own.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.screenshot({ path: `../test-results/venue-members-${locale}-360.png`, fullPage: true });
      await page.getByTestId('team-members').getByRole('button', { name: text.makeAdmin }).click();
      await expect(page.getByTestId('venue-admins').getByRole('listitem')).toHaveCount(2);

      // Each team kept its own rule.
      await venue.getByRole('button', { name: new RegExp(text.kitchen) }).click();
      await expect(page.getByRole('heading', { level: 1, name: text.kitchen })).toBeVisible();
      await expect(page.getByTestId('rule-in-force')).toContainText(text.even);
      const rules = async (teamId: string) =>
        (
          (await (
            await request.get(`/api/teams/${teamId}/rules`, { headers: { Authorization: `Bearer ${colleague.jwt}` } })
          ).json()) as {
            data: { current: { kind: string } };
          }
        ).data.current.kind;
      const workplace = (await (
        await request.get(`/api/clients/${admin.clientId}/workplace`, { headers: { Authorization: `Bearer ${admin.jwt}` } })
      ).json()) as { data: { teams: { id: string; title: string }[] } };
      const [first, kitchen] = workplace.data.teams;
      expect(kitchen!.title).toBe(text.kitchen);
      // Bob, now a venue admin, reads both; each holds its own rule.
      expect([await rules(first!.id), await rules(kitchen!.id)]).toEqual(['hours', 'even']);
      expect(await a11yProblems(page)).toEqual([]);
      await page.screenshot({ path: `../test-results/venue-admins-${locale}-360.png`, fullPage: true });
    });
  }
});

test.describe('at 1280 px', () => {
  test.skip(({ isMobile }) => isMobile, 'the desktop project');

  test('fr: the venue admin manages the kitchen beside the first team', async ({ page, context, request, baseURL }) => {
    const { admin } = await teamOfTwo(request);
    const headers = { Authorization: `Bearer ${admin.jwt}` };
    const workplace = (await (await request.get(`/api/clients/${admin.clientId}/workplace`, { headers })).json()) as {
      data: { id: string };
    };
    const added = await request.post(`/api/workplaces/${workplace.data.id}/teams`, { headers, data: { title: 'Cuisine' } });
    expect(added.status()).toBe(201);
    await signInUserApp(context, baseURL!, admin);
    await page.goto('/#/fr/workplace');
    await page.getByRole('button', { name: /Cuisine/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Cuisine' })).toBeVisible();
    await expect(page.getByTestId('rule-in-force')).toBeVisible();
    expect(await a11yProblems(page)).toEqual([]);
    await page.screenshot({ path: '../test-results/venue-kitchen-fr-1280.png', fullPage: true });
  });
});
