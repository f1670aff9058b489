import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/users.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Owner = Awaited<ReturnType<typeof signUpWithCard>>;

/** One operation called with the owner's token, their own ids in the path and any other id made up. */
const callAs = (owner: Owner, method: string, path: string) =>
  t.call({
    method: method as 'GET',
    url: path
      .replace('{clientId}', owner.clientId)
      .replace('{cardId}', owner.cardId)
      .replace(/\{[^}]+\}/g, randomUUID()),
    token: owner.jwt,
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
  });

/** Every operation of the OpenAPI document that needs the bearer token. */
function authenticatedOperations(): { method: string; path: string; stream: boolean }[] {
  const document = t.app.swagger() as unknown as {
    paths: Record<string, Record<string, { security?: unknown[]; tags?: string[] }>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => (operation.security ?? []).length > 0)
      // The live events' stream (tag `live`) stays open until the client leaves: inject() would wait for ever.
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, stream: (operation.tags ?? []).includes('live') })),
  );
}

describe('signed-in answers', () => {
  it('are never cacheable: every authenticated operation answers Cache-Control: no-store', async () => {
    const owner = await signUpWithCard(t);
    const me = await t.call({ method: 'GET', url: '/api/me', token: owner.jwt });
    expect(me.status).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    const operations = authenticatedOperations();
    expect(operations.length).toBeGreaterThan(10);
    // The walk reaches the deletion statement too (the account has nothing to keep it), so later answers are 401s.
    // The open stream's own headers are checked over a real socket in live.routes.test.ts.
    for (const { method, path } of operations.filter((operation) => !operation.stream)) {
      const response = await callAs(owner, method, path);
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
      expect(response.headers['cache-control'], `${method} ${path}`).toMatch(/\bno-store\b/);
    }
  });
});

describe('ended sessions', () => {
  const everyOperationRefuses = async (owner: Owner, jwt: string) => {
    const operations = authenticatedOperations();
    expect(operations.length).toBeGreaterThan(50);
    for (const { method, path } of operations) {
      const response = await callAs({ ...owner, jwt }, method, path);
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body, `${method} ${path}`).toMatchObject({ code: 'unauthorized' });
    }
  };

  it('after a deletion, the access token issued before it is refused by every authenticated operation', async () => {
    const owner = await signUpWithCard(t);
    const before = owner.jwt;
    // A second access token of the same user (a refresh): it ends too.
    const other = (await t.call({ method: 'POST', url: '/api/refresh-token', payload: { refreshToken: owner.refreshToken } }))
      .body.data.jwt as string;
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/cards`, token: other })).status).toBe(200);
    expect((await t.call({ method: 'POST', url: '/api/user/deletion_statements', token: before, payload: {} })).status).toBe(200);
    await everyOperationRefuses(owner, before);
    await everyOperationRefuses(owner, other);
  });

  it('a user blocked by compliance is refused everywhere at once, and served again once unblocked', async () => {
    const owner = await signUpWithCard(t);
    const block = (blockedAt: Date | null) => t.app.db.update(users).set({ blockedAt }).where(eq(users.id, owner.userId));
    await block(t.clock.now());
    await everyOperationRefuses(owner, owner.jwt);
    await block(null);
    expect((await t.call({ method: 'GET', url: `/api/payouts/${randomUUID()}`, token: owner.jwt })).status).toBe(404);
  });
});

describe('access tokens', () => {
  const secret = () => new TextEncoder().encode(t.app.config.jwtSecret);
  const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
  /** A token signed with the server's own key, with the claims given (null leaves a claim out). */
  function token(claims: {
    sub?: string | null;
    exp?: number | null;
    iat?: number | null;
    iss?: string | null;
    aud?: string | null;
    sv?: unknown;
  }) {
    const jwt = new SignJWT('sv' in claims ? (claims.sv === null ? {} : { sv: claims.sv }) : { sv: 0 }).setProtectedHeader({
      alg: 'HS256',
    });
    const { sub, exp = nowSeconds() + 900, iat = nowSeconds(), iss = 'tipcard', aud = 'tipcard-api' } = claims;
    if (sub) jwt.setSubject(sub);
    if (exp !== null) jwt.setExpirationTime(exp);
    if (iat !== null) jwt.setIssuedAt(iat);
    if (iss) jwt.setIssuer(iss);
    if (aud) jwt.setAudience(aud);
    return jwt.sign(secret());
  }

  it('accepts only tokens with exp, iat, a UUID sub, our issuer and audience, and the current session version; anything else is a 401, never a 500', async () => {
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
      { sub: owner.userId, sv: null },
      { sub: owner.userId, sv: 1 },
      { sub: owner.userId, sv: '0' },
      { sub: randomUUID() },
    ]) {
      const response = await t.call({ method: 'GET', url: '/api/me', token: await token(claims) });
      expect(response.status, JSON.stringify(claims)).toBe(401);
      expect(response.body).toMatchObject({ code: 'unauthorized' });
    }
  });
});
