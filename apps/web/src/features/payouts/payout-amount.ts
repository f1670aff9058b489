import { PAYOUT_FEE_CENTS, PAYOUT_MIN_CENTS } from '@tipcard/shared/payouts/schemas';

/** Why an amount cannot be withdrawn (spec 5): the translation keys are `payouts:amount.errors.<reason>`. */
export type AmountProblem = 'wrong_amount' | 'minimum' | 'not_enough';

export type AmountCheck = { ok: true; cents: number } | { ok: false; problem: AmountProblem };

/** Digits, then at most two decimals after a point or a comma ("10", "10.5", "10,50"); spaces group thousands. */
const AMOUNT_PATTERN = /^(\d{1,7})(?:[.,](\d{0,2}))?$/;

/**
 * The typed amount in integer cents, or null when it is not a number or has more than two decimals ('Wrong amount').
 * String arithmetic only, so "0.29" is 29 cents and never 28.999….
 */
export function parseAmountCents(text: string): number | null {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  const match = AMOUNT_PATTERN.exec(compact);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * The form's rules, in the order the user meets them: a number with at most two decimals, at least 3 EUR, and a
 * main balance that covers the amount plus the 2 EUR fee (the fee is taken on top: the user receives what they typed).
 */
export function checkAmount(text: string, mainCents: number): AmountCheck {
  const cents = parseAmountCents(text);
  if (cents === null) return { ok: false, problem: 'wrong_amount' };
  if (cents < PAYOUT_MIN_CENTS) return { ok: false, problem: 'minimum' };
  if (cents + PAYOUT_FEE_CENTS > mainCents) return { ok: false, problem: 'not_enough' };
  return { ok: true, cents };
}

/** "Withdraw all": the largest amount the balance covers with the fee (main − 2 EUR, to the cent), or null below 3 EUR. */
export function withdrawAllCents(mainCents: number): number | null {
  const cents = mainCents - PAYOUT_FEE_CENTS;
  return cents >= PAYOUT_MIN_CENTS ? cents : null;
}

/** Cents as the amount field shows them: "12.34" (a point, no thousands separator, so it reads back the same). */
export function centsToInput(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
