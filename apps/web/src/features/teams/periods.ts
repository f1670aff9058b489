/** The statistics' and records' periods: this week (from Monday), this or last month, or chosen dates (both days included). */
export type Period = { kind: 'week' } | { kind: 'month' } | { kind: 'last_month' } | { kind: 'range'; from: string; to: string };

/** The period as the API's half-open [from, to) in local time; null while chosen dates are incomplete or reversed. */
export function rangeOf(period: Period, now: Date): { from: string; to: string } | null {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const endOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  if (period.kind === 'week') {
    const monday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - ((today.getDay() + 6) % 7));
    return { from: monday.toISOString(), to: endOfToday.toISOString() };
  }
  if (period.kind === 'month')
    return { from: new Date(today.getFullYear(), today.getMonth(), 1).toISOString(), to: endOfToday.toISOString() };
  if (period.kind === 'last_month')
    return {
      from: new Date(today.getFullYear(), today.getMonth() - 1, 1).toISOString(),
      to: new Date(today.getFullYear(), today.getMonth(), 1).toISOString(),
    };
  const [from, to] = [period.from, period.to].map((value) => /^(\d{4})-(\d{2})-(\d{2})$/.exec(value));
  if (!from || !to) return null;
  const start = new Date(Number(from[1]), Number(from[2]) - 1, Number(from[3]));
  const end = new Date(Number(to[1]), Number(to[2]) - 1, Number(to[3]) + 1);
  return start < end ? { from: start.toISOString(), to: end.toISOString() } : null;
}

/** A local day as a date input's value (YYYY-MM-DD): for the field, never for a reader. */
export function inputDay(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}
