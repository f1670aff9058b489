import { z } from 'zod';

/** The referral rule (DESIGN "Referrals"): the fees on a friend's tips in their first 90 days, up to 10 EUR. */
export const REFERRAL_CAP_CENTS = 1_000;
export const REFERRAL_WINDOW_DAYS = 90;
/** A friend earns the referrer something only once tips came from at least this many different payments. */
export const REFERRAL_MIN_PAYERS = 3;

export const referralSummarySchema = z.object({
  code: z.string(),
  /** The personal link, path form: `/registration?ref=CODE`. */
  link: z.string(),
  friends: z.number().int(),
  earned_cents: z.number().int(),
  /** What pending rewards have accrued so far (each up to the cap), paid when the cap is reached or at day 90. */
  pending_cents: z.number().int(),
  cap_cents: z.number().int(),
  window_days: z.number().int(),
  min_payers: z.number().int(),
  currency: z.literal('EUR'),
});
export type ReferralSummary = z.infer<typeof referralSummarySchema>;

export const referralFriendSchema = z.object({
  id: z.uuid(),
  /** The friend's public name, or their phone masked when they have no card yet. */
  name: z.string(),
  joined_at: z.string(),
  /**
   * pending: within the 90 days; paid: rewarded; void: ended without earning anything; taken_back: paid, then taken
   * back because refunds left the friend short of 3 payers.
   */
  status: z.enum(['pending', 'paid', 'void', 'taken_back']),
  earned_cents: z.number().int(),
  window_ends_at: z.string(),
});
export type ReferralFriend = z.infer<typeof referralFriendSchema>;

/** GET /api/public/referrals/{code}: who invites the visitor of a `/registration?ref=CODE` link, by their public name. */
export const referralInviterSchema = z.object({ inviter_name: z.string() });
export type ReferralInviter = z.infer<typeof referralInviterSchema>;
