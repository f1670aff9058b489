import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { recordAudit } from './ops-audit.ts';
import { insertAudit } from './ops.repository.ts';
import { signInOperator } from './ops.test-support.ts';

/** The audit log as a person reads it: found by who, what family of action, the start of an id, a period; exported. */
describe('the back office audit log', () => {
  let t: TestApp;
  let compliance: Awaited<ReturnType<typeof signInOperator>>;
  const paymentId = 'a42c5fab-1111-4222-8333-444455556666';
  beforeAll(async () => {
    t = await createTestApp();
    compliance = await signInOperator(t, 'compliance');
    const finance = await signInOperator(t, 'finance');
    const context = (who: { id: string; email: string }) => ({ actor: { operatorId: who.id, label: who.email }, ip: '10.0.0.1' });
    await recordAudit(t.app.db, context(finance), {
      action: 'refund.request',
      subjectType: 'payment',
      subjectId: paymentId,
      before: null,
      after: { amount_cents: 500, reason: 'Guest asked, "twice"' },
    });
    t.clock.advance(60_000);
    await recordAudit(t.app.db, context(finance), {
      action: 'refund.approve',
      subjectType: 'payment',
      subjectId: paymentId,
      before: { status: 'pending' },
      after: { status: 'refunding' },
    });
    await recordAudit(t.app.db, context(compliance), {
      action: 'refunded',
      subjectType: 'payment',
      subjectId: '0badc0de-1111-4222-8333-444455556666',
      before: null,
      after: { note: '=HYPERLINK("x")' },
    });
  });
  afterAll(() => t.close());

  const list = async (query: string) =>
    (await t.call({ method: 'GET', url: `/api/ops/audit?${query}`, token: compliance.opsToken })).body.data as {
      action: string;
      subject_id: string;
      actor: string;
    }[];

  it('finds an action family, an operator by part of their e-mail, and a payment by its short reference in any case', async () => {
    expect((await list('action=refund')).map((r) => r.action)).toEqual(['refund.approve', 'refund.request']);
    expect((await list('action=refund.approve')).map((r) => r.action)).toEqual(['refund.approve']);
    expect(await list('action=refund.%25')).toEqual([]);
    expect((await list('actor=FINANCE-')).every((r) => r.actor.startsWith('finance-'))).toBe(true);
    expect((await list('actor=FINANCE-')).length).toBeGreaterThanOrEqual(2);
    expect((await list('subject_id=A42C5FAB')).map((r) => r.subject_id)).toEqual([paymentId, paymentId]);
    expect(await list('subject_id=a42c_fab')).toEqual([]);
  });

  it('keeps to a period', async () => {
    const at = (iso: string) => new Date(iso);
    for (const [action, when] of [
      ['payout.mark.paid', '2026-03-01T10:00:00Z'],
      ['payout.mark.returned', '2026-03-02T10:00:00Z'],
    ] as const)
      await insertAudit(t.app.db, {
        operatorId: compliance.id,
        actor: compliance.email,
        action,
        subjectType: 'payout',
        subjectId: crypto.randomUUID(),
        createdAt: at(when),
      });
    const between = (from: string, to: string) =>
      list(`action=payout.mark&from=${at(from).toISOString()}&to=${at(to).toISOString()}`);
    expect((await between('2026-03-02T00:00:00Z', '2026-03-02T23:59:59Z')).map((r) => r.action)).toEqual([
      'payout.mark.returned',
    ]);
    expect((await between('2026-03-01T00:00:00Z', '2026-03-01T23:59:59Z')).map((r) => r.action)).toEqual(['payout.mark.paid']);
    expect(await between('2026-03-03T00:00:00Z', '2026-03-04T00:00:00Z')).toEqual([]);
  });

  it('exports the filtered log as CSV (cells safe for a spreadsheet), and records the export', async () => {
    const file = await t.call({ method: 'GET', url: '/api/ops/audit/export?subject_type=payment', token: compliance.opsToken });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(String(file.headers['content-disposition'])).toMatch(/attachment; filename="tipcard-audit-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = String(file.body).trimEnd().split('\r\n');
    expect(lines[0]).toBe('when,actor,action,subject_type,subject_id,before,after,ip');
    expect(lines).toHaveLength(4);
    // Quotes doubled inside a quoted cell: the reason's comma and quotes stay in its cell.
    expect(lines.join('\n')).toContain(String.raw`""reason"":""Guest asked, \""twice\""""`);
    const [exported] = (await t.app.services.ops.listAudit({ action: 'audit.export' })) as {
      operator_id: string | null;
      after: Record<string, unknown> | null;
    }[];
    expect(exported).toMatchObject({ operator_id: compliance.id, after: { filters: { subjectType: 'payment' }, records: 3 } });
  });

  it('is for compliance and admins only, and refuses a malformed filter', async () => {
    const support = await signInOperator(t, 'support');
    expect((await t.call({ method: 'GET', url: '/api/ops/audit/export', token: support.opsToken })).status).toBe(403);
    const bad = await t.call({ method: 'GET', url: '/api/ops/audit/export?from=yesterday', token: compliance.opsToken });
    expect(bad.status).toBe(422);
  });
});
