import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uniquePhone, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signUp>>;

const languageOf = async (user: User) =>
  (await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/language`, token: user.jwt })).body.data.language;

const choose = (user: User, language: unknown, clientId = user.clientId) =>
  t.call({ method: 'PATCH', url: `/api/clients/${clientId}/language`, token: user.jwt, payload: { language } });

/** Every text sent to the phone, newest first. */
async function texts(phone: string): Promise<string[]> {
  const outbox = await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(phone)}` });
  return (outbox.body.data as { body: string }[]).map((message) => message.body);
}

describe("the user's language (docs/decisions/0032)", () => {
  it('is the language the app was in at sign-up, and the sign-up code is texted in it', async () => {
    const phone = uniquePhone();
    const headers = { 'accept-language': 'fr' };
    const registered = await t.call({
      method: 'POST',
      url: '/api/register',
      headers,
      payload: { username: phone, age_confirmed: true, terms_accepted: true },
    });
    const [codeText] = await texts(phone);
    expect(codeText).toMatch(/^Votre code Tipcard est \d{6}\./);
    const code = /\d{6}/.exec(codeText!)![0];
    const verified = await t.call({
      method: 'POST',
      url: `/api/register/${registered.body.data.uuid}/verify`,
      headers,
      payload: { code },
    });
    const me = await t.call({ method: 'GET', url: '/api/me', token: verified.body.data.jwt });
    const user = { phone, jwt: verified.body.data.jwt, clientId: me.body.data.clients[0].id } as User;
    expect(await languageOf(user)).toBe('fr');
  });

  it("follows the app's language at each sign-in and refresh; a call naming none of ours leaves it as it was", async () => {
    const user = await signUp(t);
    expect(await languageOf(user)).toBe('en');

    // The sign-up code was texted a moment ago: a new one waits a minute.
    t.clock.advance(61_000);
    await t.call({
      method: 'POST',
      url: '/api/request-otp',
      headers: { 'accept-language': 'es' },
      payload: { username: user.phone },
    });
    expect((await texts(user.phone))[0]).toMatch(/^Tu código de Tipcard es \d{6}/);
    const code = /\d{6}/.exec((await texts(user.phone))[0]!)![0];
    const signedIn = await t.call({
      method: 'POST',
      url: '/api/login_check',
      headers: { 'accept-language': 'es-ES,es;q=0.9' },
      payload: { username: user.phone, password: code },
    });
    expect(signedIn.status).toBe(200);
    expect(await languageOf(user)).toBe('es');

    const refresh = (refreshToken: string, headers: Record<string, string>) =>
      t.call({ method: 'POST', url: '/api/refresh-token', headers, payload: { refreshToken } });
    const toLatvian = await refresh(signedIn.body.data.refresh_token, { 'accept-language': 'lv' });
    expect(toLatvian.status).toBe(200);
    expect(await languageOf(user)).toBe('lv');
    const unnamed = await refresh(toLatvian.body.data.refresh_token, { 'accept-language': 'de-DE,de;q=0.9' });
    expect(unnamed.status).toBe(200);
    expect(await languageOf(user)).toBe('lv');
  });

  it('is chosen in Settings: one of the four, refused otherwise, and only on the own client', async () => {
    const user = await signUp(t);
    const chosen = await choose(user, 'lv');
    expect(chosen.status).toBe(200);
    expect(chosen.body.data).toEqual({ language: 'lv' });
    expect(await languageOf(user)).toBe('lv');

    for (const language of ['de', '', null, 'LV']) {
      const refused = await choose(user, language);
      expect(refused.status, String(language)).toBe(422);
      expect(refused.body.code).toBe('validation_failed');
      expect(refused.body.validation_errors.language).toHaveLength(1);
    }
    const other = await signUp(t);
    expect((await choose(user, 'fr', other.clientId)).status).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/clients/${other.clientId}/language`, token: user.jwt })).status).toBe(404);
    expect(await languageOf(user)).toBe('lv');
    expect(await languageOf(other)).toBe('en');
  });
});
