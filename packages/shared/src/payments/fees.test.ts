import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TIP_MAX_CENTS, TIP_MIN_CENTS, tipBreakdown } from './fees.ts';

describe('tipBreakdown', () => {
  it('takes 5% rounded half up, from the tip or on top of it', () => {
    expect(tipBreakdown(500, 5, false)).toEqual({ amountCents: 500, feeCents: 25, totalCents: 500, netCents: 475 });
    expect(tipBreakdown(500, 5, true)).toEqual({ amountCents: 500, feeCents: 25, totalCents: 525, netCents: 500 });
    expect(tipBreakdown(110, 5, false).feeCents).toBe(6); // 5.5 cents rounds up
    expect(tipBreakdown(109, 5, false).feeCents).toBe(5); // 5.45 cents rounds down
    expect(tipBreakdown(1_000, 0, true)).toEqual({ amountCents: 1_000, feeCents: 0, totalCents: 1_000, netCents: 1_000 });
  });

  it('never creates or loses a cent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: TIP_MIN_CENTS, max: TIP_MAX_CENTS }),
        fc.integer({ min: 0, max: 500 }).map((bp) => bp / 100),
        fc.boolean(),
        (amount, percent, cover) => {
          const tip = tipBreakdown(amount, percent, cover);
          for (const value of Object.values(tip)) expect(Number.isSafeInteger(value)).toBe(true);
          expect(tip.netCents + tip.feeCents).toBe(tip.totalCents);
          expect(tip.feeCents).toBeGreaterThanOrEqual(0);
          expect(tip.feeCents).toBeLessThanOrEqual(Math.ceil((amount * 5) / 100));
          expect(Math.abs(tip.feeCents * 10_000 - amount * Math.round(percent * 100))).toBeLessThanOrEqual(5_000);
          expect(cover ? tip.netCents : tip.totalCents).toBe(amount);
        },
      ),
    );
  });
});
