import type { Locale } from '../constants.ts';

/**
 * The named ways a date is shown (examples in English):
 * - `date` "Jan 14, 2025"; `listDate` the same in rows of a list (it differs in Latvian: "2025. g." for "2025. gada");
 * - `longDate` "January 14, 2025", in sentences, receipts and PDFs;
 * - `dateTime` "Jan 14, 2025, 1:05 PM", a moment; `time` "1:05 PM", a moment today;
 * - `day` "Tue, Jan 14" and `longDay` "Tuesday, January 14" (inside a sentence, where an abbreviation's point would
 *   meet the full stop): a day ahead, with the year only when it is not this year's;
 * - `month` "January 2025", a team's period (give it `timeZone: 'UTC'`: periods are UTC months).
 */
export type DateStyle = 'date' | 'listDate' | 'longDate' | 'dateTime' | 'time' | 'day' | 'longDay' | 'month';

/** A reader's language; the back office is English with day-month order and a 24-hour clock (`en-GB`). */
export type DateLocale = Locale | 'en-GB';

const STYLES: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'medium' },
  listDate: { day: 'numeric', month: 'short', year: 'numeric' },
  longDate: { dateStyle: 'long' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  time: { timeStyle: 'short' },
  day: { weekday: 'short', day: 'numeric', month: 'short' },
  longDay: { weekday: 'long', day: 'numeric', month: 'long' },
  month: { month: 'long', year: 'numeric' },
};

export interface DateOptions {
  /** The zone the day is read in; the reader's own when not given. `UTC` for a calendar day (YYYY-MM-DD). */
  timeZone?: string;
  /** `day` and `longDay` name the year when it is not the year of `now`. */
  now?: Date;
}

// Lists format hundreds of rows: one formatter per language, style and zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: DateLocale, options: Intl.DateTimeFormatOptions, key: string): Intl.DateTimeFormat {
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, found);
  }
  return found;
}

/**
 * The one date formatter of the API, the web app, the back office, PDFs and e-mails, in the language it is given:
 * the web passes `currentLocale()` (or the guest pages `guestLocale()`), the API the recipient's locale. A date-only
 * string ("2025-01-14") is midnight UTC, so give it `timeZone: 'UTC'`; a string that is no date is shown as it is.
 */
export function formatDate(
  value: Date | string,
  style: DateStyle,
  locale: DateLocale,
  { timeZone, now = new Date() }: DateOptions = {},
): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (typeof value === 'string' && Number.isNaN(date.getTime())) return value;
  const zone = timeZone ?? '';
  let options = STYLES[style];
  if (style === 'day' || style === 'longDay') {
    const year = (moment: Date) => formatter('en', { year: 'numeric', timeZone }, `year|${zone}`).format(moment);
    if (year(date) !== year(now)) options = { ...options, year: 'numeric' };
  }
  const key = `${locale}|${style}|${zone}|${'year' in options ? 'y' : ''}`;
  return formatter(locale, { ...options, timeZone }, key).format(date);
}
