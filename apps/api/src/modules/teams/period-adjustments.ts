import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { periodAdjustmentBody } from '@tipcard/shared/teams/schemas';
import type { Transaction } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { lockBalances, postEntry, type UserAccountRef } from '../ledger/ledger.service.ts';
import { recordTeamAdjustment } from '../transactions/transactions.service.ts';
import { findUserById } from '../users/users.service.ts';
import * as adjustments from './period-adjustments.repository.ts';
import { periodSpan } from './team-periods.ts';
import * as repo from './teams.repository.ts';

type AdjustmentInput = z.output<typeof periodAdjustmentBody>;

/** What names an adjustment's request: the same Idempotency-Key with another team, month or body is refused. */
export const adjustmentRequestHash = (teamId: string, month: string, body: AdjustmentInput) =>
  createHash('sha256')
    .update(JSON.stringify([teamId, month, body.from_user_id, body.to_user_id, body.amount_cents, body.reason]))
    .digest('hex');

/** The ledger entry of an adjustment: one per row, so posting it again moves nothing. */
export const adjustmentReference = (adjustmentId: string) => `team-adjustment:${adjustmentId}`;

/**
 * Records an adjustment of a locked period (decision 0059), inside the caller's transaction, which holds the team
 * row's update lock (so adjustments of a team, its lock and its membership changes are one after another): the admin's
 * earlier request with this Idempotency-Key is answered again (another body with it is refused); otherwise the period
 * must be locked, both people must have had a share in it or be members now, and the giver's withdrawable balance
 * (main, with no debt open) must cover the amount. The cents move main to main in one ledger entry, with the row, its
 * `adjusted` event and both history rows. Answers the row and whether it was made now.
 */
export async function recordAdjustment(
  tx: Transaction,
  input: {
    team: repo.TeamRow;
    month: string;
    adminUserId: string;
    body: AdjustmentInput;
    idempotencyKey: string;
    now: Date;
  },
): Promise<{ row: adjustments.AdjustmentRow; created: boolean }> {
  const { team, month, body, now } = input;
  const requestHash = adjustmentRequestHash(team.id, month, body);
  const earlier = await adjustments.findAdjustmentByKey(tx, input.adminUserId, input.idempotencyKey);
  if (earlier) {
    if (earlier.requestHash !== requestHash) throw new AppError('idempotency_key_reused');
    return { row: earlier, created: false };
  }

  const period = await repo.findPeriod(tx, team.id, month);
  if (!period?.lockedAt) throw new AppError('team_period_not_locked');

  const span = periodSpan(month);
  const sharers = (await repo.sharersPerMonth(tx, team.id, span.from, span.to)).get(month) ?? new Set<string>();
  const members = new Set((await repo.listOpenMemberships(tx, team.id)).map((membership) => membership.userId));
  for (const userId of [body.from_user_id, body.to_user_id]) {
    const user = await findUserById(tx, userId);
    // A deleted account's balances are closed (decision 0028): it can neither give nor receive.
    if (!user || user.deletedAt || (!sharers.has(userId) && !members.has(userId))) {
      throw AppError.field('team_adjustment_member', userId === body.from_user_id ? 'from_user_id' : 'to_user_id');
    }
  }

  const giver: UserAccountRef = { userId: body.from_user_id, kind: 'main' };
  const giverDebt: UserAccountRef = { userId: body.from_user_id, kind: 'debt' };
  const receiver: UserAccountRef = { userId: body.to_user_id, kind: 'main' };
  // Both mains (and the giver's debt) are locked in the ledger's one order (ascending account id), so an adjustment
  // racing a payout or another adjustment of the same people waits for it rather than deadlocking, and reads the
  // balance that is really there. Hold is never taken: it is money a refund may still claim.
  const balanceOf = await lockBalances(tx, [giver, giverDebt, receiver]);
  if (balanceOf(giverDebt) < 0 || balanceOf(giver) < body.amount_cents)
    throw AppError.field('team_adjustment_balance_short', 'amount_cents');

  const row = await adjustments.insertAdjustment(tx, {
    teamId: team.id,
    month,
    fromUserId: body.from_user_id,
    toUserId: body.to_user_id,
    amountCents: body.amount_cents,
    reason: body.reason,
    createdByUserId: input.adminUserId,
    idempotencyKey: input.idempotencyKey,
    requestHash,
    createdAt: now,
  });
  await postEntry(tx, {
    kind: 'team_adjustment',
    reference: adjustmentReference(row.id),
    postings: [
      { account: giver, amountCents: -body.amount_cents },
      { account: receiver, amountCents: body.amount_cents },
    ],
  });
  await repo.insertPeriodEvent(tx, {
    teamId: team.id,
    month,
    kind: 'adjusted',
    userId: input.adminUserId,
    at: now,
    adjustmentId: row.id,
  });
  await recordTeamAdjustment(
    tx,
    { fromUserId: body.from_user_id, toUserId: body.to_user_id, team: team.title, month, amountCents: body.amount_cents },
    now,
  );
  return { row, created: true };
}
