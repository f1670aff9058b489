import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import type { Locale } from '@tipcard/shared/constants';
import { createDonationBody } from '@tipcard/shared/donations/schemas';
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
  /** A DONATION card's form: the donor and how often. */
  donor_name?: string;
  email?: string;
  donor_code?: string;
  frequency?: string;
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
      donor: null,
      errors: {
        ...(problems.has('amount_cents') ? { amount: true } : {}),
        ...(problems.has('terms_accepted') ? { terms: true } : {}),
      },
    },
  };
}

/**
 * Reads a plain POST of a DONATION card's form the same way: the donation call's body when its validation accepts
 * it, and the form to show again with the donor's entries (monthly still monthly) and which fields are wrong.
 */
export function readDonationForm(
  fields: GuestFormFields,
  presets: readonly number[],
  locale: Locale,
): { body: z.output<typeof createDonationBody> | null; start: GuestFormStart } {
  const { start: amountPart } = readGuestForm(fields, presets);
  const donor = {
    name: (fields.donor_name ?? '').slice(0, 300),
    email: (fields.email ?? '').slice(0, 300),
    code: (fields.donor_code ?? '').slice(0, 100),
    monthly: fields.frequency === 'monthly',
  };
  const parsed = createDonationBody.safeParse({
    donor_name: donor.name,
    email: donor.email,
    donor_code: donor.code,
    amount_cents: amountPart.preset_cents ?? (amountPart.custom ? parseAmountInput(amountPart.custom) : null),
    cover_fee: amountPart.cover_fee,
    monthly: donor.monthly,
    locale,
    terms_accepted: amountPart.terms,
  });
  const problems = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => String(issue.path[0])));
  return {
    body: parsed.success ? parsed.data : null,
    start: {
      ...amountPart,
      rating: null,
      message: '',
      donor,
      errors: {
        ...(problems.has('amount_cents') ? { amount: true } : {}),
        ...(problems.has('terms_accepted') ? { terms: true } : {}),
        ...(problems.has('donor_name') ? { donor_name: true } : {}),
        ...(problems.has('email') ? { email: true } : {}),
        ...(problems.has('donor_code') ? { donor_code: true } : {}),
      },
    },
  };
}
