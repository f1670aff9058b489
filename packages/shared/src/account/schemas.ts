import { z } from 'zod';
import { requiredString } from '../validation.ts';

/** The answer of `POST /user/deletion_statements` and `POST /user/restore`: the account's state after the call. */
export const accountStateSchema = z.object({
  status: z.enum(['active', 'deleted']),
  /** While deleted: the last moment a sign-in can restore the account. */
  restore_until: z.string().nullable(),
});
export type AccountState = z.infer<typeof accountStateSchema>;

/** Settings → notifications (`GET`/`PATCH /clients/{id}/notifications`): which texts the user wants. */
export const notificationChoicesSchema = z.object({
  sms_support_replies: z.boolean(),
  /** A text when a withdrawal is paid or returned by the bank (the withdrawal's code is always sent). */
  sms_payouts: z.boolean(),
});
export type NotificationChoices = z.infer<typeof notificationChoicesSchema>;

/**
 * The body of `POST /user/deletion_statements`: none (Fastify gives null), empty, or the closing payout that empties the
 * balance with its SMS code; the payout and the deletion are made in one transaction or not at all.
 */
export const deletionStatementBody = z
  .object({ closing_payout: z.object({ id: z.uuid(), code: requiredString(16) }).optional() })
  .nullish();
export type DeletionStatementBody = z.input<typeof deletionStatementBody>;

/**
 * `GET /user/deletion_statements/preview`: what "Yes, delete" will do, so the dialog never offers it and then
 * refuses. `blocked`: the reasons (error codes) are listed and nothing can be deleted yet; `closing_payout`: the
 * available balance is paid out whole by a closing payout first (`closing`); `delete`: nothing is left to move.
 */
export const deletionPreviewSchema = z.object({
  outcome: z.enum(['delete', 'closing_payout', 'blocked']),
  blockers: z.array(z.string()),
  available_cents: z.number().int(),
  held_cents: z.number().int(),
  closing: z.object({ amount_cents: z.number().int(), fee_cents: z.number().int() }).nullable(),
});
export type DeletionPreview = z.infer<typeof deletionPreviewSchema>;
