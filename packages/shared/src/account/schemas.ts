import { z } from 'zod';
import { LOCALES } from '../constants.ts';
import { requiredString, rule } from '../validation.ts';

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
  /** A text when a payment the user received is refunded to its payer (docs/decisions/0042). */
  sms_refunds: z.boolean(),
});
export type NotificationChoices = z.infer<typeof notificationChoicesSchema>;

/**
 * Settings → language (`GET`/`PATCH /clients/{id}/language`): the language of the texts, e-mails and PDFs the user is
 * sent (docs/decisions/0032); choosing it also switches the app.
 */
export const languageChoiceSchema = z.object({ language: z.enum(LOCALES, { error: rule('choice') }) });
export type LanguageChoice = z.infer<typeof languageChoiceSchema>;

/** The largest balance a gift names: an int4, as every amount the API takes (issue 24). */
const GIFT_MAX_CENTS = 2_147_483_647;

/**
 * The body of `POST /user/deletion_statements`: none (Fastify gives null), empty, or what empties the balance with the
 * deletion, in one transaction or not at all: the closing payout with its SMS code, or a gift of the whole balance to a
 * charity card (`amount_cents`: the balance the preview showed; a balance that moved since refuses it). Not both.
 */
export const deletionStatementBody = z
  .object({
    closing_payout: z.object({ id: z.uuid(), code: requiredString(16) }).optional(),
    gift: z
      .object({
        card_id: z.uuid({ error: rule('valid') }),
        amount_cents: z
          .number({ error: rule('number') })
          .int(rule('number'))
          .min(1, rule('number'))
          .max(GIFT_MAX_CENTS, rule('number')),
      })
      .optional(),
  })
  .refine((body) => !(body.closing_payout && body.gift), { message: rule('choice'), path: ['gift'] })
  .nullish();
export type DeletionStatementBody = z.input<typeof deletionStatementBody>;

/**
 * `GET /user/deletion_statements/preview`: what "Yes, delete" will do, so the dialog never offers it and then
 * refuses. `blocked`: the reasons (error codes) are listed and nothing can be deleted yet; `closing_payout`: the
 * available balance is paid out whole by a closing payout first (`closing`), or, the user's choice, given whole to a
 * charity card (the statement's `gift`, with `available_cents`); `delete`: nothing is left to move.
 */
export const deletionPreviewSchema = z.object({
  outcome: z.enum(['delete', 'closing_payout', 'blocked']),
  blockers: z.array(z.string()),
  available_cents: z.number().int(),
  held_cents: z.number().int(),
  closing: z.object({ amount_cents: z.number().int(), fee_cents: z.number().int() }).nullable(),
});
export type DeletionPreview = z.infer<typeof deletionPreviewSchema>;
