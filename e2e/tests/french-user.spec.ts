import { expect, test, type Page } from './fixtures.ts';
import { createStaffWithCard, payTipWithApplePay } from './helpers.ts';

/**
 * A French reader of the app (issue 16): every page with money or history shows French text ("Pourboire via …",
 * "Retrait vers …") and French amounts ("9,50 €"), never the English line or "€9.50"; the CSV follows the language too.
 */

const ENGLISH_MONEY = /€\s?\d/;
const FRENCH_MONEY = /\d,\d{2}\s€/;

async function expectFrench(page: Page, path: string, expected: (string | RegExp)[]) {
  await page.goto(`/#/fr/${path}`);
  const main = page.locator('main');
  await expect(main).toBeVisible();
  await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0);
  for (const text of expected) await expect(main).toContainText(text);
  const shown = await main.innerText();
  expect(shown, path).not.toMatch(ENGLISH_MONEY);
  expect(shown, path).not.toMatch(/Tip via|Payout to|Referral reward/);
}

test('a French user sees French transaction text and French money on every page', async ({ page, request, baseURL }) => {
  const staff = await createStaffWithCard(request, { title: 'Café Riga' });
  await payTipWithApplePay(request, staff.cardId, { amount_cents: 1_000 });
  const headers = { Authorization: `Bearer ${staff.jwt}` };
  const method = await request.post(`/api/clients/${staff.clientId}/payout-methods`, {
    headers,
    data: {
      kind: 'sepa',
      iban: 'LV80BANK0000435195001',
      bic: 'HABALV22',
      holder_last_name: 'Bērziņa',
      address: 'Brīvības iela 1, Rīga',
    },
  });
  expect(method.status()).toBe(201);
  const invoice = await request.post(`/api/clients/${staff.clientId}/invoices`, {
    headers,
    data: { description: 'Séance photo', amount_cents: 123_450 },
  });
  expect(invoice.status()).toBe(201);

  const { hostname } = new URL(baseURL!);
  await page.context().addCookies([
    { name: 'qtfo__token', value: staff.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: staff.refreshToken, domain: hostname, path: '/' },
  ]);
  await page.addInitScript(() => {
    localStorage.setItem('Functional:accepted', 'true');
    localStorage.setItem('GDPR:accepted', 'false');
  });

  // The tip is credited by the sandbox's webhook a moment after the payment.
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/clients/${staff.clientId}/transactions`, { headers })).json()).data.items.length,
    )
    .toBe(1);

  await expectFrench(page, 'overview', ['Pourboire via Café Riga', '+9,50 €', FRENCH_MONEY]);
  await expectFrench(page, 'transactions', ['Pourboire via Café Riga', '+9,50 €', 'Frais 0,50 €']);
  // A line opens with all of it, in French, and nothing in it is wider than the 360 px phone.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole('button', { name: /^Détails : Pourboire via Café Riga/ }).click();
  const details = page.getByRole('dialog', { name: 'Détails de l’opération' });
  await expect(details.getByTestId('transaction-details')).toContainText('Vous recevez+9,50 €');
  await expect(details.getByTestId('transaction-details')).toContainText('Frais de service0,50 €');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await details.getByRole('button', { name: 'Fermer' }).click();
  await expect(details).toBeHidden();
  await expectFrench(page, 'payouts', [FRENCH_MONEY]);
  await expectFrench(page, 'invoices', ['Séance photo', '1 234,50 €']);
  // A user with no order yet sees the free first order, not a price: the page's own heading proves it was rendered.
  await expectFrench(page, 'card-orders', ['Boutique de cartes', 'Votre première commande est gratuite']);
  await expectFrench(page, 'referrals', ['10,00 €']);
  // The terms and the FAQ quote the configured verification limit and hold period, in French.
  await expectFrench(page, 'terms', ['1 000,00 €']);
  await page.goto('/#/fr/faq');
  await page.getByRole('button', { name: 'Quand puis-je retirer un pourboire ?' }).click();
  await expect(page.locator('main')).toContainText(/en attente 0,01 heure/);

  const csv = await request.get(`/api/clients/${staff.clientId}/transactions.csv`, {
    headers: { ...headers, 'Accept-Language': 'fr' },
  });
  expect(await csv.text()).toContain(',Pourboire via Café Riga,');
});
