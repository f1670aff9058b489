import { tipBreakdown, TIP_MAX_CENTS, TIP_MIN_CENTS, TIP_PRESETS_CENTS, type TipBreakdown } from '@tipcard/shared/payments/fees';
import type { PublicCard } from '@tipcard/shared/payments/schemas';
import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import { guestMoney } from './guest-i18n.ts';

// Shared with the invoice form of the signed-in app.
export { parseAmountInput };

export interface AmountLimits {
  minCents: number;
  maxCents: number;
}

/** The card's limits as the server sent them; the shared defaults when a field is missing. */
export function limitsOf(card: Pick<PublicCard, 'min_amount_cents' | 'max_amount_cents'> | null | undefined): AmountLimits {
  return { minCents: card?.min_amount_cents ?? TIP_MIN_CENTS, maxCents: card?.max_amount_cents ?? TIP_MAX_CENTS };
}

export function presetsOf(card: Pick<PublicCard, 'preset_amounts_cents'> | null | undefined): readonly number[] {
  return card?.preset_amounts_cents?.length ? card.preset_amounts_cents : TIP_PRESETS_CENTS;
}

export type AmountProblem = 'required' | 'range';

/** Why the chosen amount cannot be paid, or null when it can. */
export function amountProblem(cents: number | null, limits: AmountLimits): AmountProblem | null {
  if (cents === null) return 'required';
  if (cents < limits.minCents || cents > limits.maxCents) return 'range';
  return null;
}

/** The amount the form would pay: a typed custom amount wins over a preset; null while nothing valid is chosen. */
export function chosenAmount(preset: number | null, customText: string): number | null {
  if (customText.trim()) return parseAmountInput(customText);
  return preset;
}

/**
 * What the summary shows before paying: the same integer maths as the server (shared `tipBreakdown`), or null
 * while the amount cannot be paid, so no figure is ever shown for an amount the server would refuse.
 */
export function summaryOf(
  cents: number | null,
  limits: AmountLimits,
  feePercent: number,
  coverFee: boolean,
): TipBreakdown | null {
  if (cents === null || amountProblem(cents, limits)) return null;
  return tipBreakdown(cents, feePercent, coverFee);
}

/** A preset button's label: whole euros without decimals ("€5", "5 €"), the rest as the spec's amount. */
export function presetLabel(cents: number): string {
  const amount = guestMoney(cents);
  return cents % 100 === 0 ? amount.replace(/[.,]00/, '') : amount;
}

/** The fee percentage in the guest's language ("5", "2,5"). */
export function formatPercent(feePercent: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(feePercent);
}
