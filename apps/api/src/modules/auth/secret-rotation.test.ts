import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { codeNow, nextStep, OPERATOR_PASSWORD, signInOperator } from '../ops/ops.test-support.ts';

const OLD = 'the-old-jwt-secret-that-is-long-enough-for-hs256';
const NEW = 'the-new-jwt-secret-that-is-long-enough-for-hs256';

/**
 * Rotating JWT_SECRET (docs/operations.md): instances on the new secret with JWT_SECRET_PREVIOUS set accept what the
 * old secret signed and sealed, so nobody is signed out; the `ops.reseal` job moves the operators' TOTP secrets to the
 * new key, after which an instance without the previous secret still signs them in. Three apps on one database stand
 * for the deployment before, during and after the rotation.
 */
describe('JWT secret rotation', () => {
  let database: DatabaseHandle;
  let before: TestApp;
  let during: TestApp;
  let after: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    before = await createTestApp({ config: { jwtSecret: OLD }, overrides: { database } });
    during = await createTestApp({ config: { jwtSecret: NEW, jwtSecretPrevious: OLD }, overrides: { database } });
    after = await createTestApp({ config: { jwtSecret: NEW }, overrides: { database } });
  });
  afterAll(async () => {
    await Promise.all([before.close(), during.close(), after.close()]);
    await database.close();
  });

  it("keeps users' and operators' sessions and operators' authenticators across the rotation", async () => {
    const user = await signUp(before);
    const operator = await signInOperator(before, 'admin');
    const opsMe = (t: TestApp, token: string) => t.call({ method: 'GET', url: '/api/ops/me', token });

    // During: the old secret's tokens are still good; new ones are signed with the new secret.
    expect((await during.call({ method: 'GET', url: '/api/me', token: user.jwt })).status).toBe(200);
    expect((await opsMe(during, operator.opsToken)).status).toBe(200);
    const refreshed = await during.call({
      method: 'POST',
      url: '/api/refresh-token',
      payload: { refreshToken: user.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    const newToken = refreshed.body.data.jwt as string;
    expect((await after.call({ method: 'GET', url: '/api/me', token: newToken })).status).toBe(200);

    // The operator's TOTP secret, sealed under the old secret, is re-sealed once under the new one.
    expect(await during.runJob('ops.reseal')).toBeGreaterThanOrEqual(1);
    expect(await during.runJob('ops.reseal')).toBe(0);
    // Past the step the operator signed in with on `before` (one step after enrolling), so the code is not a replay.
    nextStep(after);
    nextStep(after);
    const signedIn = await after.call({
      method: 'POST',
      url: '/api/ops/sign-in',
      payload: { email: operator.email, password: OPERATOR_PASSWORD, code: codeNow(after, operator.secret) },
    });
    expect(signedIn.body).toMatchObject({ data: { token: expect.any(String) } });

    // After: the previous secret is gone, and so is what it alone signed.
    expect((await after.call({ method: 'GET', url: '/api/me', token: user.jwt })).status).toBe(401);
    expect((await opsMe(after, operator.opsToken)).status).toBe(401);
  });

  it('accepts the previous secret only for what it signed: a forged token is refused by every instance', async () => {
    const user = await signUp(during);
    const [header, payload] = user.jwt.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not-a-signature').toString('base64url')}`;
    expect((await during.call({ method: 'GET', url: '/api/me', token: user.jwt })).status).toBe(200);
    expect((await during.call({ method: 'GET', url: '/api/me', token: forged })).status).toBe(401);
  });
});
