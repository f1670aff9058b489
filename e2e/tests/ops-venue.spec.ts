import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { a11yProblems, auth, teamOfTwo } from './helpers.ts';
import { addOperator, signInFirstAdmin, signInOps, startOpsServer, type OpsServer } from './ops-server.ts';
import { READY_TIMEOUT_MS } from './server.ts';

/**
 * Issue 29 at 1280 px, on a server of its own: a support operator finds a venue by a part of its name, opens its page
 * and sees its admins, its venue card with the percentages between its teams, its team with the admin, members, the
 * split rule's versions, and follows a member to their user page.
 */
test.describe.configure({ mode: 'serial' });

let ops: OpsServer;
let api: APIRequestContext;
let BASE = '';
let supportSecret = '';
let venueCardId = '';

test.beforeAll(async ({ ownServerPort }) => {
  test.setTimeout(READY_TIMEOUT_MS + 60_000);
  ops = await startOpsServer(ownServerPort);
  ({ api, base: BASE } = ops);
  supportSecret = await addOperator(ops, await signInFirstAdmin(ops), 'support@ops.example', 'support');

  // Bar Riga: Anna runs it, Bob joined; Anna gives Bob a role and changes the split rule twice.
  const { admin, colleague, team } = await teamOfTwo(api);
  const bob = ((await (await api.get('/api/me', { headers: auth(colleague) })).json()) as { data: { id: string } }).data.id;
  expect((await api.patch(`/api/teams/${team.id}/members/${bob}`, { headers: auth(admin), data: { role: 'waiter' } })).ok()).toBe(
    true,
  );
  expect((await api.post(`/api/teams/${team.id}/rules`, { headers: auth(admin), data: { kind: 'hours' } })).status()).toBe(201);
  const points = { kind: 'points', points: { waiter: 2 } };
  expect((await api.post(`/api/teams/${team.id}/rules`, { headers: auth(admin), data: points })).status()).toBe(201);

  // Anna adds a kitchen team and makes Bob a venue admin; Bob makes the venue card and sets the percentages.
  const workplace = await api.get(`/api/clients/${admin.clientId}/workplace`, { headers: auth(admin) });
  const venueId = ((await workplace.json()) as { data: { id: string } }).data.id;
  const kitchen = await api.post(`/api/workplaces/${venueId}/teams`, { headers: auth(admin), data: { title: 'Kitchen' } });
  expect(kitchen.status()).toBe(201);
  const kitchenId = ((await kitchen.json()) as { data: { id: string } }).data.id;
  expect((await api.post(`/api/workplaces/${venueId}/admins`, { headers: auth(admin), data: { user_id: bob } })).status()).toBe(
    200,
  );
  const card = await api.get(`/api/workplaces/${venueId}/venue-card`, { headers: auth(colleague) });
  expect(card.status()).toBe(200);
  venueCardId = ((await card.json()) as { data: { card_id: string } }).data.card_id;
  const shares = [
    { team_id: team.id, basis_points: 7_000 },
    { team_id: kitchenId, basis_points: 3_000 },
  ];
  expect((await api.put(`/api/workplaces/${venueId}/percentages`, { headers: auth(colleague), data: { shares } })).status()).toBe(
    200,
  );
});

test.afterAll(async () => {
  await ops?.stop();
});

async function openVenue(page: Page) {
  await signInOps(page, BASE, 'support@ops.example', supportSecret);
  await page.getByRole('link', { name: 'Search' }).click();
  await page.getByLabel(/^Reference, phone, e-mail/).fill('bar rig');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('table', { name: 'Venues' }).getByRole('link', { name: 'Bar Riga' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Bar Riga' })).toBeVisible();
}

test('support finds a venue by a part of its name and sees its team, members and split rules', async ({ page }) => {
  await openVenue(page);
  const members = page.getByRole('table', { name: 'Members of Bar Riga' });
  await expect(members.getByRole('row')).toHaveCount(3);
  await expect(members).toContainText('waiter');
  const rules = page.getByRole('table', { name: 'Split rule versions of Bar Riga, newest first' });
  await expect(rules.getByRole('row').nth(1)).toContainText('By points per role');
  await expect(rules.getByRole('row').nth(1)).toContainText('waiter 2');
  await expect(rules.getByRole('row').nth(2)).toContainText('By hours worked');
  await expect(page.getByText('No period closed yet.').first()).toBeVisible();

  // The venue's admins, Bob added by Anna; the venue card Bob made and the percentages he set.
  const admins = page.getByRole('table', { name: 'Venue admins, the earliest first' });
  await expect(admins.getByRole('row')).toHaveCount(3);
  await expect(admins.getByRole('row').nth(2).getByRole('link', { name: 'Bob' })).toBeVisible();
  await expect(admins.getByRole('row').nth(2).getByRole('link', { name: 'Anna' })).toBeVisible();
  await expect(page.getByTestId('venue-card')).toHaveText(venueCardId);
  await expect(page.getByRole('link', { name: new RegExp(`/payment/${venueCardId}$`) })).toBeVisible();
  await expect(page.getByTestId('percentages-in-force')).toHaveText('Bar Riga 70%, Kitchen 30%');
  const versions = page.getByRole('table', { name: 'Percentage versions, newest first' });
  await expect(versions.getByRole('row')).toHaveCount(2);
  await expect(versions.getByRole('row').nth(1)).toContainText('current');
  await expect(versions.getByRole('row').nth(1).getByRole('link', { name: 'Bob' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Team: Kitchen' })).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
  await page.screenshot({ path: '../test-results/ops-venue-1280.png', fullPage: true });

  // On a phone the menu sits above the page, and only the wide tables scroll, inside their frames.
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.screenshot({ path: '../test-results/ops-venue-360.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // From a member's page back to the venue.
  await members.getByRole('link', { name: 'Bob' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Team', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Bar Riga' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Bar Riga' })).toBeVisible();
});
