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

/** What both forms share: the amount (a preset or a typed one), the fee choice and the terms. */
function readPayment(fields: GuestFormFields, presets: readonly number[]) {
  const custom = (fields.custom_amount ?? '').trim();
  const preset = Number(fields.amount);
  const presetCents = presets.includes(preset) ? preset : null;
  return {
    custom,
    presetCents: custom ? null : presetCents,
    amountCents: custom ? parseAmountInput(custom) : presetCents,
    coverFee: fields.cover_fee === '1' || fields.cover_fee === 'on',
    terms: fields.terms === '1' || fields.terms === 'on',
  };
}

/** The body's fields a form marks when the validation refuses them, by the form's name for each. */
const FORM_FIELDS = {
  amount_cents: 'amount',
  terms_accepted: 'terms',
  donor_name: 'donor_name',
  email: 'email',
  donor_code: 'donor_code',
} as const satisfies Record<string, keyof GuestFormStart['errors']>;

function refusedFields(parsed: z.ZodSafeParseResult<unknown>): GuestFormStart['errors'] {
  const errors: GuestFormStart['errors'] = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = FORM_FIELDS[String(issue.path[0]) as keyof typeof FORM_FIELDS];
    if (field) errors[field] = true;
  }
  return errors;
}

/**
 * Reads a plain POST of the tip form: the JSON API's body when the same validation accepts it, and in every case
 * what the form shows again (the guest's entries and which fields are wrong), so a refusal loses nothing.
 */
export function readGuestForm(
  fields: GuestFormFields,
  presets: readonly number[],
): { body: z.output<typeof createPaymentBody> | null; start: GuestFormStart } {
  const payment = readPayment(fields, presets);
  const ratingValue = Number(fields.rating);
  const rating = Number.isInteger(ratingValue) && ratingValue >= 1 && ratingValue <= 5 ? ratingValue : null;
  const message = (fields.message ?? '').trim();
  const parsed = createPaymentBody.safeParse({
    amount_cents: payment.amountCents,
    cover_fee: payment.coverFee,
    ...(rating ? { rating } : {}),
    ...(message ? { message } : {}),
    terms_accepted: payment.terms,
  });
  return {
    body: parsed.success ? parsed.data : null,
    start: {
      preset_cents: payment.presetCents,
      custom: payment.custom,
      cover_fee: payment.coverFee,
      rating,
      message: (fields.message ?? '').slice(0, 1_000),
      terms: payment.terms,
      notice: null,
      payment_id: null,
      donor: null,
      errors: refusedFields(parsed),
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
  const payment = readPayment(fields, presets);
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
    amount_cents: payment.amountCents,
    cover_fee: payment.coverFee,
    monthly: donor.monthly,
    locale,
    terms_accepted: payment.terms,
  });
  return {
    body: parsed.success ? parsed.data : null,
    start: {
      preset_cents: payment.presetCents,
      custom: payment.custom,
      cover_fee: payment.coverFee,
      rating: null,
      message: '',
      terms: payment.terms,
      notice: null,
      payment_id: null,
      donor,
      errors: refusedFields(parsed),
    },
  };
}
