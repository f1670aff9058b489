import { randomBytes } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repo from './users.repository.ts';

export type { Client, User } from './users.repository.ts';

const REFERRAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newReferralCode(): string {
  return Array.from(randomBytes(8), (byte) => REFERRAL_ALPHABET[byte % REFERRAL_ALPHABET.length]).join('');
}

export const findUserByPhone = repo.findUserByPhone;
export const findUserById = repo.findUserById;
export const listClients = repo.listClients;

/** A verified sign-up becomes a user with one private client (spec 3). Runs inside the caller's transaction. */
export async function createUserWithPrivateClient(
  tx: Executor,
  input: { phone: string; promoSource: string | null; referralCode: string | null },
) {
  const referrer = input.referralCode ? await repo.findUserByReferralCode(tx, input.referralCode.toUpperCase()) : undefined;
  const user = await repo.insertUser(tx, {
    phone: input.phone,
    promoSource: input.promoSource,
    referredByUserId: referrer?.id ?? null,
    referralCode: newReferralCode(),
  });
  const client = await repo.insertClient(tx, { userId: user.id, type: 'private' });
  return { user, client };
}

/** The client when the user owns it; 404 otherwise, so ids of other users' clients reveal nothing. */
export async function requireOwnClient(db: Executor, userId: string, clientId: string) {
  const client = await repo.findClient(db, clientId);
  if (!client || client.userId !== userId) throw new AppError('not_found');
  return client;
}
