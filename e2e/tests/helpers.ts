import pg from 'pg';
import { createHmac } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from './fixtures.ts';

/** A Latvian mobile number no other test uses. */
export function newPhone(): string {
  return `+3712${String(Date.now()).slice(-3)}${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
}

/** The newest code texted to `phone` once more than `after` texts were sent, read from the dev outbox. */
export async function readCode(request: APIRequestContext, phone: string, after = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(phone)}`);
      const messages = ((await response.json()) as { data: { body: string }[] }).data;
      code = messages.length > after ? /\b(\d{6})\b/.exec(messages[0]!.body)?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  return code!;
}

export interface Staff {
  phone: string;
  clientId: string;
  cardId: string;
  jwt: string;
  refreshToken: string;
}

/** A staff member signed up through the API (code from the dev outbox) with a private card. */
export async function createStaffWithCard(request: APIRequestContext, card: Record<string, string> = {}): Promise<Staff> {
  const phone = newPhone();
  const registered = await request.post('/api/register', {
    data: { username: phone, age_confirmed: true, terms_accepted: true },
  });
  expect(registered.ok()).toBeTruthy();
  const { uuid } = ((await registered.json()) as { data: { uuid: string } }).data;
  const verified = await request.post(`/api/register/${uuid}/verify`, { data: { code: await readCode(request, phone) } });
  expect(verified.ok()).toBeTruthy();
  const tokens = ((await verified.json()) as { data: { jwt: string; refresh_token: string } }).data;
  const headers = { Authorization: `Bearer ${tokens.jwt}` };
  const me = ((await (await request.get('/api/me', { headers })).json()) as { data: { clients: { id: string }[] } }).data;
  const clientId = me.clients[0]!.id;
  const created = await request.post(`/api/clients/${clientId}/cards`, {
    headers,
    data: { public_name: 'Anna', title: 'Café Riga', activity_type: 'WAITER', country: 'LV', ...card },
  });
  expect(created.ok()).toBeTruthy();
  const { id: cardId } = ((await created.json()) as { data: { id: string } }).data;
  return { phone, clientId, cardId, jwt: tokens.jwt, refreshToken: tokens.refresh_token };
}

/** The bearer header of a staff member's API calls. */
export const auth = (staff: Staff) => ({ Authorization: `Bearer ${staff.jwt}` });

/** The admin's workplace and a colleague who joined it, through the API (the join journey is teams.spec.ts's). */
export async function teamOfTwo(request: APIRequestContext) {
  const admin = await createStaffWithCard(request, { public_name: 'Anna' });
  const colleague = await createStaffWithCard(request, { public_name: 'Bob' });
  const made = await request.post(`/api/clients/${admin.clientId}/workplace`, {
    headers: auth(admin),
    data: { name: 'Bar Riga', country: 'LV' },
  });
  expect(made.status()).toBe(201);
  const team = ((await made.json()) as { data: { team: { id: string; card_id: string } } }).data.team;
  const asked = await request.post(`/api/teams/${team.id}/requests`, { headers: auth(colleague) });
  const requestId = ((await asked.json()) as { data: { id: string } }).data.id;
  expect((await request.post(`/api/teams/${team.id}/requests/${requestId}/approve`, { headers: auth(admin) })).ok()).toBeTruthy();
  return { admin, colleague, team };
}

/** Waits until the colleague's share of `count` team tips is recorded (the sandbox's event comes on its own). */
export async function untilShares(request: APIRequestContext, teamId: string, staff: Staff, count: number) {
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/teams/${teamId}/tip-shares`, { headers: auth(staff) })).json()) as { data: unknown[] })
          .data.length,
      {
        timeout: 30_000,
      },
    )
    .toBe(count);
}

/** Signs the staff member in to the user app in this browser context, as the app's own cookies after a sign-in would. */
export async function signInUserApp(context: BrowserContext, baseURL: string, staff: Staff) {
  const { hostname } = new URL(baseURL);
  await context.addCookies([
    { name: 'qtfo__token', value: staff.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: staff.refreshToken, domain: hostname, path: '/' },
  ]);
  await context.addInitScript(() => {
    localStorage.setItem('Functional:accepted', 'true');
    localStorage.setItem('GDPR:accepted', 'false');
  });
}

/** Pays on the sandbox's hosted checkout with a card: number, a future expiry and a CVC, as the page requires. */
export async function payByCardAtCheckout(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay €\d/ }).click();
}

/** A guest in a browser of their own pays a 5 EUR tip on the card's page through the sandbox's checkout. */
export async function guestTipsInBrowser(browser: Browser, baseURL: string, cardId: string) {
  const guest = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
  const page = await guest.newPage();
  await page.goto(`/payment/${cardId}`);
  await page.getByRole('radio', { name: '€5', exact: true }).check();
  await page.getByRole('checkbox', { name: /I accept the terms of use/ }).check();
  await page.getByRole('button', { name: 'Pay €5.00' }).click();
  await payByCardAtCheckout(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/success\?payment=/);
  await guest.close();
}

/** A guest's tip paid on the sandbox's hosted checkout with its Apple Pay button (the form the page posts). */
export async function payTipWithApplePay(
  request: APIRequestContext,
  cardId: string,
  tip: { amount_cents: number; cover_fee?: boolean },
) {
  const created = await request.post(`/api/public/cards/${cardId}/payments`, {
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    data: { cover_fee: false, ...tip, terms_accepted: true },
  });
  expect(created.status()).toBe(201);
  const payment = ((await created.json()) as { data: { id: string; checkout_url: string } }).data;
  const checkout = new URL(payment.checkout_url);
  const paid = await request.post(`${checkout.pathname}${checkout.search}`, { form: { method: 'apple_pay' }, maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  return payment.id;
}

/** A real PNG of one blue colour, made here: the server decides a document's type by its bytes. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [30, 58, 138]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A minimal one-page PDF: the server opens uploaded PDFs with a parser and refuses one without a page. */
export const ONE_PAGE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/**
 * Axe's findings on the page (or on the part `scope` selects), measured once every finite animation has ended:
 * mid-fade a page or a snackbar is half transparent and axe would measure its contrast wrong.
 * Serious and critical findings only, unless `every` asks for the minor and moderate ones too.
 */
export async function a11yProblems(page: Page, options: { scope?: string; every?: boolean } = {}): Promise<string[]> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  // A control enabled while axe reads the page would be judged on a colour half-way through its transition.
  const noTransitions = await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
  const builder = new AxeBuilder({ page });
  if (options.scope) builder.include(options.scope);
  const { violations } = await builder.analyze();
  await noTransitions.evaluate((style) => (style as HTMLStyleElement).remove());
  return violations
    .filter((violation) => options.every || violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

function base32(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    value = ((value << 5) | alphabet.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The code an authenticator app shows for an operator's secret (RFC 6238, SHA-1, 30 s, 6 digits), `offsetSteps` steps from now. */
export function totp(secret: string, offsetSteps = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offsetSteps));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * Moves the team, its memberships and its tips back so the tips fall in last month (UTC), which has ended: the
 * server's clock cannot move, so period journeys move the team in the server's database, as the simulator's time jump
 * does.
 */
export async function moveTeamBack(databaseUrl: string, teamId: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`update teams set created_at = created_at - interval '62 days' where id = $1`, [teamId]);
    await client.query(`update team_memberships set joined_at = joined_at - interval '62 days' where team_id = $1`, [teamId]);
    await client.query(
      `update team_tip_splits set at = date_trunc('month', now(), 'UTC') - interval '3 days' where team_id = $1`,
      [teamId],
    );
  } finally {
    await client.end();
  }
}
