/** A team's periods are its calendar months in UTC, named `yyyy-mm` (decision 0055). */

/** How long members may object once the admin has closed a period. */
export const OBJECTION_WINDOW_MS = 24 * 3_600_000;

/** How close the legal deadline of an unlocked period with tips must be for the admin to be warned. */
export const DEADLINE_WARNING_MS = 7 * 24 * 3_600_000;

/** How many months the periods list shows, the current one included. */
export const PERIODS_SHOWN = 12;

const two = (value: number) => String(value).padStart(2, '0');

/** The month of an instant, in UTC. */
export const monthOfInstant = (at: Date): string => `${at.getUTCFullYear()}-${two(at.getUTCMonth() + 1)}`;

/**
 * A month's half-open span [from, to) and its deadline: the end of the following month, by which the law wants the
 * tips of the month paid to the workers.
 */
export function periodSpan(month: string): { from: Date; to: Date; deadline: Date } {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return {
    from: new Date(Date.UTC(year, number - 1, 1)),
    to: new Date(Date.UTC(year, number, 1)),
    deadline: new Date(Date.UTC(year, number + 1, 1)),
  };
}

/** The months from `first` (the team's first) to the one of `now`, newest first, at most `PERIODS_SHOWN`. */
export function recentMonths(first: Date, now: Date): string[] {
  const months: string[] = [];
  const start = periodSpan(monthOfInstant(first)).from;
  for (
    let at = periodSpan(monthOfInstant(now)).from;
    at >= start && months.length < PERIODS_SHOWN;
    at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1))
  )
    months.push(monthOfInstant(at));
  return months;
}

/** Whether the admin is to be warned: tips in a period not locked whose deadline is 7 days away or less, or behind. */
export function deadlineSoon(month: string, now: Date, locked: boolean, tipCount: number): boolean {
  return !locked && tipCount > 0 && now.getTime() >= periodSpan(month).deadline.getTime() - DEADLINE_WARNING_MS;
}
