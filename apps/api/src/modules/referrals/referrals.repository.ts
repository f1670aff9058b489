import { and, desc, eq, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { referralRewards } from '../../db/schema/referrals.ts';

export type RewardRow = typeof referralRewards.$inferSelect;

/** A friend's reward row, once: the friend is unique, so a second call changes nothing. */
export async function insertRewardOnce(tx: Executor, values: typeof referralRewards.$inferInsert) {
  await tx.insert(referralRewards).values(values).onConflictDoNothing({ target: referralRewards.friendUserId });
}

export function listRewardsOfReferrer(db: Executor, referrerUserId: string, limit: number) {
  return db
    .select()
    .from(referralRewards)
    .where(eq(referralRewards.referrerUserId, referrerUserId))
    .orderBy(desc(referralRewards.createdAt))
    .limit(limit);
}

/** One pending reward due for a look, locked; rows another worker holds are skipped. */
export async function claimDueReward(tx: Executor, now: Date) {
  const [row] = await tx
    .select()
    .from(referralRewards)
    .where(and(eq(referralRewards.status, 'pending'), lte(referralRewards.nextCheckAt, now)))
    .orderBy(referralRewards.nextCheckAt)
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function updateReward(tx: Executor, id: string, changes: Partial<typeof referralRewards.$inferInsert>) {
  await tx.update(referralRewards).set(changes).where(eq(referralRewards.id, id));
}

/**
 * The reward row of a friend, locked whatever its status: a reward job paying it at this moment is waited for, so a
 * refund judging the reward sees it paid.
 */
export async function lockRewardOfFriend(tx: Executor, friendUserId: string) {
  const [row] = await tx.select().from(referralRewards).where(eq(referralRewards.friendUserId, friendUserId)).for('update');
  return row;
}
