import { expect, type APIRequestContext } from '@playwright/test';

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
  const registered = await request.post('/api/register', { data: { username: phone, age_confirmed: true, terms_accepted: true } });
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

/** A guest's tip paid on the sandbox's hosted checkout with its Apple Pay button (the form the page posts). */
export async function payTipWithApplePay(request: APIRequestContext, cardId: string, tip: { amount_cents: number; cover_fee?: boolean }) {
  const created = await request.post(`/api/public/cards/${cardId}/payments`, {
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    data: { cover_fee: false, ...tip, terms_accepted: true },
  });
  expect(created.status()).toBe(201);
  const checkout = new URL(((await created.json()) as { data: { checkout_url: string } }).data.checkout_url);
  const paid = await request.post(`${checkout.pathname}${checkout.search}`, { form: { method: 'apple_pay' }, maxRedirects: 0 });
  expect(paid.status()).toBe(303);
}
