import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOperator } from '../modules/ops/ops.test-support.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';

/** The parts of the OpenAPI document (JSON Schema) the generators read. */
interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}
interface Operation {
  method: string;
  path: string;
  /** Which token the operation takes: a user's, a back-office operator's, or none. */
  security: 'user' | 'operator' | 'none';
  query: Record<string, Schema>;
  body: Schema | undefined;
}

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpWithCard>>;
let operatorToken: string;
let operations: Operation[];
let tables: string[];
beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpWithCard(t);
  // An admin may call every back-office operation.
  operatorToken = (await signInOperator(t, 'admin')).opsToken;
  type DocumentOperation = {
    tags?: string[];
    security?: Record<string, unknown>[];
    parameters?: { in: string; name: string; schema: Schema }[];
    requestBody?: { content: Record<string, { schema: Schema }> };
  };
  const document = t.app.swagger() as unknown as { paths: Record<string, Record<string, DocumentOperation>> };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      // The live events' stream (tag `live`) stays open until the client leaves, so inject() would wait for ever;
      // live.routes.test.ts sends it bad input over a real socket.
      .filter(([, operation]) => !(operation.tags ?? []).includes('live'))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        security: operation.security?.some((scheme) => 'opsBearer' in scheme)
          ? 'operator'
          : (operation.security ?? []).length > 0
            ? 'user'
            : 'none',
        query: Object.fromEntries(
          (operation.parameters ?? [])
            .filter((parameter) => parameter.in === 'query')
            .map((parameter) => [parameter.name, parameter.schema]),
        ),
        body: operation.requestBody?.content['application/json']?.schema,
      })),
  );
  const listed = (await t.app.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as { rows: { table_name: string }[] };
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
  fc.constantFrom(
    'a\u0000b',
    'x\uD800y',
    '\uDC00',
    '0000-01-01',
    '+275760-09-13',
    '%00',
    "' or 1=1 --",
    '\u202e',
    'x'.repeat(5_000),
    '',
    '-1',
    '1e309',
    'NaN',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
/** Any JSON value at all, or one of the strings above. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(nasty, fc.jsonValue({ maxDepth: 2 }));

/**
 * Values shaped by the operation's own schema, each one wrong one time in five (any JSON value instead): most bodies
 * then pass the first fields and reach the deeper rules and the services, where a 500 would hide.
 */
function shaped(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return anyValue;
  const alternatives = schema.oneOf ?? schema.anyOf;
  let valid: fc.Arbitrary<unknown>;
  if (alternatives) valid = fc.oneof(...alternatives.map((alternative) => shaped(alternative, depth + 1)));
  else if (schema.enum) valid = fc.constantFrom(...schema.enum);
  else if (schema.type === 'object' || schema.properties) {
    const properties = schema.properties ?? {};
    valid = fc.record(
      Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, shaped(property, depth + 1)])),
      {
        requiredKeys: (schema.required ?? []).filter((name) => name in properties),
      },
    );
  } else if (schema.type === 'array') valid = fc.array(shaped(schema.items, depth + 1), { maxLength: 3 });
  else if (schema.type === 'integer')
    valid = fc.integer({
      min: Math.max(schema.minimum ?? -1_000_000, -1_000_000_000),
      max: Math.min(schema.maximum ?? 1_000_000, 1_000_000_000),
    });
  else if (schema.type === 'number') valid = fc.double({ noNaN: true, min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
  else if (schema.type === 'boolean') valid = fc.boolean();
  else if (schema.format === 'uuid')
    valid = fc.oneof(fc.uuid(), fc.constant(owner.clientId), fc.constant(owner.cardId), fc.constant(owner.userId));
  else if (schema.format === 'date')
    valid = fc
      .date({ min: new Date('1900-01-01'), max: new Date('2200-12-31'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10));
  else if (schema.format === 'date-time') valid = fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  else if (schema.format === 'email') valid = fc.emailAddress();
  else if (schema.type === 'string')
    valid = fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 60, 60) });
  else valid = anyValue;
  if (schema.nullable) valid = fc.oneof(valid, fc.constant(null));
  return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: anyValue });
}

/**
 * A 2xx may end a session (sign-out, account deletion, an operator disabled): a new one is made before the next
 * operation, so every operation is tried with a live token.
 */
async function keepSessionsAlive() {
  if ((await t.call({ method: 'GET', url: '/api/me', token: owner.jwt })).status === 401) owner = await signUpWithCard(t);
  if ((await t.call({ method: 'GET', url: '/api/ops/me', token: operatorToken })).status === 401)
    operatorToken = (await signInOperator(t, 'admin')).opsToken;
}

/** A query value as it travels: strings as they are, anything else as its JSON text. */
const asQueryText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
const pathValue = fc.oneof(fc.constant('own'), fc.uuid(), nasty);
/** Every byte of the UTF-8 form percent-encoded (encodeURIComponent throws on a lone surrogate). */
const percentEncoded = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
/** Runs per operation: about 2,000 requests in all, under a minute on PGlite. */
const RUNS = 18;

describe('arbitrary input to every operation of the OpenAPI document', () => {
  it('never answers 5xx; every 4xx is in the error format and stores nothing', async () => {
    expect(operations.length).toBeGreaterThan(100);
    for (const operation of operations) {
      await keepSessionsAlive();
      const hasBody = operation.method !== 'GET' && operation.method !== 'DELETE';
      const body = fc.oneof(
        { weight: 4, arbitrary: shaped(operation.body) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
      );
      const query = fc.tuple(
        fc.record(
          Object.fromEntries(Object.entries(operation.query).map(([name, schema]) => [name, shaped(schema).map(asQueryText)])),
          { requiredKeys: [] },
        ),
        fc.dictionary(fc.constantFrom('cursor', 'limit', 'from', 'to', 'x'), nasty, { maxKeys: 2 }),
      );
      await fc.assert(
        fc.asyncProperty(
          body,
          query,
          pathValue,
          fc.option(nasty),
          async (payload, [declared, extra], pathChoice, idempotencyKey) => {
            const url = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
              if (pathChoice !== 'own') return percentEncoded(pathChoice || randomUUID());
              return name === 'clientId' ? owner.clientId : name === 'cardId' ? owner.cardId : randomUUID();
            });
            const search = new URLSearchParams({ ...extra, ...(declared as Record<string, string>) }).toString();
            const headers: Record<string, string> = {
              ...(operation.security === 'none'
                ? {}
                : { authorization: `Bearer ${operation.security === 'user' ? owner.jwt : operatorToken}` }),
              // Header values must be ISO-8859-1 text; anything else is refused by Node before it is sent.
              'idempotency-key': idempotencyKey !== null && /^[\x20-\x7e]*$/.test(idempotencyKey) ? idempotencyKey : randomUUID(),
              ...(hasBody ? { 'content-type': 'application/json' } : {}),
            };
            const before = await rowCounts();
            const response = await t.app.inject({
              method: operation.method as 'GET',
              url: `${url}${search ? `?${search}` : ''}`,
              headers,
              ...(hasBody ? { payload: JSON.stringify(payload) ?? 'null' } : {}),
            });
            const where = `${operation.method} ${operation.path} → ${response.statusCode}`;
            expect(response.statusCode, where).toBeLessThan(500);
            if (response.statusCode >= 400) {
              expect(response.json(), where).toMatchObject({
                message: expect.any(String),
                code: expect.any(String),
                errors: expect.any(Array),
                validation_errors: expect.any(Object),
              });
              expect(await rowCounts(), where).toBe(before);
            }
          },
        ),
        { numRuns: RUNS },
      );
    }
  }, 600_000);
});
