/*
 * What the guest's tip page and the server that renders it share (no zod here: the page's script imports this).
 */

/** Why the guest's form is shown again instead of the checkout, as an inline message above Pay. */
export const GUEST_FORM_NOTICES = ['failed', 'canceled', 'timeout', 'error', 'rate_limited', 'bot_check', 'changed'] as const;
export type GuestFormNotice = (typeof GUEST_FORM_NOTICES)[number];

/** The wallets the guest page offers beside Pay; the hosted checkout opens on the chosen one. */
export const GUEST_WALLETS = ['apple_pay', 'google_pay'] as const;
export type GuestWallet = (typeof GUEST_WALLETS)[number];

/**
 * What the guest's tip form starts from: empty with an amount preselected, what the guest entered in a payment that
 * did not go through, or what a plain (no JavaScript) POST sent back with its problems.
 */
export interface GuestFormStart {
  /** A preset's cents, or null when `custom` holds the amount. */
  preset_cents: number | null;
  custom: string;
  cover_fee: boolean;
  rating: number | null;
  message: string;
  terms: boolean;
  notice: GuestFormNotice | null;
  /** The payment the notice is about (the timeout's "check again" asks for it). */
  payment_id: string | null;
  /** A donation's donor and frequency, kept like the amount (null on a tip's form). */
  donor: GuestDonor | null;
  errors: { amount?: boolean; terms?: boolean; donor_name?: boolean; email?: boolean; donor_code?: boolean };
}

/** Who gives, on a DONATION card's form: a declined or refused gift comes back with them, monthly still monthly. */
export interface GuestDonor {
  name: string;
  email: string;
  code: string;
  monthly: boolean;
}

/** The checkout address with the wallet the guest tapped: the hosted checkout opens on it (others ignore it). */
export function checkoutWithWallet(checkoutUrl: string, wallet: string | null | undefined): string {
  if (!wallet || !(GUEST_WALLETS as readonly string[]).includes(wallet)) return checkoutUrl;
  const [address = '', fragment] = checkoutUrl.split('#', 2);
  return `${address}${address.includes('?') ? '&' : '?'}wallet=${wallet}${fragment === undefined ? '' : `#${fragment}`}`;
}

/** A successful payment as its success page shows it, after the server checked that it is this card's and paid. */
export interface GuestSuccess {
  id: string;
  /** What the guest quotes to support and finds in the receipt: the payment id's first 8 characters, upper case. */
  reference: string;
  amount_cents: number;
  total_cents: number;
  /** A monthly donation's next charge (ISO date and time); null for anything else. */
  next_charge_at: string | null;
  /** The payer's receipt (its signed link, in the page's language; docs/decisions/0042); null while it has none. */
  receipt_url: string | null;
  /** The card owner's thank-you (decision 0047): plain text to show escaped, and its photo's URL; null without one. */
  thank_you: ThankYou | null;
}

/** What the guest reads from the card's owner after paying. */
export interface ThankYou {
  text: string;
  image_url: string | null;
}

/** The e-mailed receipt's outcome, shown on the success page after its plain POST. */
export const RECEIPT_OUTCOMES = ['sent', 'invalid', 'rate_limited'] as const;
export type ReceiptOutcome = (typeof RECEIPT_OUTCOMES)[number];

/** The reference of a payment (see GuestSuccess). */
export function paymentReference(paymentId: string): string {
  return paymentId.replace(/-/g, '').slice(0, 8).toUpperCase();
}

/** The amount chosen when the page opens (5 EUR with the default presets): one tap less to a tip. */
export function defaultPreset(presets: readonly number[]): number | null {
  return presets[1] ?? presets[0] ?? null;
}
