import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { proportionalSplit } from './proportional-split.ts';

describe('proportionalSplit', () => {
  it('sums to the amount, keeps every share within its part and within a cent of its exact share', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 12 })
          .chain((sizes) => fc.tuple(fc.constant(sizes), fc.integer({ min: 0, max: sizes.reduce((a, b) => a + b, 0) }))),
        ([sizes, amount]) => {
          const shares = proportionalSplit(amount, sizes);
          const whole = sizes.reduce((a, b) => a + b, 0);
          expect(shares.reduce((a, b) => a + b, 0)).toBe(amount);
          shares.forEach((share, i) => {
            expect(Number.isInteger(share)).toBe(true);
            expect(share).toBeGreaterThanOrEqual(0);
            expect(share).toBeLessThanOrEqual(sizes[i]!);
            if (whole > 0) expect(Math.abs(share - (amount * sizes[i]!) / whole)).toBeLessThan(1);
          });
        },
      ),
    );
  });

  it('gives all or nothing at the ends, and refuses more than the whole', () => {
    expect(proportionalSplit(0, [950, 50])).toEqual([0, 0]);
    expect(proportionalSplit(1_000, [950, 50])).toEqual([950, 50]);
    expect(proportionalSplit(500, [950, 50])).toEqual([475, 25]);
    expect(proportionalSplit(10, [5, 5, 5])).toEqual([4, 3, 3]);
    expect(() => proportionalSplit(1_001, [950, 50])).toThrow(RangeError);
  });
});
