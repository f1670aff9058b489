import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { codeNow, nextStep, OPERATOR_PASSWORD, signInOperator } from './ops.test-support.ts';

/**
 * The operators' lifecycle: the first admin by the set-up link, invitations e-mailed, role changes, disabling and
 * resets by an admin, each audited and each ending the operator's sessions; one enabled admin always stays.
 */
describe('back office operators', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const mailTo = async (email: string) =>
    (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}` })).body.data as { body: string }[];
  const tokenOf = (url: string) => url.split('/').pop()!;
  async function enrolByToken(token: string) {
    const secret = (await t.call({ method: 'GET', url: `/api/ops/enrolment/${token}` })).body.data.secret as string;
    const enrolled = await t.call({
      method: 'POST',
      url: `/api/ops/enrolment/${token}`,
      payload: { password: OPERATOR_PASSWORD, code: codeNow(t, secret) },
    });
    expect(enrolled.status).toBe(200);
    nextStep(t);
    return secret;
  }
  const signIn = (email: string, secret: string, password = OPERATOR_PASSWORD) =>
    t.call({ method: 'POST', url: '/api/ops/sign-in', payload: { email, password, code: codeNow(t, secret) } });

  it('makes the first admin by the set-up link once, only while no operator exists, and e-mails the enrolment link', async () => {
    const link = await t.app.services.opsAuth.firstAdminSetupLink();
    expect(link).toMatch(/\/ops\/#\/setup\/[\w-]{40,}$/);
    expect(link!.startsWith(t.app.config.publicUrl)).toBe(true);
    const token = tokenOf(link!);
    const forged = `${token.slice(0, -2)}xx`;
    expect((await t.call({ method: 'GET', url: `/api/ops/setup/${forged}` })).status).toBe(410);
    expect((await t.call({ method: 'GET', url: `/api/ops/setup/${token}` })).status).toBe(204);
    expect((await t.call({ method: 'POST', url: `/api/ops/setup/${token}`, payload: { email: 'not an e-mail' } })).status).toBe(
      422,
    );

    // Two people open the link at once: one admin.
    const answers = await Promise.all(
      ['first@ops.test', 'second@ops.test'].map((email) =>
        t.call({ method: 'POST', url: `/api/ops/setup/${token}`, payload: { email } }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 410]);
    const made = answers.find((answer) => answer.status === 201)!.body.data;
    expect(made.operator).toMatchObject({ role: 'admin', enrolled: false, disabled: false });
    expect((await t.call({ method: 'GET', url: `/api/ops/setup/${token}` })).body.code).toBe('ops_setup_invalid');
    expect(await t.app.services.opsAuth.firstAdminSetupLink()).toBeNull();

    const [mail] = await mailTo(made.operator.email);
    expect(mail!.body).toContain(made.enrolment_url);
    const secret = await enrolByToken(tokenOf(made.enrolment_url));
    expect((await signIn(made.operator.email, secret)).status).toBe(200);
    const audit = await t.app.services.ops.listAudit({ action: 'operator.create' });
    expect(audit.find((record) => record.subject_id === made.operator.id)).toMatchObject({
      actor: 'setup link',
      operator_id: null,
    });
  });

  it('invites by e-mail, and an admin changes a role: audited, and the operator signs in again to use it', async () => {
    const admin = await signInOperator(t, 'admin');
    const created = await t.call({
      method: 'POST',
      url: '/api/ops/operators',
      token: admin.opsToken,
      payload: { email: 'Agent@Ops.test', role: 'support' },
    });
    expect(created.status).toBe(201);
    const [invitation] = await mailTo('agent@ops.test');
    expect(invitation!.body).toContain(created.body.data.enrolment_url);
    const secret = await enrolByToken(tokenOf(created.body.data.enrolment_url));
    const session = (await signIn('agent@ops.test', secret)).body.data.token as string;
    expect((await t.call({ method: 'GET', url: '/api/ops/payouts', token: session })).status).toBe(403);

    const id = created.body.data.operator.id as string;
    const changed = await t.call({
      method: 'PATCH',
      url: `/api/ops/operators/${id}`,
      token: admin.opsToken,
      payload: { role: 'finance' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ role: 'finance', disabled: false });
    expect((await t.call({ method: 'GET', url: '/api/ops/me', token: session })).status).toBe(401);
    nextStep(t);
    const again = (await signIn('agent@ops.test', secret)).body.data.token as string;
    expect((await t.call({ method: 'GET', url: '/api/ops/payouts', token: again })).status).toBe(200);
    const [record] = await t.app.services.ops.listAudit({ action: 'operator.update', subjectId: id });
    expect(record).toMatchObject({
      operator_id: admin.id,
      before: { role: 'support', disabled: false },
      after: { role: 'finance', disabled: false },
    });
  });

  it('disables an operator (sessions end, sign-in refused) and enables them again', async () => {
    const admin = await signInOperator(t, 'admin');
    const agent = await signInOperator(t, 'compliance');
    const patch = (disabled: boolean) =>
      t.call({ method: 'PATCH', url: `/api/ops/operators/${agent.id}`, token: admin.opsToken, payload: { disabled } });
    expect((await patch(true)).body.data.disabled).toBe(true);
    expect((await t.call({ method: 'GET', url: '/api/ops/me', token: agent.opsToken })).status).toBe(401);
    nextStep(t);
    expect((await signIn(agent.email, agent.secret)).body.code).toBe('ops_sign_in_failed');
    expect((await patch(false)).body.data.disabled).toBe(false);
    nextStep(t);
    expect((await signIn(agent.email, agent.secret)).status).toBe(200);
  });

  it('resets a password and authenticator: the old ones stop working, a new link is e-mailed and works once', async () => {
    const admin = await signInOperator(t, 'admin');
    const agent = await signInOperator(t, 'finance');
    const reset = await t.call({ method: 'POST', url: `/api/ops/operators/${agent.id}/reset-sign-in`, token: admin.opsToken });
    expect(reset.status).toBe(200);
    expect(reset.body.data.operator).toMatchObject({ enrolled: false });
    expect((await t.call({ method: 'GET', url: '/api/ops/me', token: agent.opsToken })).status).toBe(401);
    nextStep(t);
    expect((await signIn(agent.email, agent.secret)).body.code).toBe('ops_sign_in_failed');
    const mails = await mailTo(agent.email);
    expect(mails[0]!.body).toContain(reset.body.data.enrolment_url);
    const secret = await enrolByToken(tokenOf(reset.body.data.enrolment_url));
    expect(secret).not.toBe(agent.secret);
    expect((await signIn(agent.email, secret)).status).toBe(200);
    expect((await t.call({ method: 'GET', url: `/api/ops/enrolment/${tokenOf(reset.body.data.enrolment_url)}` })).status).toBe(
      410,
    );
    const [record] = await t.app.services.ops.listAudit({ action: 'operator.reset_sign_in', subjectId: agent.id });
    expect(record?.operator_id).toBe(admin.id);
  });

  it('keeps one enabled admin, also when two admins demote each other at once', async () => {
    // Disable every admin the other tests made but two.
    const first = await signInOperator(t, 'admin');
    const second = await signInOperator(t, 'admin');
    const all = (await t.call({ method: 'GET', url: '/api/ops/operators', token: first.opsToken })).body.data as {
      id: string;
      role: string;
      disabled: boolean;
    }[];
    for (const other of all.filter((row) => row.role === 'admin' && !row.disabled && ![first.id, second.id].includes(row.id))) {
      const off = await t.call({
        method: 'PATCH',
        url: `/api/ops/operators/${other.id}`,
        token: first.opsToken,
        payload: { disabled: true },
      });
      expect(off.status).toBe(200);
    }
    const [a, b] = await Promise.all([
      t.call({ method: 'PATCH', url: `/api/ops/operators/${second.id}`, token: first.opsToken, payload: { role: 'support' } }),
      t.call({ method: 'PATCH', url: `/api/ops/operators/${first.id}`, token: second.opsToken, payload: { disabled: true } }),
    ]);
    const statuses = [a.status, b.status];
    // One wins; the other is refused (or finds its own session ended by the winner's change).
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    const loser = a.status === 200 ? b : a;
    expect(['operator_last_admin', 'unauthorized']).toContain(loser.body.code);
    const after = (await t.app.services.opsAuth.listOperators()).filter((row) => row.role === 'admin' && !row.disabled);
    expect(after).toHaveLength(1);

    // The last one cannot leave either.
    const last = after[0]!;
    const lastToken = last.id === first.id ? first.opsToken : second.opsToken;
    for (const payload of [{ disabled: true }, { role: 'finance' }]) {
      const refused = await t.call({ method: 'PATCH', url: `/api/ops/operators/${last.id}`, token: lastToken, payload });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('operator_last_admin');
    }
  });

  it('refuses an empty change and an unknown operator, changing nothing', async () => {
    const admin = await signInOperator(t, 'admin');
    const empty = await t.call({ method: 'PATCH', url: `/api/ops/operators/${admin.id}`, token: admin.opsToken, payload: {} });
    expect(empty.status).toBe(422);
    const badRole = await t.call({
      method: 'PATCH',
      url: `/api/ops/operators/${admin.id}`,
      token: admin.opsToken,
      payload: { role: 'owner' },
    });
    expect(badRole.status).toBe(422);
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const answer of [
      await t.call({
        method: 'PATCH',
        url: `/api/ops/operators/${unknown}`,
        token: admin.opsToken,
        payload: { role: 'support' },
      }),
      await t.call({ method: 'POST', url: `/api/ops/operators/${unknown}/reset-sign-in`, token: admin.opsToken }),
    ])
      expect(answer.status).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/ops/me', token: admin.opsToken })).body.data.role).toBe('admin');
  });
});
