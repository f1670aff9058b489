import { expect, test } from './fixtures.ts';
import { createStaffWithCard, newPhone, readCode, signInUserApp } from './helpers.ts';

/**
 * The sign-in dead ends of issue 16: a taken phone leads to log-in and an unknown one to sign-up, with the number
 * carried over; a wrong code marks the field and empties it; the consent line links the terms and the privacy policy;
 * a new user's overview starts with their QR card.
 */

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem('Functional:accepted', 'true');
    localStorage.setItem('GDPR:accepted', 'false');
  });
});

test('a taken phone offers Log in instead, with the number carried over', async ({ page, request }) => {
  const staff = await createStaffWithCard(request);
  await page.goto('/#/registration');
  const consent = page.getByLabel('I agree to the terms of use and the privacy policy');
  // The consent's own links, by their exact words: the footer, once drawn, has "Terms of use" and "Privacy policy" too.
  await expect(page.getByRole('link', { name: 'terms of use', exact: true })).toHaveAttribute('href', '#/terms');
  await expect(page.getByRole('link', { name: 'privacy policy', exact: true })).toHaveAttribute('href', '#/privacy');
  await page.getByLabel('Phone number').fill(staff.phone);
  await page.getByLabel('I confirm that I am 16 years old or older').check();
  await consent.check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('This phone is already taken')).toBeVisible();
  await page.getByRole('link', { name: 'Log in instead' }).click();
  await expect(page.getByRole('heading', { name: 'Log in to Tipcard' })).toBeVisible();
  await expect(page.getByLabel('Phone number')).toHaveValue(staff.phone);
});

test('an unknown phone offers Create an account; the message is gone on the next step; a wrong code is marked and cleared', async ({
  page,
  request,
}) => {
  const phone = newPhone();
  await page.goto('/#/login');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Get code' }).click();
  await expect(page.getByText('User not found')).toBeVisible();
  await page.locator('form').getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByLabel('Phone number')).toHaveValue(phone);
  await page.getByLabel('I confirm that I am 16 years old or older').check();
  await page.getByLabel('I agree to the terms of use and the privacy policy').check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Confirm your phone' })).toBeVisible();
  await expect(page.getByText('User not found')).toHaveCount(0);

  const right = await readCode(request, phone);
  const code = page.getByLabel('Confirmation code');
  await code.fill(right === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(code).toHaveValue('');
  await expect(code).toBeFocused();
  await expect(page.getByText('Code that you entered is not correct')).toBeVisible();
  await code.fill(right);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/#\/account\/create/);
});

test("a new user's overview leads with the QR card to print or share", async ({ page, request, baseURL }) => {
  const staff = await createStaffWithCard(request);
  const { hostname } = new URL(baseURL!);
  await page.context().addCookies([
    { name: 'qtfo__token', value: staff.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: staff.refreshToken, domain: hostname, path: '/' },
  ]);
  await page.goto('/#/overview');
  const first = page.getByTestId('first-card');
  await expect(first).toContainText('Your QR card is ready');
  const [cardBox, balanceBox] = [await first.boundingBox(), await page.getByTestId('balance-main').boundingBox()];
  expect(cardBox!.y).toBeLessThan(balanceBox!.y);
  await first.getByRole('button', { name: 'Print or share' }).click();
  await expect(page.getByRole('dialog', { name: 'Your QR card' })).toBeVisible();
});

test('a session that ended shows the log-in form with a plain sentence, and remembers the page to go back to', async ({
  page,
  request,
  baseURL,
}) => {
  await page.setViewportSize({ width: 360, height: 640 });
  const staff = await createStaffWithCard(request);
  // The session ends elsewhere: its refresh token is signed out, and the access token the browser holds is stale.
  await request.post('/api/logout', { data: { refreshToken: staff.refreshToken } });
  await signInUserApp(page.context(), baseURL!, { ...staff, jwt: 'stale.access.token' });

  await page.goto('/#/transactions?type=PAYIN');
  await expect(page.getByRole('heading', { name: 'Log in to Tipcard' })).toBeVisible();
  await expect(page.getByText('Your session has ended. Please log in again.')).toBeVisible();
  await expect(page.getByText('Authorization Error!')).toHaveCount(0);
  // Logging in takes this path once (use-auth-actions.ts), as after a team invite.
  expect(await page.evaluate(() => sessionStorage.getItem('tipcard.return_path'))).toBe('/transactions?type=PAYIN');
});
