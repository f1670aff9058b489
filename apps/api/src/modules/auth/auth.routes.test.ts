import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uniquePhone, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MINUTE = 60_000;
/** Each test gets its own client IP, so per-IP limits of one test never reach another. */
let ipCounter = 0;
const newIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

function post(url: string, payload: unknown, remoteAddress = newIp()) {
  return t.call({ method: 'POST', url, payload: payload as object, remoteAddress });
}
const register = (username: string, ip?: string) =>
  post('/api/register', { username, age_confirmed: true, terms_accepted: true }, ip);
const outboxFor = async (phone: string) =>
  (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(phone)}` })).body.data as { body: string }[];

function expectError(response: { status: number; body: any }, status: number, message: string) {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({
    message: expect.any(String),
    code: expect.any(String),
    validation_errors: expect.any(Object),
  });
  expect(response.body.errors[0]).toBe(message);
}

/** Moves past the 60-second resend wait. */
const afterResendWait = () => t.clock.advance(MINUTE + 1_000);

describe('sign-up', () => {
  it('registers, verifies with the texted code and gives a user with one private client', async () => {
    const user = await signUp(t);
    expect(user.jwt).toMatch(/^ey/);
    const me = await t.call({ method: 'GET', url: '/api/me', token: user.jwt });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      phone: user.phone,
      clients: [{ type: 'private' }],
      verification_required: false,
      referral_available: false,
    });
  });

  it('stores the phone in E.164 whatever the spacing', async () => {
    // A phone of this run (a fixed one could be another test's uniquePhone), typed with spaces.
    const phone = uniquePhone();
    const registered = await register(`${phone.slice(0, 4)} ${phone.slice(4, 8)} ${phone.slice(8)}`);
    expect(registered.status).toBe(200);
    expect((await outboxFor(phone)).length).toBe(1);
  });

  it('answers not_blank for a missing or blank phone, and sends nothing', async () => {
    for (const payload of [
      { age_confirmed: true, terms_accepted: true },
      { username: '   ', age_confirmed: true, terms_accepted: true },
    ]) {
      const response = await post('/api/register', payload);
      expectError(response, 422, 'This value should not be blank.');
      expect(response.body.validation_errors.username).toEqual(['This value should not be blank.']);
    }
  });

  it('refuses numbers that are not valid phones of a served country', async () => {
    for (const username of ['12345', 'not a phone', '+12025550123', '+7 912 345 67 89']) {
      const response = await register(username);
      expect(response.body.validation_errors.username).toEqual(['This field should be valid phone number']);
      expectError(response, 422, 'This field should be valid phone number');
    }
  });

  it('needs the age confirmation and the terms agreement', async () => {
    const phone = uniquePhone();
    const response = await post('/api/register', { username: phone, age_confirmed: false });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.validation_errors).sort()).toEqual(['age_confirmed', 'terms_accepted']);
    expect(await outboxFor(phone)).toEqual([]);
  });

  it('answers "This phone is already taken" for a phone with an account', async () => {
    const user = await signUp(t);
    const response = await register(user.phone);
    expectError(response, 422, 'This phone is already taken');
    expect(response.body.validation_errors).toEqual({ username: ['This phone is already taken'] });
  });

  it('answers "Wrong confirmation code" for a wrong or expired code', async () => {
    const phone = uniquePhone();
    const { body } = await register(phone);
    expectError(
      await post(`/api/register/${body.data.uuid}/verify`, {
        code: '000000' === (await t.lastCode(phone)) ? '111111' : '000000',
      }),
      403,
      'Wrong confirmation code',
    );
    const code = await t.lastCode(phone);
    t.clock.advance(5 * MINUTE + 1_000);
    expectError(await post(`/api/register/${body.data.uuid}/verify`, { code }), 403, 'Wrong confirmation code');
  });

  it('resends only after 60 seconds, and the new code replaces the old one', async () => {
    const phone = uniquePhone();
    const { body } = await register(phone);
    const first = await t.lastCode(phone);
    t.clock.advance(20_000);
    const early = await post(`/api/register/${body.data.uuid}/resend`, {});
    expectError(early, 429, 'Wait 40 seconds');
    expect(early.headers['retry-after']).toBe('40');
    t.clock.advance(41_000);
    const resent = await post(`/api/register/${body.data.uuid}/resend`, {});
    expect(resent.status).toBe(200);
    expect(resent.body.data).toEqual({ resend_after_seconds: 60 });
    expect((await outboxFor(phone)).length).toBe(2);
    const second = await t.lastCode(phone);
    if (first !== second) {
      expectError(await post(`/api/register/${body.data.uuid}/verify`, { code: first }), 403, 'Wrong confirmation code');
    }
    expect((await post(`/api/register/${body.data.uuid}/verify`, { code: second })).status).toBe(200);
  });

  it('stops sending after 5 codes a day for one phone', async () => {
    const phone = uniquePhone();
    const { body } = await register(phone);
    for (let sent = 2; sent <= 5; sent += 1) {
      afterResendWait();
      expect((await post(`/api/register/${body.data.uuid}/resend`, {})).status).toBe(200);
    }
    afterResendWait();
    expectError(await post(`/api/register/${body.data.uuid}/resend`, {}), 403, 'Confirmation limit');
    expect((await outboxFor(phone)).length).toBe(5);
    t.clock.advance(24 * 60 * MINUTE);
    expect((await post(`/api/register/${body.data.uuid}/resend`, {})).status).toBe(200);
  });

  it('kills the code after 5 wrong tries: the right code no longer works', async () => {
    const phone = uniquePhone();
    const { body } = await register(phone);
    const code = await t.lastCode(phone);
    const wrong = code === '999999' ? '888888' : '999999';
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expectError(await post(`/api/register/${body.data.uuid}/verify`, { code: wrong }), 403, 'Wrong confirmation code');
    }
    expectError(
      await post(`/api/register/${body.data.uuid}/verify`, { code: wrong }),
      429,
      'Too many attempts to enter, try later',
    );
    expectError(await post(`/api/register/${body.data.uuid}/verify`, { code }), 429, 'Too many attempts to enter, try later');
  });

  it('answers 404 for an unknown or malformed registration id', async () => {
    expect((await post('/api/register/5f0c6f8e-0000-4000-8000-000000000000/verify', { code: '123456' })).status).toBe(404);
    expect((await post('/api/register/not-a-uuid/verify', { code: '123456' })).status).toBe(404);
    expect((await post('/api/register/5f0c6f8e-0000-4000-8000-000000000000/resend', {})).status).toBe(404);
  });

  it('makes one user when the same phone is verified twice at once', async () => {
    const phone = uniquePhone();
    const first = await register(phone);
    const firstCode = await t.lastCode(phone);
    afterResendWait();
    const second = await register(phone);
    const secondCode = await t.lastCode(phone);
    const results = await Promise.all([
      post(`/api/register/${first.body.data.uuid}/verify`, { code: firstCode }),
      post(`/api/register/${second.body.data.uuid}/verify`, { code: secondCode }),
    ]);
    // The second registration's code retired the first one (one live code per phone and purpose).
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(await register(phone).then((r) => r.body.validation_errors.username)).toEqual(['This phone is already taken']);
  });
});

describe('sign-in', () => {
  it.runIf(process.env.DATABASE_URL)(
    "never deadlocks with the erasure of the same account: the user's row is taken first, as the erasure takes it (PostgreSQL)",
    async () => {
      const user = await signUp(t);
      afterResendWait();
      await post('/api/request-otp', { username: user.phone });
      const code = await t.lastCode(user.phone);
      // The erasure's order: the user's row (claimDueErasure, FOR UPDATE), then the codes of its phone.
      let erased!: () => void;
      const erasing = new Promise<void>((resolve) => (erased = resolve));
      const erasure = t.app.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT id FROM users WHERE id = ${user.userId} FOR UPDATE`);
        await erasing;
        await tx.execute(sql`SET LOCAL lock_timeout = '5s'`);
        await tx.execute(sql`DELETE FROM otp_codes WHERE phone = ${user.phone}`);
      });
      const signingIn = post('/api/login_check', { username: user.phone, password: code });
      // Long enough for the sign-in to reach whatever it waits on behind the erasure.
      await new Promise((resolve) => setTimeout(resolve, 500));
      erased();
      await erasure;
      // Its code went with the erasure: refused, never a 500.
      expectError(await signingIn, 403, 'Wrong confirmation code');
    },
  );

  it('texts the sign-in code in the language the browser asks for', async () => {
    const user = await signUp(t);
    const openings = { lv: 'Jūsu Tipcard kods ir ', fr: 'Votre code Tipcard est ', es: 'Tu código de Tipcard es ' };
    for (const [language, opening] of Object.entries(openings)) {
      afterResendWait();
      const requested = await t.call({
        method: 'POST',
        url: '/api/request-otp',
        payload: { username: user.phone },
        headers: { 'accept-language': `${language};q=0.9, en;q=0.5` },
        remoteAddress: newIp(),
      });
      expect(requested.status).toBe(200);
      const [latest] = await outboxFor(user.phone);
      expect(latest!.body.startsWith(opening)).toBe(true);
      expect(latest!.body).toContain(await t.lastCode(user.phone));
    }
  });

  it('texts a code and signs in with it once', async () => {
    const user = await signUp(t);
    afterResendWait();
    const requested = await post('/api/request-otp', { username: user.phone });
    expect(requested.status).toBe(200);
    const code = await t.lastCode(user.phone);
    const signedIn = await post('/api/login_check', { username: user.phone, password: code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toEqual({ jwt: expect.any(String), refresh_token: expect.any(String) });
    expect(String(signedIn.headers['set-cookie'])).toMatch(/refresh__key=.*HttpOnly.*SameSite=Strict/i);
    expect((await t.call({ method: 'GET', url: '/api/me', token: signedIn.body.data.jwt })).body.data.id).toBe(user.userId);
    expectError(await post('/api/login_check', { username: user.phone, password: code }), 403, 'Wrong confirmation code');
  });

  it('answers "User not found" and "Username could not be found" for a phone with no account', async () => {
    const phone = uniquePhone();
    expectError(await post('/api/request-otp', { username: phone }), 403, 'User not found');
    expectError(await post('/api/login_check', { username: phone, password: '123456' }), 403, 'Username could not be found');
    expect(await outboxFor(phone)).toEqual([]);
  });

  it('answers not_blank for a blank code', async () => {
    const user = await signUp(t);
    const response = await post('/api/login_check', { username: user.phone, password: '' });
    expect(response.body.validation_errors).toEqual({ password: ['This value should not be blank.'] });
  });

  it('lets only one of two concurrent sign-ins with the same code through', async () => {
    const user = await signUp(t);
    afterResendWait();
    await post('/api/request-otp', { username: user.phone });
    const code = await t.lastCode(user.phone);
    const results = await Promise.all([1, 2, 3].map(() => post('/api/login_check', { username: user.phone, password: code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403]);
  });

  it('sends one code when two requests race', async () => {
    const user = await signUp(t);
    afterResendWait();
    const results = await Promise.all([1, 2].map(() => post('/api/request-otp', { username: user.phone })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 429]);
    expect((await outboxFor(user.phone)).length).toBe(2);
  });

  it('limits requests per phone and per IP with 429 and Retry-After', async () => {
    const user = await signUp(t);
    afterResendWait();
    const perPhone = [];
    for (let i = 0; i < 6; i += 1) perPhone.push(await post('/api/request-otp', { username: user.phone }));
    expect(perPhone.map((r) => r.status)).toEqual([200, 429, 429, 429, 429, 429]);
    expectError(perPhone[5]!, 429, 'Too many requests');
    expect(Number(perPhone[5]!.headers['retry-after'])).toBeGreaterThan(0);

    const ip = newIp();
    const perIp = [];
    for (let i = 0; i < 21; i += 1) perIp.push(await post('/api/request-otp', { username: uniquePhone() }, ip));
    expect(perIp.slice(0, 20).every((r) => r.status === 403)).toBe(true);
    expectError(perIp[20]!, 429, 'Too many requests');
  });
});

describe('tokens', () => {
  it('refuses a missing, forged or expired access token with 401', async () => {
    const user = await signUp(t);
    expect((await t.call({ method: 'GET', url: '/api/me' })).status).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/me', token: `${user.jwt}x` })).status).toBe(401);
    t.clock.advance(15 * MINUTE + 1_000);
    const expired = await t.call({ method: 'GET', url: '/api/me', token: user.jwt });
    expectError(expired, 401, 'Authorization Error!');
  });

  it('rotates the refresh token on every use', async () => {
    const user = await signUp(t);
    const rotated = await post('/api/refresh-token', { refreshToken: user.refreshToken });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.refresh_token).not.toBe(user.refreshToken);
    const again = await post('/api/refresh-token', { refreshToken: rotated.body.data.refresh_token });
    expect(again.status).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/me', token: again.body.data.jwt })).status).toBe(200);
  });

  it('takes the refresh token from the HttpOnly cookie too', async () => {
    const user = await signUp(t);
    const response = await t.call({ method: 'POST', url: '/api/refresh-token', cookies: { refresh__key: user.refreshToken } });
    expect(response.status).toBe(200);
  });

  it('revokes the whole family when a rotated token is used again', async () => {
    const user = await signUp(t);
    const rotated = await post('/api/refresh-token', { refreshToken: user.refreshToken });
    const reuse = await post('/api/refresh-token', { refreshToken: user.refreshToken });
    expect(reuse.status).toBe(403);
    expect(reuse.status).not.toBe(401);
    expect((await post('/api/refresh-token', { refreshToken: rotated.body.data.refresh_token })).status).toBe(403);
  });

  it('ends the family 30 days after sign-in, however often it rotated', async () => {
    const user = await signUp(t);
    let token = user.refreshToken;
    for (let day = 0; day < 3; day += 1) {
      t.clock.advance(10 * 24 * 60 * MINUTE - MINUTE);
      const rotated = await post('/api/refresh-token', { refreshToken: token });
      expect(rotated.status).toBe(200);
      token = rotated.body.data.refresh_token;
    }
    t.clock.advance(10 * MINUTE);
    expect((await post('/api/refresh-token', { refreshToken: token })).status).toBe(403);
  });

  it('logout revokes the refresh token and clears its cookie', async () => {
    const user = await signUp(t);
    const out = await post('/api/logout', { refreshToken: user.refreshToken });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/refresh__key=;/);
    expect((await post('/api/refresh-token', { refreshToken: user.refreshToken })).status).toBe(403);
  });

  it('answers 403, never 401, for a missing or unknown refresh token', async () => {
    expect((await post('/api/refresh-token', {})).status).toBe(403);
    expect((await post('/api/refresh-token', { refreshToken: 'nope' })).status).toBe(403);
  });
});
