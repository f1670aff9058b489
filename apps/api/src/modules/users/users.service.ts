import { randomBytes } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import { ACCOUNT_RESTORE_DAYS, type Locale } from '@tipcard/shared/constants';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './users.repository.ts';

export type { Client, User } from './users.repository.ts';

const REFERRAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newReferralCode(): string {
  return Array.from(randomBytes(8), (byte) => REFERRAL_ALPHABET[byte % REFERRAL_ALPHABET.length]).join('');
}

export const findUserByPhone = repo.findUserByPhone;
/** The user whose referral code this is, whatever case it was typed in. */
export const findUserByReferralCode = (db: Executor, code: string) => repo.findUserByReferralCode(db, code.toUpperCase());
export const findUserById = repo.findUserById;
export const listClients = repo.listClients;
export const lockUser = repo.lockUser;
export const keyShareLockUser = repo.keyShareLockUser;
/** Which of these users deleted their account: money can no longer be given to them. */
export const findDeletedAmong = repo.findDeletedAmong;
export const findSessionState = repo.findSessionState;
/** Ends every access token of the user at once (deletion, erasure): they carry a session version now behind. */
export const endAccessTokens = repo.incrementSessionVersion;

/** A verified sign-up becomes a user with one private client (spec 3). Runs inside the caller's transaction. */
export async function createUserWithPrivateClient(
  tx: Executor,
  input: { phone: string; promoSource: string | null; referralCode: string | null; language?: Locale },
) {
  const referrer = input.referralCode ? await findUserByReferralCode(tx, input.referralCode) : undefined;
  const user = await repo.insertUser(tx, {
    phone: input.phone,
    promoSource: input.promoSource,
    referredByUserId: referrer?.id ?? null,
    referralCode: newReferralCode(),
    ...(input.language ? { language: input.language } : {}),
  });
  const client = await repo.insertClient(tx, { userId: user.id, type: 'private' });
  return { user, client };
}

/**
 * The client when the user owns it; 404 otherwise, so ids of other users' clients reveal nothing. A deleted account
 * answers 401 (its sessions ended with the deletion statement; an access token may outlive it by minutes).
 */
export async function requireOwnClient(db: Executor, userId: string, clientId: string) {
  const row = await repo.findClientWithUser(db, clientId);
  if (!row || row.client.userId !== userId) throw new AppError('not_found');
  if (row.user.deletedAt) throw new AppError('unauthorized');
  return row.client;
}

/** The user row locked for a change of the account's state (deletion, restore, erasure). */
export const setDeletion = repo.setDeletion;
export const claimDueErasure = repo.claimDueErasure;
export const markErased = repo.markErased;
export const claimDuePurge = repo.claimDuePurge;
export const markPurged = repo.markPurged;
export const updateNotificationChoices = repo.updateNotificationChoices;
export const updateLanguage = repo.updateLanguage;

/** The end of a deleted account's restore window. */
export function restoreDeadline(deletedAt: Date): Date {
  return new Date(deletedAt.getTime() + ACCOUNT_RESTORE_DAYS * 24 * 60 * 60 * 1000);
}

// Back office (issue 15): look-up and compliance blocks.
export const searchUsersByPhone = repo.searchUsersByPhone;
export const setUserBlock = repo.setUserBlock;
