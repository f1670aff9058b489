import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, rigaDayAndHour } from './business-days.ts';
import {
  isoWeekday,
  nextRunAt,
  periodOf,
  runsOn,
  SCHEDULE_RUN_HOUR,
  THRESHOLD_CHECK_MS,
  type ScheduleRule,
} from './payout-schedule-dates.ts';

const instant = fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true });
const datedRule: fc.Arbitrary<Exclude<ScheduleRule, { kind: 'threshold' }>> = fc.oneof(
  fc.integer({ min: 1, max: 7 }).map((weekday) => ({ kind: 'weekly' as const, weekday })),
  fc.integer({ min: 1, max: 31 }).map((monthDay) => ({ kind: 'monthly' as const, monthDay })),
);

describe('next run of a schedule (09:00 Europe/Riga)', () => {
  it('known dates: weekdays, the 31st in short months, the DST change', () => {
    // Friday 20 November 2026, 12:00 Riga.
    const friday = new Date('2026-11-20T10:00:00Z');
    expect(nextRunAt({ kind: 'weekly', weekday: 1 }, friday).toISOString()).toBe('2026-11-23T07:00:00.000Z');
    expect(nextRunAt({ kind: 'weekly', weekday: 5 }, friday).toISOString()).toBe('2026-11-27T07:00:00.000Z');
    expect(nextRunAt({ kind: 'monthly', monthDay: 31 }, friday).toISOString()).toBe('2026-11-30T07:00:00.000Z');
    expect(nextRunAt({ kind: 'monthly', monthDay: 30 }, new Date('2027-02-01T00:00:00Z')).toISOString()).toBe(
      '2027-02-28T07:00:00.000Z',
    );
    // Summer time (UTC+3) from 29 March 2026.
    expect(nextRunAt({ kind: 'weekly', weekday: 1 }, new Date('2026-03-28T12:00:00Z')).toISOString()).toBe(
      '2026-03-30T06:00:00.000Z',
    );
    expect(nextRunAt({ kind: 'threshold', thresholdCents: 1000 }, friday).getTime()).toBe(friday.getTime() + THRESHOLD_CHECK_MS);
  });

  it('for any dated rule and instant: strictly later, at 09:00 Riga on a day the rule runs, and no run day skipped', () => {
    fc.assert(
      fc.property(datedRule, instant, (rule, after) => {
        const next = nextRunAt(rule, after);
        const { day, hour } = rigaDayAndHour(next);
        expect(next.getTime()).toBeGreaterThan(after.getTime());
        expect(hour).toBe(SCHEDULE_RUN_HOUR);
        expect(next.getUTCMinutes()).toBe(0);
        expect(runsOn(rule, day)).toBe(true);
        // Every day between `after`'s and the next run's either does not run or ran before `after`.
        for (let between = rigaDayAndHour(after).day; between < day; between = addDays(between, 1)) {
          if (runsOn(rule, between)) expect(between).toBe(rigaDayAndHour(after).day);
        }
        expect(periodOf(next)).toBe(day);
      }),
      { numRuns: 2_000 },
    );
  });

  it('successive runs: a weekly one every 7 days on its weekday, a monthly one once in each month', () => {
    fc.assert(
      fc.property(datedRule, instant, (rule, start) => {
        const runs = [nextRunAt(rule, start)];
        for (let i = 0; i < 14; i += 1) runs.push(nextRunAt(rule, runs.at(-1)!));
        const days = runs.map((run) => rigaDayAndHour(run).day);
        if (rule.kind === 'weekly') {
          days.forEach((day) => expect(isoWeekday(day)).toBe(rule.weekday));
          for (let i = 1; i < days.length; i += 1) expect(days[i]).toBe(addDays(days[i - 1]!, 7));
        } else {
          const months = days.map((day) => day.slice(0, 7));
          expect(new Set(months).size).toBe(months.length);
          for (let i = 1; i < months.length; i += 1) {
            const [y, m] = months[i - 1]!.split('-').map(Number) as [number, number];
            expect(months[i]).toBe(m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
