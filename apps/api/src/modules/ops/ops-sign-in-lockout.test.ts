import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import type * as credentials from './credentials.ts';
import { verifyPassword } from './credentials.ts';
import { LOCKOUT_MS, MAX_FAILED_SIGN_INS } from './ops-auth.service.ts';
import { codeNow, enrolOperator, nextStep, OPERATOR_PASSWORD } from './ops.test-support.ts';

// The real scrypt check, watched: which hash each sign-in checked a password against.
vi.mock('./credentials.ts', async (importOriginal) => {
  const original = await importOriginal<typeof credentials>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});
const checks = vi.mocked(verifyPassword);

let addresses = 0;
/** Each try from an address of its own, as an attacker spreading them would: the per-address limit does not apply. */
const signIn = (app: TestApp, email: string, code: string, password = OPERATOR_PASSWORD) =>
  app.call({
    method: 'POST',
    url: '/api/ops/sign-in',
    payload: { email, password, code },
    remoteAddress: `10.0.${Math.floor(++addresses / 250)}.${addresses % 250}`,
  });
const storedHash = async (app: TestApp, email: string) => {
  const { rows } = (await app.app.db.execute(sql`SELECT password_hash FROM operators WHERE email = ${email}`)) as unknown as {
    rows: { password_hash: string }[];
  };
  return rows[0]!.password_hash;
};
/** How many sign-ins checked a password against this operator's own hash. */
const evaluations = (hash: string) => checks.mock.calls.filter(([stored]) => stored === hash).length;

describe('operator sign-in lockout', () => {
  // Two servers on one database and one wall clock (the first's); most tests need only the first.
  let database: DatabaseHandle;
  let t: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({ overrides: { database } });
    second = await createTestApp({ overrides: { database, clock: t.clock } });
  });
  afterAll(async () => {
    await t.close();
    await second.close();
    await database.close();
  });

  const auditOf = async (email: string) =>
    (await t.app.services.ops.listAudit({})).filter(
      (record) => record.actor === email && ['operator.sign_in_failed', 'operator.locked_out'].includes(record.action),
    );

  it(`evaluates at most ${MAX_FAILED_SIGN_INS} of 40 concurrent wrong passwords, then refuses the right one`, async () => {
    const { email, secret } = await enrolOperator(t, 'finance');
    nextStep(t);
    const hash = await storedHash(t, email);
    checks.mockClear();

    const answers = await Promise.all(Array.from({ length: 40 }, () => signIn(t, email, codeNow(t, secret), 'Wrong-password1')));
    expect(answers.every((answer) => answer.status === 403 && answer.body.code === 'ops_sign_in_failed')).toBe(true);
    expect(evaluations(hash)).toBe(MAX_FAILED_SIGN_INS);
    const audit = await auditOf(email);
    expect(audit.filter((record) => record.action === 'operator.sign_in_failed')).toHaveLength(MAX_FAILED_SIGN_INS - 1);
    expect(audit.filter((record) => record.action === 'operator.locked_out')).toHaveLength(1);

    // Locked out: the right password and code are not even checked.
    nextStep(t);
    expect((await signIn(t, email, codeNow(t, secret))).body.code).toBe('ops_sign_in_failed');
    expect(evaluations(hash)).toBe(MAX_FAILED_SIGN_INS);
    t.clock.advance(LOCKOUT_MS);
    expect((await signIn(t, email, codeNow(t, secret))).status).toBe(200);
  });

  it('answers a locked, an unknown and a wrong sign-in alike, each after one scrypt check', async () => {
    const locked = await enrolOperator(t, 'compliance');
    const known = await enrolOperator(t, 'compliance');
    nextStep(t);
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) await signIn(t, locked.email, codeNow(t, locked.secret), 'Wrong-password1');
    checks.mockClear();

    const answers = [
      await signIn(t, locked.email, codeNow(t, locked.secret)),
      await signIn(t, 'nobody@ops.test', codeNow(t, known.secret)),
      await signIn(t, known.email, codeNow(t, known.secret), 'Wrong-password1'),
      await signIn(t, known.email, '000000'),
    ];
    for (const answer of answers) {
      expect({ status: answer.status, body: answer.body, retryAfter: answer.headers['retry-after'] }).toEqual({
        status: answers[0]!.status,
        body: answers[0]!.body,
        retryAfter: answers[0]!.headers['retry-after'],
      });
    }
    expect(answers[0]!.status).toBe(403);
    expect(answers[0]!.body.code).toBe('ops_sign_in_failed');
    // The same work whatever the case, so the time taken does not tell them apart either.
    expect(checks).toHaveBeenCalledTimes(answers.length);
  });

  it(`evaluates at most ${MAX_FAILED_SIGN_INS} of 40 wrong passwords spread over two servers on one database`, async () => {
    const { email, secret } = await enrolOperator(t, 'support');
    const hash = await storedHash(t, email);
    checks.mockClear();
    nextStep(t);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(i % 2 === 0 ? t : second, email, codeNow(t, secret), 'Wrong-password1')),
    );
    expect(answers.every((answer) => answer.status === 403 && answer.body.code === 'ops_sign_in_failed')).toBe(true);
    expect(evaluations(hash)).toBe(MAX_FAILED_SIGN_INS);
  });
});
