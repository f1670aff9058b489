import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import type { GuestFormStart } from '@tipcard/shared/payments/guest-form';
import type { z } from 'zod';
import { createPaymentBody } from '@tipcard/shared/payments/schemas';

/** The form's fields as a plain POST sends them (application/x-www-form-urlencoded). */
export interface GuestFormFields {
  amount?: string;
  custom_amount?: string;
  cover_fee?: string;
  rating?: string;
  message?: string;
  terms?: string;
  idempotency_key?: string;
  wallet?: string;
  /** The anti-bot widget's token, when the operator configured the check (its field name). */
  'cf-turnstile-response'?: string;
}

/**
 * Reads a plain POST of the tip form: the JSON API's body when the same validation accepts it, and in every case
 * what the form shows again (the guest's entries and which fields are wrong), so a refusal loses nothing.
 */
export function readGuestForm(
  fields: GuestFormFields,
  presets: readonly number[],
): { body: z.output<typeof createPaymentBody> | null; start: GuestFormStart } {
  const custom = (fields.custom_amount ?? '').trim();
  const preset = Number(fields.amount);
  const presetCents = presets.includes(preset) ? preset : null;
  const amountCents = custom ? parseAmountInput(custom) : presetCents;
  const ratingValue = Number(fields.rating);
  const rating = Number.isInteger(ratingValue) && ratingValue >= 1 && ratingValue <= 5 ? ratingValue : null;
  const message = (fields.message ?? '').trim();
  const terms = fields.terms === '1' || fields.terms === 'on';
  const candidate = {
    amount_cents: amountCents,
    cover_fee: fields.cover_fee === '1' || fields.cover_fee === 'on',
    ...(rating ? { rating } : {}),
    ...(message ? { message } : {}),
    terms_accepted: terms,
  };
  const parsed = createPaymentBody.safeParse(candidate);
  const problems = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => String(issue.path[0])));
  return {
    body: parsed.success ? parsed.data : null,
    start: {
      preset_cents: custom ? null : presetCents,
      custom,
      cover_fee: candidate.cover_fee,
      rating,
      message: (fields.message ?? '').slice(0, 1_000),
      terms,
      notice: null,
      payment_id: null,
      errors: {
        ...(problems.has('amount_cents') ? { amount: true } : {}),
        ...(problems.has('terms_accepted') ? { terms: true } : {}),
      },
    },
  };
}
