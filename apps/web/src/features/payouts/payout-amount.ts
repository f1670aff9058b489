import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import { PAYOUT_FEE_CENTS, PAYOUT_MIN_CENTS } from '@tipcard/shared/payouts/schemas';

/** Why an amount cannot be withdrawn (spec 5): the translation keys are `payouts:amount.errors.<reason>`. */
export type AmountProblem = 'wrong_amount' | 'minimum' | 'not_enough';

export type AmountCheck = { ok: true; cents: number } | { ok: false; problem: AmountProblem };

/**
 * The form's rules, in the order the user meets them: a number with at most two decimals ('Wrong amount'; the field
 * takes a number alone, no € sign), at least 3 EUR, and a main balance that covers the amount plus the 2 EUR fee (the
 * fee is taken on top: the user receives what they typed).
 */
export function checkAmount(text: string, mainCents: number): AmountCheck {
  const cents = parseAmountInput(text, { euroSign: false });
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
