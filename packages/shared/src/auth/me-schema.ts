import { z } from 'zod';
import { ACTIVITY_TYPES } from '../constants.ts';

export const meSchema = z.object({
  id: z.uuid(),
  clients: z.array(z.object({ id: z.uuid(), type: z.enum(['private']) })),
  verification_required: z.boolean(),
  referral_available: z.boolean(),
  phone: z.string(),
  public_name: z.string().nullable(),
  welcome_phrase: z.string().nullable(),
  public_text: z.string().nullable(),
  photo: z.string().nullable(),
  activity_type: z.enum(ACTIVITY_TYPES).nullable(),
  country: z.string().nullable(),
  instagram: z.string().nullable(),
  facebook: z.string().nullable(),
  tiktok: z.string().nullable(),
  promo_source: z.string().nullable(),
  referral_code: z.string(),
  /** Set while the account is deleted and may still be restored (until `restore_until`). */
  deletion: z.object({ deleted_at: z.string(), restore_until: z.string() }).nullable(),
});
export type Me = z.infer<typeof meSchema>;
