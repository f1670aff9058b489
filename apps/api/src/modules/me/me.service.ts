import type { Me } from '@tipcard/shared/auth/me-schema';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { findPrivateCardOfUser } from '../cards/cards.service.ts';
import { findUserById, listClients, restoreDeadline } from '../users/users.service.ts';
import { isVerificationRequired } from '../verification/verification.service.ts';

export type MeService = ReturnType<typeof createMeService>;

export function createMeService({ db, verificationLimitCents }: { db: Database; verificationLimitCents: number }) {
  return {
    /** GET /me: the user, its clients and the public profile of its private card. */
    async get(userId: string): Promise<Me> {
      const user = await findUserById(db, userId);
      if (!user) throw new AppError('unauthorized');
      const [clients, card, verificationRequired] = await Promise.all([
        listClients(db, userId),
        findPrivateCardOfUser(db, userId),
        isVerificationRequired(db, userId, verificationLimitCents),
      ]);
      return {
        id: user.id,
        clients: clients.map((client) => ({ id: client.id, type: client.type })),
        verification_required: verificationRequired,
        referral_available: card !== null,
        phone: user.phone,
        public_name: card?.public_name ?? null,
        welcome_phrase: card?.welcome_phrase ?? null,
        public_text: card?.public_text ?? null,
        photo: card?.image_url ?? null,
        activity_type: card?.activity_type ?? null,
        country: card?.country ?? null,
        instagram: card?.instagram ?? null,
        facebook: card?.facebook ?? null,
        tiktok: card?.tiktok ?? null,
        promo_source: user.promoSource,
        referral_code: user.referralCode,
        deletion: user.deletedAt
          ? { deleted_at: user.deletedAt.toISOString(), restore_until: restoreDeadline(user.deletedAt).toISOString() }
          : null,
      };
    },
  };
}
