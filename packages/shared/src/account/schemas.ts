import { z } from 'zod';

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
