import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, newPhone, readCode, type Staff, payByCardAtCheckout } from './helpers.ts';

/**
 * The card shop on a phone (390×844): the first order free from form to preview to result, then a second order paid
 * with the sandbox's succeeding test card and back on the return page; the same in Spanish.
 */
test.describe.configure({ mode: 'serial' });

async function signIn(page: Page, baseURL: string, staff: Staff) {
  const { hostname } = new URL(baseURL);
  await page.context().addCookies([
    { name: 'qtfo__token', value: staff.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: staff.refreshToken, domain: hostname, path: '/' },
  ]);
  await page.addInitScript(() => {
    localStorage.setItem('Functional:accepted', 'true');
    localStorage.setItem('GDPR:accepted', 'true');
  });
}

/** Fills the delivery address in whatever language the labels are in, by the fields' autocomplete roles. */
async function fillAddress(page: Page) {
  await page.locator('input[autocomplete="given-name"]').fill('Anna');
  await page.locator('input[autocomplete="family-name"]').fill('Bērziņa');
  await page.locator('input[autocomplete="address-level2"]').fill('Rīga');
  await page.locator('input[autocomplete="address-line1"]').fill('Brīvības iela 1');
  await page.locator('input[autocomplete="postal-code"]').fill('LV-1010');
}

test('the first order is free, end to end, and a second one is paid with the sandbox card (en)', async ({
  page,
  request,
  baseURL,
}) => {
  const staff = await createStaffWithCard(request, { public_name: 'Anna Bērziņa' });
  await signIn(page, baseURL!, staff);
  await page.goto('/#/card-orders');
  await expect(page.getByRole('heading', { level: 1, name: 'Card shop' })).toBeVisible();
  await expect(page.getByTestId('card-order-terms')).toContainText('Your first order is free.');
  // Each product is pictured by its own print file, rendered for the screen.
  await expect(page.getByTestId('print-preview-card')).toBeVisible();
  await expect(page.getByTestId('print-preview-sticker')).toBeVisible();
  expect(await a11yProblems(page)).toEqual([]);
  await expect(page.getByText('For more than 3 cards in an order, contact support')).toBeVisible();

  await page.getByLabel('Quantity').selectOption('2');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await fillAddress(page);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: 'Check what will be printed' })).toBeVisible();
  await expect(page.getByText('Free (your first order)')).toBeVisible();
  await expect(page.getByAltText('Your QR card as it will be printed')).toBeVisible();
  await page.getByRole('button', { name: 'Place free order' }).click();
  await expect(page.getByTestId('card-order-result')).toContainText('Your order is placed');
  await expect(page.getByTestId('card-order-result')).toContainText('3–4 working days');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('card-order-row')).toHaveCount(1);
  await expect(page.getByTestId('card-order-row').first()).toContainText('Placed');
  await expect(page.getByRole('heading', { level: 1, name: 'My QR cards' })).toBeVisible();

  // The second order costs 5 EUR per item and goes through the provider's checkout.
  await expect(page.getByTestId('card-order-terms')).toContainText('Each item costs €5.00');
  await page.getByText('QR sticker', { exact: true }).click();
  await page.getByLabel('Quantity').selectOption('3');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByText('3 × €5.00 = €15.00')).toBeVisible();
  await page.getByRole('button', { name: 'Pay €15.00' }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await payByCardAtCheckout(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/#\/card-orders\/payment\/success\?order=/);
  await expect(page.getByTestId('card-order-payment')).toHaveAttribute('data-state', 'paid', { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the card shop' }).click();
  await expect(page.getByTestId('card-order-row')).toHaveCount(2);
  await expect(page.locator('[data-testid="card-order-row"][data-status="placed"]')).toHaveCount(2);
  await expect(page.getByTestId('card-order-terms')).toContainText('Items you can still order: 5.');
});

test('the card shop in Spanish, and a canceled checkout cancels the order', async ({ page, request, baseURL }) => {
  const staff = await createStaffWithCard(request);
  await signIn(page, baseURL!, staff);
  // A Spanish user: the stored language choice, so the provider's return page (no prefix) is in Spanish too.
  await page.context().addCookies([{ name: 'locale', value: 'es', domain: new URL(baseURL!).hostname, path: '/' }]);
  await page.goto('/#/card-orders');
  await expect(page).toHaveURL(/#\/es\/card-orders/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tienda de tarjetas' })).toBeVisible();
  await expect(page.getByText('Para más de 3 tarjetas por pedido, contacta con el equipo de soporte')).toBeVisible();
  await fillAddress(page);
  await page.getByRole('button', { name: 'Vista previa' }).click();
  await page.getByRole('button', { name: 'Hacer pedido gratis' }).click();
  await expect(page.getByTestId('card-order-result')).toContainText('Tu pedido está hecho');
  await page.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Mis tarjetas QR' })).toBeVisible();

  await fillAddress(page);
  await page.getByRole('button', { name: 'Vista previa' }).click();
  await page.getByRole('button', { name: 'Pagar 5,00 €' }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  // The provider's page follows the stored language too.
  await page.getByRole('button', { name: 'Cancelar y volver' }).click();
  await expect(page).toHaveURL(/#\/(es\/)?card-orders\/payment\/canceled\?order=/);
  await expect(page.getByRole('heading', { name: 'El pago no se completó' })).toBeVisible({ timeout: 20_000 });
});

/** A new visitor opens the referral link (path form) in a browser of their own and signs up with a code from the outbox. */
async function signUpThroughLink(
  page: Page,
  link: string,
  phone: string,
  request: APIRequestContext,
  labels: { phone: string; checkboxes: 2; submit: string; code: string; confirm: string },
) {
  await page.addInitScript(() => {
    localStorage.setItem('Functional:accepted', 'true');
    localStorage.setItem('GDPR:accepted', 'true');
  });
  await page.goto(link);
  await expect(page).toHaveURL(/#\/(es\/)?registration\?ref=/);
  // The sign-up page says who invited the friend (the referrer's public name).
  await expect(page.getByTestId('referral-inviter')).toContainText('Anna');
  await page.getByLabel(labels.phone).fill(phone);
  await page.getByRole('checkbox').nth(0).check();
  await page.getByRole('checkbox').nth(1).check();
  await page.getByRole('button', { name: labels.submit }).click();
  await page.getByLabel(labels.code).fill(await readCode(request, phone));
  await page.getByRole('button', { name: labels.confirm }).click();
  await expect(page).toHaveURL(/account\/create|overview/);
}

for (const lang of [
  {
    locale: 'en',
    menu: 'Open menu',
    nav: 'Referrals',
    copy: 'Copy link',
    friends: 'Invited friends',
    status: 'In progress',
    phone: 'Phone number',
    submit: 'Sign up',
    code: 'Confirmation code',
    confirm: 'Confirm',
  },
  {
    locale: 'es',
    menu: 'Abrir menú',
    nav: 'Invitaciones',
    copy: 'Copiar enlace',
    friends: 'Amigos invitados',
    status: 'En curso',
    phone: 'Número de teléfono',
    submit: 'Registrarse',
    code: 'Código de confirmación',
    confirm: 'Confirmar',
  },
] as const) {
  test(`a friend signs up through the referral link and the referrer sees them in the list (${lang.locale})`, async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    const staff = await createStaffWithCard(request);
    await signIn(page, baseURL!, staff);
    if (lang.locale !== 'en')
      await page.context().addCookies([{ name: 'locale', value: lang.locale, domain: new URL(baseURL!).hostname, path: '/' }]);
    await page.goto('/#/overview');
    // On the phone the side bar is the menu: Referrals is there once the user has a card (referral_available).
    await page.getByRole('button', { name: lang.menu }).click();
    await page.getByRole('dialog').getByRole('link', { name: lang.nav }).click();
    await expect(page.getByRole('heading', { level: 1, name: lang.nav })).toBeVisible();
    // The field is drawn before the user's code has arrived: its value is awaited, not read at once.
    await expect(page.getByTestId('referral-link')).toHaveValue(/\/registration\?ref=[A-Z0-9]+$/);
    const link = await page.getByTestId('referral-link').inputValue();
    await expect(page.getByRole('button', { name: lang.copy })).toBeVisible();
    await expect(page.getByTestId('referrals-friends')).toHaveText('0');
    expect(await a11yProblems(page)).toEqual([]);

    const friendContext = await browser.newContext({ locale: lang.locale, viewport: { width: 390, height: 844 } });
    const friendPhone = newPhone();
    await signUpThroughLink(await friendContext.newPage(), link, friendPhone, request, { ...lang, checkboxes: 2 });
    await friendContext.close();

    await page.reload();
    await expect(page.getByTestId('referrals-friends')).toHaveText('1');
    await page.getByTestId('referrals-friends').locator('..').getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: lang.friends })).toBeVisible();
    const row = page.getByTestId('referral-friend');
    await expect(row).toHaveCount(1);
    // No card yet: the friend shows as a masked phone, never the whole number.
    await expect(row).toContainText(friendPhone.slice(0, 4));
    await expect(row).toContainText(friendPhone.slice(-2));
    await expect(row).not.toContainText(friendPhone);
    await expect(row).toContainText(lang.status);
  });
}
