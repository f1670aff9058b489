import { describe, expect, it } from 'vitest';
import { formatPercent } from '@tipcard/shared/venue-tips/schemas';
import { basisPointsOf, percentInput } from './percentages.ts';

describe('percentages as typed', () => {
  it('reads whole and decimal percentages with a point or a comma into basis points', () => {
    expect(['70', '33,34', '33.3', '0', '100', '12 %', ' 5,5 '].map(basisPointsOf)).toEqual([
      7000, 3334, 3330, 0, 10_000, 1200, 550,
    ]);
  });
  it('refuses what is not a percentage from 0 to 100 with at most two decimals', () => {
    expect(['', 'abc', '-5', '100.01', '101', '1.234', '1e2'].map(basisPointsOf)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
  it('writes basis points back for the field and for reading', () => {
    expect([7000, 3334, 3330, 5].map(percentInput)).toEqual(['70', '33.34', '33.3', '0.05']);
    expect(basisPointsOf(percentInput(3334))).toBe(3334);
    expect(formatPercent(3334, 'fr')).toMatch(/^33,34\s%$/);
  });
});
