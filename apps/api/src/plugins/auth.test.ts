import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every operation of the OpenAPI document that needs the bearer token. */
function authenticatedOperations(): { method: string; path: string }[] {
  const document = t.app.swagger() as unknown as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => (operation.security ?? []).length > 0)
      .map(([method]) => ({ method: method.toUpperCase(), path })),
  );
}

describe('signed-in answers', () => {
  it('are never cacheable: every authenticated operation answers Cache-Control: no-store', async () => {
    const owner = await signUpWithCard(t);
    const operations = authenticatedOperations();
    expect(operations.length).toBeGreaterThan(10);
    for (const { method, path } of operations) {
      const url = path.replace('{clientId}', owner.clientId).replace('{cardId}', owner.cardId).replace(/\{[^}]+\}/g, randomUUID());
      const response = await t.call({ method: method as 'GET', url, token: owner.jwt, ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }) });
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
      expect(response.headers['cache-control'], `${method} ${path}`).toMatch(/\bno-store\b/);
    }
    const me = await t.call({ method: 'GET', url: '/api/me', token: owner.jwt });
    expect(me.status).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
  });
});

describe('access tokens', () => {
  const secret = () => new TextEncoder().encode(t.app.config.jwtSecret);
  const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
  /** A token signed with the server's own key, with the claims given (null leaves a claim out). */
  function token(claims: { sub?: string | null; exp?: number | null; iat?: number | null; iss?: string | null; aud?: string | null }) {
    const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' });
    const { sub, exp = nowSeconds() + 900, iat = nowSeconds(), iss = 'tipcard', aud = 'tipcard-api' } = claims;
    if (sub) jwt.setSubject(sub);
    if (exp !== null) jwt.setExpirationTime(exp);
    if (iat !== null) jwt.setIssuedAt(iat);
    if (iss) jwt.setIssuer(iss);
    if (aud) jwt.setAudience(aud);
    return jwt.sign(secret());
  }

  it('accepts only tokens with exp, iat, a UUID sub, our issuer and audience; anything else is a 401, never a 500', async () => {
    const owner = await signUpWithCard(t);
    const me = async (jwt: string) => (await t.call({ method: 'GET', url: '/api/me', token: jwt })).status;
    expect(await me(await token({ sub: owner.userId }))).toBe(200);
    for (const claims of [
      { sub: 'not-a-uuid' },
      { sub: "1' or '1'='1" },
      { sub: null },
      { sub: owner.userId, exp: null },
      { sub: owner.userId, iat: null },
      { sub: owner.userId, iat: nowSeconds() - 3600, exp: nowSeconds() + 3600 * 24 * 365 },
      { sub: owner.userId, iat: nowSeconds() + 3600 },
      { sub: owner.userId, iss: 'someone-else' },
      { sub: owner.userId, aud: null },
      { sub: owner.userId, exp: nowSeconds() - 1 },
    ]) {
      const response = await t.call({ method: 'GET', url: '/api/me', token: await token(claims) });
      expect(response.status, JSON.stringify(claims)).toBe(401);
      expect(response.body).toMatchObject({ code: 'unauthorized' });
    }
  });
});
