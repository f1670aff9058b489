import { expect, test } from '@playwright/test';
import { createStaffWithCard } from './helpers.ts';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: Number(process.env.SHOT_WIDTH ?? 360), height: 800 } });

test('screenshots of the actions page', async ({ page, request, baseURL }) => {
  const charity = await createStaffWithCard(request, { public_name: 'Ķepu draugi', activity_type: 'DONATION' });
  const width = page.viewportSize()!.width;
  for (const locale of width > 400 ? ['en'] : ['fr', 'es']) {
    const email = `shots-${locale}-${Date.now()}@example.com`;
    const started = await request.post(`/api/public/cards/${charity.cardId}/donations`, {
      headers: { 'idempotency-key': crypto.randomUUID() },
      data: { donor_name: 'Anna Kalniņa', email, donor_code: '010190-12345', amount_cents: 1_500, cover_fee: true, monthly: true, locale, terms_accepted: true },
    });
    const payment = (await started.json()).data;
    const url = new URL(payment.checkout_url);
    await request.post(`${url.pathname}${url.search}`, { form: { method: 'card', card_number: '4242424242424242' }, maxRedirects: 0 });
    let body = '';
    await expect.poll(async () => {
      const answer = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
      body = ((await answer.json()).data[0]?.body as string | undefined) ?? '';
      return body;
    }).not.toBe('');
    const [receipt, statement, cancel] = [...body.matchAll(/\/actions\/([0-9a-f]{64})/g)].map((m) => m[1]);
    const { hostname } = new URL(baseURL!);
    await page.context().addCookies([{ name: 'locale', value: locale, domain: hostname, path: '/' }]);
    for (const [name, token] of [['cancel', cancel], ['statement', statement], ['receipt', receipt]] as const) {
      await page.goto(`/actions/${token}`);
      await page.waitForSelector('form');
      await page.screenshot({ path: `/tmp/shots-h14/actions-${name}-${locale}-${width}.png`, fullPage: true });
    }
    await page.goto(`/actions/${cancel}`);
    await page.locator('form button[type="submit"]').click();
    await page.getByTestId('action-done').waitFor();
    await page.screenshot({ path: `/tmp/shots-h14/actions-done-${locale}-${width}.png`, fullPage: true });
    await page.reload();
    await page.getByTestId('action-used').waitFor();
    await page.screenshot({ path: `/tmp/shots-h14/actions-used-${locale}-${width}.png`, fullPage: true });
    await page.goto(`/payment/${charity.cardId}`);
    await page.getByRole('radio', { name: '€ 10', exact: true }).check();
    await page.locator('input[name="frequency"][value="monthly"]').check();
    await page.screenshot({ path: `/tmp/shots-h14/donation-form-${locale}-${width}.png`, fullPage: true });
  }
});
