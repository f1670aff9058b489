import { addDays, rigaDayAndHour, rigaTime, type Day } from './business-days.ts';

/**
 * When automatic payouts run (docs/decisions/0044): pure functions of an instant, in Riga's calendar like the rest of
 * the payouts. A dated schedule runs at 09:00 Riga on its day, before the 14:00 cut-off, so a business day's run is
 * sent the same day. A threshold schedule looks at the balance every quarter of an hour.
 */
export const SCHEDULE_RUN_HOUR = 9;
export const THRESHOLD_CHECK_MS = 15 * 60_000;

export type ScheduleRule =
  { kind: 'weekly'; weekday: number } | { kind: 'monthly'; monthDay: number } | { kind: 'threshold'; thresholdCents: number };

/** ISO weekday of a day: 1 Monday … 7 Sunday. */
export const isoWeekday = (day: Day) => ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

const lastDayOfMonth = (day: Day) => {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
};

/** Whether a dated schedule runs on `day`: its weekday, or its month day (the last day for 29–31 in shorter months). */
export function runsOn(rule: Exclude<ScheduleRule, { kind: 'threshold' }>, day: Day): boolean {
  if (rule.kind === 'weekly') return isoWeekday(day) === rule.weekday;
  return Number(day.slice(8, 10)) === Math.min(rule.monthDay, lastDayOfMonth(day));
}

/** The first run strictly after `after`. */
export function nextRunAt(rule: ScheduleRule, after: Date): Date {
  if (rule.kind === 'threshold') return new Date(after.getTime() + THRESHOLD_CHECK_MS);
  // 32 days always hold a weekday's and a month day's next occurrence.
  for (let day = rigaDayAndHour(after).day, i = 0; i <= 32; day = addDays(day, 1), i += 1) {
    const at = runsOn(rule, day) ? rigaTime(day, SCHEDULE_RUN_HOUR) : undefined;
    if (at && at > after) return at;
  }
  throw new Error('unreachable: a schedule runs at least once a month');
}

/** The period a run at `at` belongs to, the key of "one payout per user and period": its Riga day. */
export const periodOf = (at: Date): Day => rigaDayAndHour(at).day;
