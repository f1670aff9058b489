import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpWithCard>>;
let operations: { method: string; path: string; authenticated: boolean }[];
let tables: string[];
beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpWithCard(t);
  const document = t.app.swagger() as unknown as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, authenticated: (operation.security ?? []).length > 0 })),
  );
  const listed = (await t.app.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)) as unknown as { rows: { table_name: string }[] };
  tables = listed.rows.map((row) => row.table_name).filter((name) => !name.startsWith('__drizzle'));
}, 120_000);
afterAll(() => t.close());

/** Rows in every table: a refusal must leave every count as it was. */
async function rowCounts(): Promise<string> {
  const query = tables.map((name) => `select '${name}' as t, count(*)::int as n from "${name}"`).join(' union all ');
  const counted = (await t.app.db.execute(sql.raw(query))) as unknown as { rows: { t: string; n: number }[] };
  return JSON.stringify(counted.rows.sort((a, b) => a.t.localeCompare(b.t)));
}

/** Strings an attacker tries first, among arbitrary ones. */
const nasty = fc.oneof(
  fc.constantFrom('a\u0000b', 'x\uD800y', '\uDC00', '0000-01-01', '+275760-09-13', '%00', "' or 1=1 --", '\u202e', 'x'.repeat(5_000), ''),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const value = fc.oneof(nasty, fc.jsonValue({ maxDepth: 2 }));
const body = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(fc.oneof(nasty, fc.constantFrom('title', 'public_name', 'amount_cents', 'code', 'username', 'kind', 'iban', 'message', 'name', 'email', 'path', 'locale', 'promo_source', 'referral_code', 'holder_last_name')), value, { maxKeys: 6 }));
const query = fc.dictionary(fc.constantFrom('to', 'from', 'cursor', 'limit', 'status', 'type', 'locale', 'v', 'c'), nasty, { maxKeys: 3 });
const pathValue = fc.oneof(fc.constant('own'), fc.uuid(), nasty);
/** Every byte of the UTF-8 form percent-encoded (encodeURIComponent throws on a lone surrogate). */
const percentEncoded = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

describe('arbitrary input to every operation of the OpenAPI document', () => {
  it('never answers 5xx; every 4xx is in the error format and stores nothing', async () => {
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(body, query, pathValue, async (payload, queryValues, pathChoice) => {
          const url = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
            if (pathChoice !== 'own') return percentEncoded(pathChoice || randomUUID());
            return name === 'clientId' ? owner.clientId : name === 'cardId' ? owner.cardId : randomUUID();
          });
          const search = new URLSearchParams(queryValues as Record<string, string>).toString();
          const before = await rowCounts();
          const response = await t.app.inject({
            method: operation.method as 'GET',
            url: `${url}${search ? `?${search}` : ''}`,
            headers: { ...(operation.authenticated ? { authorization: `Bearer ${owner.jwt}` } : {}), 'idempotency-key': randomUUID() },
            ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(operation.authenticated ? { authorization: `Bearer ${owner.jwt}` } : {}), 'idempotency-key': randomUUID() } }),
          });
          const where = `${operation.method} ${operation.path} → ${response.statusCode}`;
          expect(response.statusCode, where).toBeLessThan(500);
          if (response.statusCode >= 400) {
            expect(response.json(), where).toMatchObject({ message: expect.any(String), code: expect.any(String), errors: expect.any(Array), validation_errors: expect.any(Object) });
            expect(await rowCounts(), where).toBe(before);
          }
        }),
        { numRuns: 20 },
      );
    }
  }, 600_000);
});
