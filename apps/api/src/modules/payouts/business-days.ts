/**
 * Business days for payouts (DESIGN "Payouts"): TARGET2 (T2) is closed on weekends, 1 January, Good Friday, Easter
 * Monday, 1 May, 25 and 26 December. Requests are processed on the day they come in when it is a business day and
 * they come before the 14:00 Europe/Riga cut-off, otherwise on the next business day; the money arrives on the
 * business day after the processing day. Pure functions of an instant: no clock, no database.
 */

const ZONE = 'Europe/Riga';
export const CUTOFF_HOUR = 14;

/** A calendar day, YYYY-MM-DD, computed with UTC arithmetic so no local time zone leaks in. */
export type Day = string;

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});

/** The calendar day and hour in Riga at `instant`. */
export function rigaDayAndHour(instant: Date): { day: Day; hour: number } {
  const parts = Object.fromEntries(dayFormat.formatToParts(instant).map((part) => [part.type, part.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

const toUtc = (day: Day) => new Date(`${day}T00:00:00Z`);
const fromUtc = (date: Date): Day => date.toISOString().slice(0, 10);
export const addDays = (day: Day, days: number): Day => fromUtc(new Date(toUtc(day).getTime() + days * 86_400_000));

/** Easter Sunday of `year` (Gregorian), by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export function easterSunday(year: number): Day {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The TARGET2 closing days of `year`. */
export function target2Holidays(year: number): Set<Day> {
  const easter = easterSunday(year);
  return new Set([`${year}-01-01`, addDays(easter, -2), addDays(easter, 1), `${year}-05-01`, `${year}-12-25`, `${year}-12-26`]);
}

export function isBusinessDay(day: Day): boolean {
  const weekday = toUtc(day).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !target2Holidays(Number(day.slice(0, 4))).has(day);
}

/** The first business day strictly after `day`. */
export function nextBusinessDay(day: Day): Day {
  let next = addDays(day, 1);
  while (!isBusinessDay(next)) next = addDays(next, 1);
  return next;
}

/** The business day a request made at `instant` is processed (sent to the bank) on. */
export function processingDay(instant: Date): Day {
  const { day, hour } = rigaDayAndHour(instant);
  return isBusinessDay(day) && hour < CUTOFF_HOUR ? day : nextBusinessDay(day);
}

/** When a payout confirmed at `instant` is expected on the staff member's account. */
export function expectedArrival(instant: Date): Day {
  return nextBusinessDay(processingDay(instant));
}

/**
 * The most recent cut-off at or before `instant`: 14:00 Riga on the latest business day that has reached it. Batch
 * files hold every payout confirmed up to it; what comes after waits for the next one.
 */
export function latestCutoff(instant: Date): Date {
  const { day, hour } = rigaDayAndHour(instant);
  let candidate = hour >= CUTOFF_HOUR && isBusinessDay(day) ? day : previousBusinessDay(day);
  for (;;) {
    const at = rigaTime(candidate, CUTOFF_HOUR);
    if (at) return at;
    candidate = previousBusinessDay(candidate);
  }
}

/**
 * The instant of `hour`:00 in Riga on `day`: both offsets Riga uses (UTC+2 winter, UTC+3 summer) are tried.
 * Undefined for an hour the clocks skip that day (never the hours the payouts use: 3 and 4 are the DST changes).
 */
export function rigaTime(day: Day, hour: number): Date | undefined {
  for (const offset of [3, 2]) {
    const at = new Date(toUtc(day).getTime() + (hour - offset) * 3_600_000);
    const seen = rigaDayAndHour(at);
    if (seen.day === day && seen.hour === hour) return at;
  }
  return undefined;
}

function previousBusinessDay(day: Day): Day {
  let previous = addDays(day, -1);
  while (!isBusinessDay(previous)) previous = addDays(previous, -1);
  return previous;
}
