import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uniquePhone, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const register = (username: string) =>
  t.call({ method: 'POST', url: '/api/register', payload: { username, age_confirmed: true, terms_accepted: true } });

describe('sign-up', () => {
  it('registers, verifies with the texted code and answers tokens', async () => {
    const user = await signUp(t);
    expect(user.jwt).toMatch(/^ey/);
    const me = await t.call({ method: 'GET', url: '/api/me', token: user.jwt });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ phone: user.phone, clients: [{ type: 'private' }], verification_required: false, referral_available: false });
  });
});
