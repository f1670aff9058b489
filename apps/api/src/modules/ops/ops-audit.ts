import type { Executor } from '../../db/client.ts';
import * as repo from './ops.repository.ts';

/** Who did it: an operator, or the command-line tools (`operator_id` null, actor `cli`). */
export interface Actor {
  operatorId: string | null;
  label: string;
}

export const CLI_ACTOR: Actor = { operatorId: null, label: 'cli' };

export interface AuditContext {
  actor: Actor;
  ip: string | null;
}

export interface AuditEvent {
  action: string;
  subjectType: string;
  subjectId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Writes one audit record in the caller's transaction, so an action and its record commit or vanish together. Money
 * and personal data stay out of `before`/`after` beyond what the action itself changed.
 */
export async function recordAudit(tx: Executor, context: AuditContext, event: AuditEvent): Promise<void> {
  await repo.insertAudit(tx, {
    operatorId: context.actor.operatorId,
    actor: context.actor.label,
    action: event.action,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    before: event.before,
    after: event.after,
    ip: context.ip,
  });
}

export const toAuditRecord = (row: repo.AuditRow) => ({
  id: row.id,
  operator_id: row.operatorId,
  actor: row.actor,
  action: row.action,
  subject_type: row.subjectType,
  subject_id: row.subjectId,
  before: row.before ?? null,
  after: row.after ?? null,
  ip: row.ip,
  created_at: row.createdAt.toISOString(),
});

export async function listAudit(db: Executor, filter: repo.AuditFilter, limit = 200) {
  return (await repo.listAudit(db, filter, limit)).map(toAuditRecord);
}
