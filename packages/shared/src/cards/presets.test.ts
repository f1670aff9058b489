import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_TYPES } from '../constants.ts';
import { TIP_MAX_CENTS, TIP_MIN_CENTS } from '../payments/fees.ts';
import { PRESET_AMOUNT_COUNT, PRESETS_BY_ACTIVITY, presetAmountsBody, presetOrderProblem, presetsOfCard } from './presets.ts';

const amount = fc.integer({ min: TIP_MIN_CENTS, max: TIP_MAX_CENTS });

describe('preset amounts', () => {
  it("every activity's amounts are a valid choice of their own", () => {
    for (const activity of ACTIVITY_TYPES) {
      expect(presetAmountsBody.safeParse([...PRESETS_BY_ACTIVITY[activity]]).success).toBe(true);
      expect(presetsOfCard(activity, null)).toEqual(PRESETS_BY_ACTIVITY[activity]);
    }
    expect(presetsOfCard('HOUSEMAID', [100, 200, 300, 400])).toEqual([100, 200, 300, 400]);
  });

  it('accepts any four rising amounts within the tip bounds', () => {
    fc.assert(
      fc.property(fc.uniqueArray(amount, { minLength: PRESET_AMOUNT_COUNT, maxLength: PRESET_AMOUNT_COUNT }), (amounts) => {
        const rising = [...amounts].sort((a, b) => a - b);
        expect(presetAmountsBody.safeParse(rising).success).toBe(true);
      }),
    );
  });

  it('refuses the first amount that does not rise, and only it', () => {
    fc.assert(
      fc.property(fc.array(amount, { minLength: PRESET_AMOUNT_COUNT, maxLength: PRESET_AMOUNT_COUNT }), (amounts) => {
        const index = presetOrderProblem(amounts);
        const parsed = presetAmountsBody.safeParse(amounts);
        if (index === null) {
          expect(parsed.success).toBe(true);
          return;
        }
        expect(amounts[index]!).toBeLessThanOrEqual(amounts[index - 1]!);
        expect(amounts.slice(0, index).every((value, i) => i === 0 || value > amounts[i - 1]!)).toBe(true);
        expect(parsed.success).toBe(false);
        expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([[index]]);
      }),
    );
  });
});
