import { expect, test } from './fixtures.ts';
import { newPhone, readCode } from './helpers.ts';

test('register in English, create the card, see QR and zero balances, log out and log in again', async ({ page, request }) => {
  // A phone gets one code a minute, so signing in again waits for the sign-up code's minute to pass.
  test.setTimeout(150_000);
  const phone = newPhone();
  await page.goto('/#/registration');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByLabel('I confirm that I am 16 years old or older').check();
  await page.getByLabel('I agree to the terms of use and the privacy policy').check();
  await page.getByRole('button', { name: 'Sign up' }).click();

  await page.getByLabel('Confirmation code').fill(await readCode(request, phone));
  const codeSentAt = Date.now();
  await page.getByRole('button', { name: 'Confirm' }).click();

  // Signed in without a card: the guard sends the user to create one.
  await expect(page).toHaveURL(/#\/account\/create/);
  await page.getByLabel('Public name').fill('Anna');
  await page.getByLabel('Card title').fill('Café Riga');
  await page.getByLabel('Activity').selectOption('WAITER');
  await page.getByLabel('Country').selectOption('LV');
  await page.getByRole('button', { name: 'Create card' }).click();

  await page.goto('/#/overview');
  await expect(page.getByTestId('balance-main')).toContainText('0.00');
  await expect(page.getByTestId('balance-hold')).toContainText('0.00');
  // Said once: the new card's panel, not a message repeating it.
  await expect(page.getByText('Your QR card is ready')).toHaveCount(1);
  const qr = page.getByTestId('card-qr').first();
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  // "Print or share" copies the card's link on any device, a desktop without a share sheet too.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Print or share' }).click();
  const card = page.getByRole('dialog', { name: 'Your QR card' });
  await card.getByRole('button', { name: 'Copy link' }).click();
  await expect(card.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/payment\/[0-9a-f-]{36}$/);
  await card.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Log out' }).first().click();
  await expect(page).not.toHaveURL(/overview/);
  await page.goto('/#/overview');
  await expect(page).not.toHaveURL(/overview/);

  await page.waitForTimeout(Math.max(0, codeSentAt + 61_000 - Date.now()));
  await page.goto('/#/login');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Get code' }).click();
  await page.getByLabel('Confirmation code').fill(await readCode(request, phone, 1));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/#\/overview/);
  await expect(page.getByTestId('balance-main')).toContainText('0.00');
  // The refresh token is the server's: one HttpOnly cookie for the API, none a page script can read.
  const refresh = (await page.context().cookies()).filter((cookie) => cookie.name === 'refresh__key');
  expect(refresh).toEqual([expect.objectContaining({ path: '/api', httpOnly: true, sameSite: 'Strict' })]);
  expect(await page.evaluate(() => document.cookie)).not.toContain('refresh__key');
});

test('the same registration under the lv prefix speaks Latvian', async ({ page, request }) => {
  const phone = newPhone();
  await page.goto('/#/lv/registration');
  await expect(page.getByRole('heading', { name: 'Izveidojiet savu kontu' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'lv');
  await page.getByLabel('Tālruņa numurs').fill(phone);
  await page.getByLabel('Apstiprinu, ka man ir vismaz 16 gadu').check();
  await page.getByRole('checkbox').nth(1).check();
  await page.getByRole('button', { name: 'Reģistrēties' }).click();
  await page.getByLabel('Apstiprinājuma kods').fill(await readCode(request, phone));
  await page.getByRole('button', { name: 'Apstiprināt' }).click();
  await expect(page).toHaveURL(/#\/lv\/account\/create/);
});

test('a wrong code says "Code that you entered is not correct"', async ({ page, request }) => {
  const phone = newPhone();
  await page.goto('/#/registration');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByLabel('I confirm that I am 16 years old or older').check();
  await page.getByLabel('I agree to the terms of use and the privacy policy').check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  const code = await readCode(request, phone);
  await page.getByLabel('Confirmation code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Code that you entered is not correct').first()).toBeVisible();
});
