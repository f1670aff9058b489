import {
  REFERRAL_CAP_CENTS,
  REFERRAL_MIN_PAYERS,
  REFERRAL_WINDOW_DAYS,
  type ReferralFriend,
  type ReferralInviter,
  type ReferralSummary,
} from '@tipcard/shared/referrals/schemas';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { findPrivateCardOfUser } from '../cards/cards.service.ts';
import { lockBalances, postEntry, type Posting, type UserAccountRef } from '../ledger/ledger.service.ts';
import { feesOfRecipient } from '../payments/payments.service.ts';
import { recordReferralPayin } from '../transactions/transactions.service.ts';
import { findDeletedAmong, findUserById, findUserByReferralCode, requireOwnClient } from '../users/users.service.ts';
import * as repo from './referrals.repository.ts';

const DAY = 86_400_000;
const WINDOW_MS = REFERRAL_WINDOW_DAYS * DAY;
/** How often a pending reward is looked at before its window ends: the cap may be reached early. */
const CHECK_EVERY_MS = DAY;
const LIST_LIMIT = 500;

/** The reward for a friend's fees in the window: all of them, up to the cap (DESIGN "Referrals"). */
export function rewardOf(feesCents: number): number {
  return Math.min(Math.max(0, feesCents), REFERRAL_CAP_CENTS);
}

/** A phone shown to the referrer: the country code and the last two digits only. */
export function maskPhone(phone: string): string {
  return phone.length <= 6 ? '•••' : `${phone.slice(0, 4)}${'•'.repeat(phone.length - 6)}${phone.slice(-2)}`;
}

/**
 * Records that `friendUserId` joined through `referrerUserId`'s link, in the registration's transaction. One's own
 * code cannot refer oneself; a friend has at most one referrer (unique), so at most one reward per pair.
 */
export async function recordReferral(
  tx: Executor,
  referral: { referrerUserId: string; friendUserId: string; joinedAt: Date },
): Promise<void> {
  if (referral.referrerUserId === referral.friendUserId) return;
  const windowEndsAt = new Date(referral.joinedAt.getTime() + WINDOW_MS);
  await repo.insertRewardOnce(tx, {
    referrerUserId: referral.referrerUserId,
    friendUserId: referral.friendUserId,
    windowEndsAt,
    nextCheckAt: new Date(Math.min(referral.joinedAt.getTime() + CHECK_EVERY_MS, windowEndsAt.getTime())),
    createdAt: referral.joinedAt,
  });
}

/** Where a reward stands now: what the friend's fees in the window earn, and whether the friend qualifies. */
async function standingOf(db: Executor, reward: repo.RewardRow) {
  const windowStart = new Date(reward.windowEndsAt.getTime() - WINDOW_MS);
  const { feesCents, payers } = await feesOfRecipient(db, reward.friendUserId, windowStart, reward.windowEndsAt);
  return { amountCents: rewardOf(feesCents), qualifies: payers >= REFERRAL_MIN_PAYERS };
}

/**
 * After refunds or disputes changed what these users kept of a payment, in that transaction: a reward paid for one of
 * them as a friend is taken back once the friend no longer qualifies (tips from 3 different payers, of payments not
 * wholly taken back, in the window), like a lost dispute: from the referrer's main, and what main no longer has as
 * their debt. The reward row is locked after the refund changed the shares, so of two refunds at once the later one
 * judges with both counted; its status and the entry's reference take a reward back once.
 */
export async function takeBackRewardsNoLongerEarned(tx: Executor, userIds: string[], now: Date): Promise<void> {
  for (const friendUserId of userIds) {
    const reward = await repo.lockRewardOfFriend(tx, friendUserId);
    if (reward?.status !== 'paid' || (await standingOf(tx, reward)).qualifies) continue;
    const amountCents = reward.amountCents ?? 0;
    if (amountCents > 0) {
      const main: UserAccountRef = { userId: reward.referrerUserId, kind: 'main' };
      const debt: UserAccountRef = { userId: reward.referrerUserId, kind: 'debt' };
      const balanceOf = await lockBalances(tx, [main, debt]);
      const fromMain = Math.min(amountCents, Math.max(0, balanceOf(main)));
      const postings: Posting[] = [{ account: { platform: 'referral_expense' }, amountCents }];
      if (fromMain > 0) postings.push({ account: main, amountCents: -fromMain });
      if (amountCents > fromMain) postings.push({ account: debt, amountCents: fromMain - amountCents });
      await postEntry(tx, { kind: 'referral_taken_back', reference: `referral:${reward.id}:taken_back`, postings });
    }
    await repo.updateReward(tx, reward.id, { status: 'taken_back', settledAt: now });
  }
}

export type ReferralsService = ReturnType<typeof createReferralsService>;

/**
 * Whether the referrer has deleted the account: a reward due then is void, never paid to it (nothing lands on a
 * deleted account; a restore does not bring it back). Main is locked first: a deletion locks it too before it commits,
 * so either it sees the paid reward (and is refused) or this sees the deletion.
 */
async function hasDeleted(tx: Executor, userId: string): Promise<boolean> {
  await lockBalances(tx, [{ userId, kind: 'main' }]);
  return (await findDeletedAmong(tx, [userId])).size > 0;
}

export function createReferralsService({ db, publicUrl }: { db: Database; publicUrl: string }) {
  return {
    /** The user's link and code, and the totals: earned (paid rewards) and pending (accrued by friends within 90 days). */
    async summary(userId: string, clientId: string): Promise<ReferralSummary> {
      await requireOwnClient(db, userId, clientId);
      const user = (await findUserById(db, userId))!;
      const rewards = await repo.listRewardsOfReferrer(db, userId, LIST_LIMIT);
      let earned = 0;
      let pending = 0;
      for (const reward of rewards) {
        if (reward.status === 'paid') earned += reward.amountCents ?? 0;
        else if (reward.status === 'pending') pending += (await standingOf(db, reward)).amountCents;
      }
      return {
        code: user.referralCode,
        link: `${publicUrl}/registration?ref=${encodeURIComponent(user.referralCode)}`,
        friends: rewards.length,
        earned_cents: earned,
        pending_cents: pending,
        cap_cents: REFERRAL_CAP_CENTS,
        window_days: REFERRAL_WINDOW_DAYS,
        min_payers: REFERRAL_MIN_PAYERS,
        currency: 'EUR',
      };
    },

    /**
     * Who invites the visitor of a referral link, by the public name of their card, for the sign-up page to say so.
     * An unknown code, a deleted account or one without a card names nobody (404): the page then says nothing.
     */
    async inviter(code: string): Promise<ReferralInviter> {
      const user = await findUserByReferralCode(db, code);
      if (!user || user.deletedAt) throw new AppError('not_found');
      const card = await findPrivateCardOfUser(db, user.id);
      if (!card) throw new AppError('not_found');
      return { inviter_name: card.public_name };
    },

    /** The invited friends, newest first: public name (or masked phone), joined date, status and earned so far. */
    async list(userId: string, clientId: string): Promise<ReferralFriend[]> {
      await requireOwnClient(db, userId, clientId);
      const rewards = await repo.listRewardsOfReferrer(db, userId, LIST_LIMIT);
      return Promise.all(
        rewards.map(async (reward) => {
          const [friend, card] = await Promise.all([
            findUserById(db, reward.friendUserId),
            findPrivateCardOfUser(db, reward.friendUserId),
          ]);
          const earned =
            reward.status === 'pending'
              ? (await standingOf(db, reward)).amountCents
              : reward.status === 'paid'
                ? (reward.amountCents ?? 0)
                : 0;
          return {
            id: reward.id,
            name: card?.public_name ?? maskPhone(friend?.phone ?? ''),
            joined_at: reward.createdAt.toISOString(),
            status: reward.status,
            earned_cents: earned,
            window_ends_at: reward.windowEndsAt.toISOString(),
          };
        }),
      );
    },

    /**
     * The reward job's step: one pending reward due for a look, locked (SKIP LOCKED). It is paid — one REFERRAL_PAYIN
     * from `referral_expense` to the referrer's main — once the friend qualifies (tips from 3 different payers) and
     * either the cap is reached or the 90 days are over; at the end of the window without a reward it is void;
     * otherwise it is looked at again a day later. The row's state, changed in the same transaction as the money,
     * and the entry's unique reference make every rerun harmless. Answers false when nothing is due.
     */
    async rewardOneDue(now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const reward = await repo.claimDueReward(tx, now);
        if (!reward) return false;
        const { amountCents, qualifies } = await standingOf(tx, reward);
        const windowOver = now.getTime() >= reward.windowEndsAt.getTime();
        const payable = qualifies && amountCents > 0 && (amountCents === REFERRAL_CAP_CENTS || windowOver);
        if (payable && !(await hasDeleted(tx, reward.referrerUserId))) {
          await postEntry(tx, {
            kind: 'referral_reward',
            reference: `referral:${reward.id}:reward`,
            postings: [
              { account: { userId: reward.referrerUserId, kind: 'main' }, amountCents },
              { account: { platform: 'referral_expense' }, amountCents: -amountCents },
            ],
          });
          const friend = await findUserById(tx, reward.friendUserId);
          await recordReferralPayin(
            tx,
            { userId: reward.referrerUserId, amountCents, friend: maskPhone(friend?.phone ?? '') },
            now,
          );
          await repo.updateReward(tx, reward.id, { status: 'paid', amountCents, settledAt: now });
        } else if (windowOver || payable) {
          await repo.updateReward(tx, reward.id, { status: 'void', amountCents: 0, settledAt: now });
        } else {
          await repo.updateReward(tx, reward.id, {
            nextCheckAt: new Date(Math.min(now.getTime() + CHECK_EVERY_MS, reward.windowEndsAt.getTime())),
          });
        }
        return true;
      });
    },
  };
}
