import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { totpCode, totpStep } from './credentials.ts';
import { LOCKOUT_MS, MAX_FAILED_SIGN_INS, SESSION_IDLE_MS } from './ops-auth.service.ts';
import { codeNow, enrolOperator, nextStep, OPERATOR_PASSWORD, signInOperator } from './ops.test-support.ts';

describe('back office sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signIn = (email: string, code: string, password = OPERATOR_PASSWORD) =>
    t.call({ method: 'POST', url: '/api/ops/sign-in', payload: { email, password, code } });

  it('enrols once with a QR code, the spec password rule and a working authenticator code', async () => {
    const { enrolment_url } = await t.app.services.opsAuth.createOperator(
      { email: 'New.Admin@Ops.test', role: 'admin' },
      { actor: { operatorId: null, label: 'cli' }, ip: null },
    );
    const token = enrolment_url.split('/').pop()!;
    const info = await t.call({ method: 'GET', url: `/api/ops/enrolment/${token}` });
    expect(info.body.data).toMatchObject({
      email: 'new.admin@ops.test',
      otpauth_url: expect.stringContaining('otpauth://totp/'),
    });
    expect(info.body.data.qr_svg).toContain('<svg');
    const secret = info.body.data.secret as string;

    const weak = await t.call({
      method: 'POST',
      url: `/api/ops/enrolment/${token}`,
      payload: { password: 'password1', code: codeNow(t, secret) },
    });
    expect(weak.status).toBe(422);
    expect(weak.body.code).toBe('weak_password');
    const wrongCode = await t.call({
      method: 'POST',
      url: `/api/ops/enrolment/${token}`,
      payload: { password: OPERATOR_PASSWORD, code: totpCode(secret, totpStep(t.clock.now()) + 5) },
    });
    expect(wrongCode.body.code).toBe('ops_wrong_code');
    const enrolled = await t.call({
      method: 'POST',
      url: `/api/ops/enrolment/${token}`,
      payload: { password: OPERATOR_PASSWORD, code: codeNow(t, secret) },
    });
    expect(enrolled.status).toBe(200);
    // The link is dead once used.
    expect((await t.call({ method: 'GET', url: `/api/ops/enrolment/${token}` })).status).toBe(410);
    // The code used to enrol cannot sign in (same step), and says so; the next one can.
    expect((await signIn('new.admin@ops.test', codeNow(t, secret))).body.code).toBe('ops_code_used');
    nextStep(t);
    expect((await signIn('new.admin@ops.test', codeNow(t, secret))).status).toBe(200);
  });

  it('refuses a wrong password, a wrong code and an unknown e-mail with one answer, and a spent code with its own', async () => {
    const { email, secret } = await enrolOperator(t, 'support');
    nextStep(t);
    const code = codeNow(t, secret);
    expect((await signIn(email, code, 'Wrong-password1')).body.code).toBe('ops_sign_in_failed');
    expect((await signIn(email, totpCode(secret, totpStep(t.clock.now()) + 3))).body.code).toBe('ops_sign_in_failed');
    expect((await signIn('nobody@ops.test', code)).body.code).toBe('ops_sign_in_failed');
    expect((await signIn(email, code)).status).toBe(200);
    t.clock.advance(10_000); // Same 30 s window: the same code is a replay.
    const replay = await signIn(email, code);
    expect(replay.status).toBe(403);
    expect(replay.body.code).toBe('ops_code_used');
    // Only the right password learns that the code was spent.
    expect((await signIn(email, code, 'Wrong-password1')).body.code).toBe('ops_sign_in_failed');
  });

  it(`locks out after ${MAX_FAILED_SIGN_INS} failures, even for the right credentials, until the lockout ends`, async () => {
    const { email, secret } = await enrolOperator(t, 'finance');
    for (let i = 0; i < MAX_FAILED_SIGN_INS; i++) {
      nextStep(t);
      expect((await signIn(email, codeNow(t, secret), 'Wrong-password1')).body.code).toBe('ops_sign_in_failed');
    }
    nextStep(t);
    const locked = await signIn(email, codeNow(t, secret));
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('ops_sign_in_failed');
    t.clock.advance(LOCKOUT_MS);
    expect((await signIn(email, codeNow(t, secret))).status).toBe(200);
    const audit = await t.app.services.ops.listAudit({ action: 'operator.locked_out' });
    expect(audit.some((record) => record.actor === email)).toBe(true);
  });

  it('ends a session after 30 idle minutes, keeps an active one alive, and on sign-out', async () => {
    const operator = await signInOperator(t, 'support');
    const me = () => t.call({ method: 'GET', url: '/api/ops/me', token: operator.opsToken });
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await me()).status).toBe(200);
    t.clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await me()).status).toBe(200);
    t.clock.advance(SESSION_IDLE_MS + 1);
    expect((await me()).status).toBe(401);

    const second = await signInOperator(t, 'support');
    expect((await t.call({ method: 'POST', url: '/api/ops/sign-out', token: second.opsToken })).status).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/ops/me', token: second.opsToken })).status).toBe(401);
  });

  it('operator tokens never open user routes, user tokens never open /api/ops', async () => {
    const operator = await signInOperator(t, 'admin');
    const user = await signUp(t);
    expect((await t.call({ method: 'GET', url: '/api/me', token: operator.opsToken })).status).toBe(401);
    expect((await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/cards`, token: operator.opsToken })).status).toBe(
      401,
    );
    expect((await t.call({ method: 'GET', url: '/api/ops/me', token: user.jwt })).status).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/ops/operators', token: user.jwt })).status).toBe(401);
  });

  it('keeps no password nor TOTP secret in the clear, and the audit log cannot be edited', async () => {
    const { secret } = await enrolOperator(t, 'compliance');
    const dump = JSON.stringify(((await t.app.db.execute('SELECT * FROM operators')) as unknown as { rows: unknown[] }).rows);
    expect(dump).not.toContain(OPERATOR_PASSWORD);
    expect(dump).not.toContain(secret);
    await expect(t.app.db.execute('UPDATE ops_audit SET action = $$x$$')).rejects.toThrow();
    await expect(t.app.db.execute('DELETE FROM ops_audit')).rejects.toThrow();
  });
});
