import { expect, test, type Browser } from './fixtures.ts';
import { a11yProblems, auth, png, signInUserApp, teamOfTwo, type Staff } from './helpers.ts';

/**
 * The venue's QR code (issue 29): a guest opens the venue page at 360 px in French and in Spanish (the browser's
 * language, as after scanning the printed code), picks a person, tips on their card's page through the sandbox's
 * checkout and sees the paid state; the page without JavaScript; the admin's venue QR panel; the page at 1280 px.
 * Screenshots go to the test's output folder.
 */

const TEXTS = {
  fr: {
    language: 'fr-FR',
    prefix: '/fr',
    people: 'À une personne',
    teams: 'À une équipe',
    amount: /^5\s€$/,
    terms: /J’accepte les conditions d’utilisation/,
    pay: /^Payer 5,00\s€$/,
    cardNumber: 'Numéro de carte',
    expiry: 'Date d’expiration',
    checkoutPay: /^Payer \d/,
    thanks: /Merci/,
    panel: 'QR code de l’établissement',
  },
  es: {
    language: 'es-ES',
    prefix: '/es',
    people: 'A una persona',
    teams: 'A un equipo',
    amount: /^5\s€$/,
    terms: /Acepto las condiciones de uso/,
    pay: /^Pagar 5,00\s€$/,
    cardNumber: 'Número de tarjeta',
    expiry: 'Caducidad',
    checkoutPay: /^Pagar \d/,
    thanks: /¡Gracias!/,
    panel: 'Código QR del establecimiento',
  },
} as const;

let venue: { admin: Staff; colleague: Staff; workplaceId: string; teamCardId: string };

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  const { admin, colleague, team } = await teamOfTwo(request);
  // One person with a photo, one with the initials that stand for none.
  const photo = await request.post(`/api/cards/${admin.cardId}/photo`, {
    headers: auth(admin),
    data: { content: png(96, 96).toString('base64'), name: 'anna.png', mime: 'image/png' },
  });
  expect(photo.ok()).toBeTruthy();
  const workplace = await request.get(`/api/clients/${admin.clientId}/workplace`, { headers: auth(admin) });
  const workplaceId = ((await workplace.json()) as { data: { id: string } }).data.id;
  venue = { admin, colleague, workplaceId, teamCardId: team.card_id };
  await request.dispose();
});

const guestContext = (browser: Browser, baseURL: string, locale: string, width = 360) =>
  browser.newContext({ baseURL, locale, viewport: { width, height: 780 }, serviceWorkers: 'block', isMobile: width < 400 });

for (const [locale, text] of Object.entries(TEXTS)) {
  test(`${locale}: a guest opens the venue page, picks a person and tips them`, async ({ browser, baseURL }) => {
    test.setTimeout(90_000);
    const context = await guestContext(browser, baseURL!, text.language);
    const page = await context.newPage();
    // The script hydrates the server's markup: a mismatch would be logged as an error.
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`/venue/${venue.workplaceId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Bar Riga' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await page.waitForLoadState('networkidle');
    const people = page.getByRole('region', { name: text.people }).getByRole('link');
    await expect(people).toHaveCount(2);
    await expect(page.getByRole('region', { name: text.teams }).getByRole('link')).toHaveCount(1);
    await expect(people.first().getByRole('img')).toHaveJSProperty('complete', true);
    expect(
      await people
        .first()
        .getByRole('img')
        .evaluate((image: HTMLImageElement) => image.naturalWidth),
    ).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await a11yProblems(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`venue-page-${locale}-360.png`), fullPage: true });

    // Keyboard: the links are in the tab order, each named by the person.
    const bob = page.getByRole('link', { name: /Bob/ });
    await bob.focus();
    await expect(bob).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${text.prefix}/payment/${venue.colleague.cardId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Bob' })).toBeVisible();
    await page.getByRole('radio', { name: text.amount }).check();
    await page.getByRole('checkbox', { name: text.terms }).check();
    await page.getByRole('button', { name: text.pay }).click();
    await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
    await page.getByLabel(text.cardNumber).fill('4242 4242 4242 4242');
    await page.getByLabel(text.expiry).fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: text.checkoutPay }).click();
    await expect(page).toHaveURL(new RegExp(`/payment/${venue.colleague.cardId}/success\\?payment=`));
    await expect(page.getByRole('heading', { name: text.thanks })).toBeVisible();
    await expect(page.getByTestId('success-amount')).toContainText('5,00');
    expect(problems).toEqual([]);
    await context.close();
  });

  test(`${locale}: the admin finds the venue's QR code on the workplace page`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 360, height: 780 }, locale: text.language });
    await signInUserApp(context, baseURL!, venue.admin);
    const page = await context.newPage();
    await page.goto(`/#${text.prefix}/workplace`);
    const panel = page.locator('section', { has: page.getByRole('heading', { name: text.panel }) });
    await expect(panel.getByRole('img')).toBeVisible();
    // The panel fits the phone (the page's width is the other panels' business).
    await panel.scrollIntoViewIfNeeded();
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(await panel.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await panel.screenshot({ path: test.info().outputPath(`venue-qr-panel-${locale}-360.png`) });
    const download = page.waitForEvent('download');
    await panel.getByRole('button').nth(1).click();
    expect((await download).suggestedFilename()).toBe('tipcard-venue.pdf');
    await context.close();
  });
}

test('without JavaScript the venue page still leads to the tip form', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await page.goto(`/venue/${venue.workplaceId}`);
  await page
    .getByRole('region', { name: 'A team' })
    .getByRole('link', { name: /Bar Riga/ })
    .click();
  await expect(page).toHaveURL(`/payment/${venue.teamCardId}`);
  await expect(page.getByRole('button', { name: 'Pay €5.00' })).toBeVisible();
  await context.close();
});

test('at 1280 px the venue page is one readable column', async ({ browser, baseURL }) => {
  const context = await guestContext(browser, baseURL!, 'en-GB', 1280);
  const page = await context.newPage();
  await page.goto(`/venue/${venue.workplaceId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Bar Riga' })).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('venue-page-en-1280.png'), fullPage: true });
  // An unknown venue is the guest pages' 404.
  const missing = await page.goto(`/venue/${crypto.randomUUID()}`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId('payment-unknown')).toBeVisible();
  await context.close();
});

test('once the venue card is made, everyone at the venue comes first, in French and Spanish at 360 px', async ({
  browser,
  baseURL,
  playwright,
}) => {
  // Runs last: the venue card changes what the page offers.
  const request = await playwright.request.newContext({ baseURL });
  const made = await request.get(`/api/workplaces/${venue.workplaceId}/venue-card`, { headers: auth(venue.admin) });
  expect(made.ok()).toBeTruthy();
  const venueCardId = ((await made.json()) as { data: { card_id: string } }).data.card_id;
  await request.dispose();
  for (const [locale, region, detail] of [
    ['fr-FR', 'Tout le personnel de l’établissement', /Partagé entre 1\séquipe/],
    ['es-ES', 'Todo el personal', /Repartido entre 1\sequipo/],
  ] as const) {
    const context = await guestContext(browser, baseURL!, locale);
    const page = await context.newPage();
    await page.goto(`/venue/${venue.workplaceId}`);
    const regions = page.getByRole('region');
    await expect(regions.first()).toHaveAccessibleName(region);
    const everyone = regions.first().getByRole('link');
    await expect(everyone).toHaveText(detail);
    await expect(everyone).toHaveAttribute('href', new RegExp(`/payment/${venueCardId}$`));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await a11yProblems(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`venue-page-everyone-${locale}-360.png`), fullPage: true });
    await context.close();
  }
});
