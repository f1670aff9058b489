import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargeDateOf, retryDateOf } from './charge-date.ts';

const day = (date: Date) => date.toISOString().slice(0, 10);
const starts = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2040-12-31T23:59:59Z'), noInvalidDate: true });

describe('the monthly charge date', () => {
  it('keeps the start day, or the last day of a shorter month, without drifting', () => {
    const start = new Date('2027-01-31T15:20:00Z');
    expect([0, 1, 2, 3, 13].map((period) => day(chargeDateOf(start, period)))).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2028-02-29',
    ]);
    expect(day(chargeDateOf(new Date('2028-01-30T00:00:00Z'), 1))).toBe('2028-02-29');
  });

  it('falls in the right month, on the start day or the month’s last day, for any start and month', () => {
    fc.assert(
      fc.property(starts, fc.integer({ min: 0, max: 240 }), (start, period) => {
        const date = chargeDateOf(start, period);
        const months = (date.getUTCFullYear() - start.getUTCFullYear()) * 12 + date.getUTCMonth() - start.getUTCMonth();
        expect(months).toBe(period);
        const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
        expect(date.getUTCDate()).toBe(Math.min(start.getUTCDate(), lastDay));
      }),
    );
  });

  it('charges each month once: dates strictly increase, one per calendar month, and every retry stays before the next month’s charge', () => {
    fc.assert(
      fc.property(starts, fc.integer({ min: 1, max: 120 }), (start, periods) => {
        const dates = Array.from({ length: periods + 1 }, (_, period) => chargeDateOf(start, period));
        const months = new Set(dates.map((date) => date.toISOString().slice(0, 7)));
        expect(months.size).toBe(dates.length);
        for (let period = 1; period < dates.length; period += 1) {
          expect(dates[period]!.getTime()).toBeGreaterThan(dates[period - 1]!.getTime());
          for (const failures of [1, 2, 3])
            expect(retryDateOf(start, period - 1, failures)!.getTime()).toBeLessThan(dates[period]!.getTime());
        }
        expect(retryDateOf(start, 1, 4)).toBeNull();
      }),
    );
  });
});
