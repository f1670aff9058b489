import { expect, test, type APIRequestContext } from './fixtures.ts';
import { createStaffWithCard, payByCardAtCheckout, png, signInUserApp, type Staff } from './helpers.ts';

/**
 * What the second walk through every journey tripped on (issue 26), each walked again on a 360×640 phone in the
 * language where it was seen. The other items of that walk are named in the journeys' own specs: the guest page's
 * (guest-page.spec.ts), the donor's (monthly-donations.spec.ts), sign-in (sign-in.spec.ts, first-journey.spec.ts),
 * support (support.spec.ts), the public site (public-site.spec.ts) and the 360 px overflow sweep (overflow.spec.ts).
 */
test.use({ viewport: { width: 360, height: 640 } });

const auth = (staff: Staff) => ({ Authorization: `Bearer ${staff.jwt}` });

/** A guest's tip paid at the sandbox's hosted checkout through plain HTTP, as a browser without the page's script would. */
async function payTip(request: APIRequestContext, cardId: string, cents: number) {
  const created = await request.post(`/api/public/cards/${cardId}/payments`, {
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    data: { amount_cents: cents, cover_fee: false, terms_accepted: true },
  });
  expect(created.status()).toBe(201);
  const { checkout_url } = ((await created.json()) as { data: { checkout_url: string } }).data;
  const checkout = new URL(checkout_url);
  const paid = await request.post(`${checkout.pathname}${checkout.search}`, {
    form: { method: 'card', card_number: '4242424242424242', expiry: '12/34', cvc: '123' },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
}

test('the transactions page survives "Load more" and filters changed at once, and a line opens its details (en)', async ({
  page,
  request,
  baseURL,
}) => {
  const staff = await createStaffWithCard(request);
  for (let tip = 1; tip <= 22; tip += 1) await payTip(request, staff.cardId, 100 + tip);
  await expect
    .poll(async () => {
      const answer = await request.get(`/api/clients/${staff.clientId}/transactions?limit=50`, { headers: auth(staff) });
      return ((await answer.json()) as { data: { items: unknown[] } }).data.items.length;
    })
    .toBe(22);
  await signInUserApp(page.context(), baseURL!, staff);
  await page.goto('/#/transactions');
  const list = page.getByRole('list', { name: 'Transaction list' });
  await expect(list.getByRole('button', { name: /^Details: / })).toHaveCount(20);
  // The next page loads when the end of the list comes into view (the walk's "Load more").
  await page.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
  await expect(list.getByRole('button', { name: /^Details: / })).toHaveCount(22);
  await expect(page.getByText('That is everything.')).toBeVisible();

  // The walk's crash: Type to Payout, then at once Type back to all and Status to on hold, while pages are loading.
  // Status goes back to all at once too: the tips leave their 36-second hold while a busy machine walks this, so only
  // the unfiltered list is known (both its pages, as it was before the filters changed).
  const type = page.getByLabel('Type');
  const status = page.getByLabel('Status');
  await type.selectOption('PAYOUT');
  await type.selectOption('');
  await status.selectOption('HOLD');
  await status.selectOption('');
  await expect(list.getByRole('button', { name: /^Details: / })).toHaveCount(22);
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();

  await list
    .getByRole('button', { name: /^Details: / })
    .first()
    .click();
  const details = page.getByRole('dialog', { name: 'Transaction details' });
  await expect(details.getByTestId('transaction-details')).toContainText(/On hold|Paid/);
  await expect(details.getByTestId('transaction-details')).toContainText(/[0-9a-f-]{36}/);
});

test('a guest who pays on the Spanish page comes back to Spanish pages, whatever the browser speaks (es)', async ({
  page,
  request,
}) => {
  const staff = await createStaffWithCard(request);
  await page.goto(`/es/payment/${staff.cardId}`);
  await page.getByRole('checkbox', { name: /Acepto las condiciones de uso/ }).check();
  await page.getByRole('button', { name: /^Pagar 5,00 €/ }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.getByRole('button', { name: /^Pagar 5,00 €/ }).click();
  await expect(page).toHaveURL(new RegExp(`/es/payment/${staff.cardId}/success\\?payment=`));
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { name: '¡Gracias!' })).toBeVisible();
});

test('a declined invoice payment comes back to the invoice with its message, not to a bare "Oops" (en)', async ({
  page,
  request,
}) => {
  const staff = await createStaffWithCard(request, { public_name: 'Līga' });
  const created = await request.post(`/api/clients/${staff.clientId}/invoices`, {
    headers: auth(staff),
    data: { description: 'Wedding photos, 12 June', amount_cents: 4_500 },
  });
  const invoice = ((await created.json()) as { data: { id: string; url: string } }).data;
  await page.goto(new URL(invoice.url).pathname);
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: 'Pay €45.00' }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await payByCardAtCheckout(page, '4000 0000 0000 0002');
  await expect(page.getByTestId('invoice-failed')).toContainText('The payment did not go through');
  await expect(page).toHaveURL(new RegExp(`/invoice/${invoice.id}$`));
  await expect(page.getByTestId('invoice-description')).toHaveText('Wedding photos, 12 June');
  await expect(page.getByRole('button', { name: 'Pay €45.00' })).toBeVisible();
});

test('the card shop offers no more than is left, and its preview names the country (en)', async ({ page, request, baseURL }) => {
  const staff = await createStaffWithCard(request);
  const address = {
    country: 'LV',
    city: 'Rīga',
    address: 'Brīvības iela 1',
    apartment: '12',
    zip: 'LV-1010',
    first_name: 'Anna',
    last_name: 'Bērziņa',
    additional_info: null,
  };
  // Nine of the ten items a user may order are taken: one free order of three, two more waiting for payment.
  for (let order = 0; order < 3; order += 1) {
    const placed = await request.post(`/api/clients/${staff.clientId}/card-orders`, {
      headers: { ...auth(staff), 'Idempotency-Key': crypto.randomUUID() },
      data: { product: 'card', quantity: 3, ...address },
    });
    expect(placed.ok()).toBeTruthy();
  }
  await signInUserApp(page.context(), baseURL!, staff);
  await page.goto('/#/card-orders');
  await expect(page.getByText('You can order 1 more card.')).toBeVisible();
  await expect(page.getByLabel('Quantity').locator('option')).toHaveText(['1']);
  await page.locator('input[autocomplete="given-name"]').fill('Anna');
  await page.locator('input[autocomplete="family-name"]').fill('Bērziņa');
  await page.locator('input[autocomplete="address-level2"]').fill('Rīga');
  await page.locator('input[autocomplete="address-line1"]').fill('Brīvības iela 1');
  await page.locator('input[autocomplete="postal-code"]').fill('LV-1010');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByText(/^Brīvības iela 1, .*Rīga, Latvia$/)).toBeVisible();
});

test('"Photo uploaded" stays on the page it was said on, and does not follow to the overview (en)', async ({
  page,
  request,
  baseURL,
}) => {
  const staff = await createStaffWithCard(request);
  await signInUserApp(page.context(), baseURL!, staff);
  await page.clock.install();
  await page.goto('/#/account/add-photo');
  await page.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(320, 320) });
  await page.getByRole('button', { name: 'Upload photo' }).click();
  await expect(page).toHaveURL(/#\/account$/);
  await expect(page.getByTestId('snackbar')).toContainText('Photo uploaded');
  // The next page the user opens later is theirs alone.
  await page.clock.fastForward(3_000);
  await page.goto('/#/overview');
  await expect(page.getByTestId('balance-main')).toBeVisible();
  await expect(page.getByTestId('snackbar')).toHaveCount(0);
});

test("the cookie banner leaves the invite link's buttons free to tap on a 360×640 phone (en)", async ({ page, request }) => {
  const admin = await createStaffWithCard(request);
  const created = await request.post(`/api/clients/${admin.clientId}/workplace`, {
    headers: auth(admin),
    data: { name: 'Café Riga', country: 'LV' },
  });
  const { id } = ((await created.json()) as { data: { team: { id: string } } }).data.team;
  await page.goto(`/#/teams/${id}/join`);
  await expect(page.getByRole('button', { name: 'Accept' })).toBeVisible();
  for (const name of ['Sign up', 'Log in']) {
    const link = page.getByRole('main').getByRole('link', { name, exact: true });
    await link.scrollIntoViewIfNeeded();
    // A trial click fails when something else (the banner) would take the tap.
    await link.click({ trial: true, timeout: 5_000 });
  }
});

test('a malformed page address answers a page, not raw JSON (en)', async ({ page }) => {
  const answer = await page.goto('/payment/%E0%A4%A');
  expect(answer!.status()).toBe(400);
  expect(answer!.headers()['content-type']).toContain('text/html');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('"message"');
});

test('a declined monthly donation keeps the donor and "monthly" for the next try (es)', async ({ page, request }) => {
  const charity = await createStaffWithCard(request, { public_name: 'Ķepu draugi', activity_type: 'DONATION' });
  await page.goto(`/es/payment/${charity.cardId}`);
  await page.getByRole('radio', { name: '10 €', exact: true }).check();
  await page.getByRole('radio', { name: 'Cada mes' }).check();
  await page.locator('input[name="donor_name"]').fill('Ana Kalniņa');
  await page.locator('input[name="email"]').fill('ana@example.es');
  await page.locator('input[name="donor_code"]').fill('B-12345678');
  await page.locator('input[name="terms"]').check();
  await page.getByRole('button', { name: 'Pagar 10,00 €' }).click();
  await expect(page).toHaveURL(/\/api\/sandbox\/checkout/);
  await page.getByLabel('Número de tarjeta').fill('4000 0000 0000 0002');
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.getByRole('button', { name: 'Pagar 10,00 €' }).click();
  await expect(page).toHaveURL(new RegExp(`/es/payment/${charity.cardId}/failed`));
  await expect(page.getByTestId('form-notice')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Cada mes' })).toBeChecked();
  await expect(page.locator('input[name="donor_name"]')).toHaveValue('Ana Kalniņa');
  await expect(page.locator('input[name="email"]')).toHaveValue('ana@example.es');
  await expect(page.locator('input[name="donor_code"]')).toHaveValue('B-12345678');
  await expect(page.getByRole('button', { name: 'Pagar 10,00 €' })).toBeVisible();
});

test('the donation page offers the wallets and speaks of donations, not tips (en)', async ({ page, request }) => {
  const charity = await createStaffWithCard(request, { public_name: 'Ķepu draugi', activity_type: 'DONATION' });
  await page.goto(`/payment/${charity.cardId}`);
  await expect(page.getByRole('button', { name: 'Pay with Google Pay' })).toBeVisible();
  await expect(page.locator('main')).not.toContainText(/\btip\b/i);
  // The footer names the service for both kinds of page.
  await expect(page.locator('footer')).toContainText('cashless tips and donations');
});

test('the legal pages name the operator they point to (en)', async ({ page }) => {
  await page.goto('/#/terms');
  await expect(page.getByText('shown under “Operator” on this page')).toBeVisible();
  const operator = page.getByTestId('operator-details');
  await expect(operator.getByRole('heading', { name: 'Operator' })).toBeVisible();
  await expect(operator).toContainText('Tipcard Test SIA');
  await expect(operator).toContainText('40203000001');
});
