import { expect } from 'vitest';
import type { TestApp } from '../../test/test-app.ts';
import { CLI_ACTOR } from './ops-audit.ts';
import type { OperatorRole } from './ops-auth.service.ts';
import { TOTP_PERIOD_SECONDS, totpCode, totpStep } from './credentials.ts';

export const OPERATOR_PASSWORD = 'Back-office-1';

/** The code an authenticator app shows now for this secret. */
export const codeNow = (t: TestApp, secret: string) => totpCode(secret, totpStep(t.clock.now()));

/** Moves the test clock to the next TOTP step, so a new code can be used. */
export const nextStep = (t: TestApp) => t.clock.advance(TOTP_PERIOD_SECONDS * 1000);

/** An enrolled operator of the role, through the real enrolment API; answers its e-mail and TOTP secret. */
export async function enrolOperator(
  t: TestApp,
  role: OperatorRole,
  email = `${role}-${crypto.randomUUID().slice(0, 8)}@ops.test`,
) {
  const { enrolment_url } = await t.app.services.opsAuth.createOperator({ email, role }, { actor: CLI_ACTOR, ip: null });
  const token = enrolment_url.split('/').pop()!;
  const info = await t.call({ method: 'GET', url: `/api/ops/enrolment/${token}` });
  expect(info.status).toBe(200);
  const secret = info.body.data.secret as string;
  const enrolled = await t.call({
    method: 'POST',
    url: `/api/ops/enrolment/${token}`,
    payload: { password: OPERATOR_PASSWORD, code: codeNow(t, secret) },
  });
  expect(enrolled.status).toBe(200);
  return { email, secret, token };
}

/** An enrolled and signed-in operator: its token, id, e-mail and TOTP secret. */
export async function signInOperator(t: TestApp, role: OperatorRole) {
  const operator = await enrolOperator(t, role);
  nextStep(t);
  const signedIn = await t.call({
    method: 'POST',
    url: '/api/ops/sign-in',
    payload: { email: operator.email, password: OPERATOR_PASSWORD, code: codeNow(t, operator.secret) },
  });
  expect(signedIn.status).toBe(200);
  return { ...operator, opsToken: signedIn.body.data.token as string, id: signedIn.body.data.operator.id as string };
}
