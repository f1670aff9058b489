import { z } from 'zod';
import type { ActivityType } from '../constants.ts';
import { TIP_MAX_CENTS, TIP_MIN_CENTS, TIP_PRESETS_CENTS } from '../payments/fees.ts';
import { rule } from '../validation-rules.ts';

/** How many amounts the guest page offers as buttons (DESIGN: 3 / 5 / 10 / 20 EUR, plus a typed amount). */
export const PRESET_AMOUNT_COUNT = TIP_PRESETS_CENTS.length;

/**
 * The amounts a card offers until its owner chooses others: DESIGN's for most work, smaller where guests leave less
 * (a room cleaned, a leaflet handed out), larger for a charity's gift.
 */
export const PRESETS_BY_ACTIVITY: Record<ActivityType, readonly number[]> = {
  WAITER: TIP_PRESETS_CENTS,
  BEAUTY_INDUSTRY: TIP_PRESETS_CENTS,
  OTHER: TIP_PRESETS_CENTS,
  PRODUCTS_AND_SERVICES: TIP_PRESETS_CENTS,
  DONATION: TIP_PRESETS_CENTS,
  HOUSEMAID: [200, 300, 500, 1_000],
  DISTRIBUTION: [100, 200, 300, 500],
};

/** What the guest sees on a card: the owner's choice, else its activity's amounts. */
export function presetsOfCard(activity: ActivityType, chosen: readonly number[] | null): readonly number[] {
  return chosen ?? PRESETS_BY_ACTIVITY[activity];
}

/** Each amount within the tip bounds, each larger than the one before (so none repeats). */
export function presetOrderProblem(amounts: readonly number[]): number | null {
  const index = amounts.findIndex((amount, i) => i > 0 && amount <= amounts[i - 1]!);
  return index === -1 ? null : index;
}

/** The owner's choice in a card's body: four amounts in cents, or null to follow the activity's. */
export const presetAmountsBody = z
  .array(
    z
      .number({ error: rule('amount_range') })
      .int(rule('amount_range'))
      .min(TIP_MIN_CENTS, rule('amount_range'))
      .max(TIP_MAX_CENTS, rule('amount_range')),
  )
  .length(PRESET_AMOUNT_COUNT, rule('valid'))
  .superRefine((amounts, context) => {
    const index = presetOrderProblem(amounts);
    if (index !== null) context.addIssue({ code: 'custom', path: [index], message: rule('preset_order') });
  })
  .nullable();
