import { expect, test, type APIRequestContext } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, signInUserApp, type Staff } from './helpers.ts';

/**
 * A join request as both sides live it (issue 29's "Requests and notices"), on a 360×640 phone: in French the one who
 * asked finds the request waiting on the Workplace page and withdraws it; in Spanish the admin's menu counts the
 * request waiting, the admin approves it, and the new member is texted in their language.
 */
test.use({ viewport: { width: 360, height: 640 } });

const auth = (staff: Staff) => ({ Authorization: `Bearer ${staff.jwt}` });

async function workplaceOf(request: APIRequestContext, admin: Staff, name: string): Promise<string> {
  const created = await request.post(`/api/clients/${admin.clientId}/workplace`, {
    headers: auth(admin),
    data: { name, country: 'LV' },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { data: { team: { id: string } } }).data.team.id;
}

async function askToJoin(request: APIRequestContext, teamId: string, asker: Staff): Promise<string> {
  const asked = await request.post(`/api/teams/${teamId}/requests`, { headers: auth(asker) });
  expect(asked.status()).toBe(201);
  return ((await asked.json()) as { data: { id: string } }).data.id;
}

/** The notices texted to a phone, its sign-up code aside. */
async function noticesTo(request: APIRequestContext, phone: string): Promise<string[]> {
  const outbox = await request.get(`/api/dev/outbox?to=${encodeURIComponent(phone)}`);
  return ((await outbox.json()) as { data: { body: string }[] }).data
    .map((message) => message.body)
    .filter((body) => !body.startsWith('Your Tipcard code'));
}

test('fr: the one who asked sees the request waiting and withdraws it', async ({ page, request, baseURL }) => {
  const admin = await createStaffWithCard(request, { public_name: 'Anna' });
  const teamId = await workplaceOf(request, admin, 'Brasserie du Port');
  const asker = await createStaffWithCard(request, { public_name: 'Chloé' });
  await askToJoin(request, teamId, asker);

  await signInUserApp(page.context(), baseURL!, asker);
  await page.goto('/#/fr/workplace');
  const waiting = page.getByTestId('pending-request');
  await expect(waiting.getByRole('heading', { name: 'En attente d’acceptation' })).toBeVisible();
  await expect(waiting).toContainText('Brasserie du Port');
  expect(await a11yProblems(page)).toEqual([]);
  await page.screenshot({ path: '../test-results/team-request-waiting-fr-360.png' });

  await waiting.getByRole('button', { name: 'Retirer la demande' }).click();
  await expect(page.getByText('Demande retirée.')).toBeVisible();
  await expect(waiting).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Vous ne faites pas encore partie d’une équipe' })).toBeVisible();
  const team = await request.get(`/api/teams/${teamId}`, { headers: auth(admin) });
  expect(((await team.json()) as { data: { requests: unknown[] } }).data.requests).toEqual([]);
  expect(await noticesTo(request, asker.phone)).toEqual([]);
});

test('es: the admin’s menu counts the request waiting; approved, the new member is texted in Spanish', async ({
  page,
  request,
  baseURL,
}) => {
  const admin = await createStaffWithCard(request, { public_name: 'Lucía' });
  const teamId = await workplaceOf(request, admin, 'Bar Sol');
  const asker = await createStaffWithCard(request, { public_name: 'Diego' });
  // The asker's stored language is the one their app states when it renews its session.
  const renewed = await request.post('/api/refresh-token', {
    headers: { 'Accept-Language': 'es' },
    data: { refreshToken: asker.refreshToken },
  });
  expect(renewed.status()).toBe(200);
  await askToJoin(request, teamId, asker);

  await signInUserApp(page.context(), baseURL!, admin);
  await page.goto('/#/es/overview');
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  const workplace = page.getByRole('link', { name: /Lugar de trabajo.*Solicitudes para unirse pendientes: 1/ });
  await expect(workplace).toBeVisible();
  await expect(workplace.getByTestId('team-requests-badge')).toHaveText(/1/);
  await page.screenshot({ path: '../test-results/team-request-badge-es-360.png' });
  await workplace.click();

  await page.getByTestId('team-requests').getByRole('button', { name: 'Aprobar' }).click();
  await expect(page.getByTestId('team-members').getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  await expect(page.getByTestId('team-requests-badge')).toHaveCount(0);
  await expect
    .poll(() => noticesTo(request, asker.phone))
    .toEqual([expect.stringContaining('Tipcard: tu solicitud para unirte a un equipo ha sido aceptada. Equipo: Bar Sol')]);
});
