import { currentLocale } from '../../lib/i18n.ts';

/**
 * A calendar date from the API (YYYY-MM-DD) in the user's language: "Tue, 14 Jan" in tables and lists (with the year
 * when not this year), "Tuesday, 14 January" inside sentences, where an abbreviation's point would meet the full stop.
 */
export function formatDay(date: string, style: 'short' | 'long' = 'short', now = new Date()): string {
  const day = new Date(`${date.slice(0, 10)}T12:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  const sameYear = day.getUTCFullYear() === now.getUTCFullYear();
  return new Intl.DateTimeFormat(currentLocale(), {
    weekday: style,
    day: 'numeric',
    month: style,
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  }).format(day);
}

/** A moment (ISO timestamp) in the user's language: "14 Jan 2025, 13:05". */
export function formatMoment(iso: string): string {
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** "LV•• •••• •••• •••• •••• 5001" → "LV•• •••• 5001": the country and the last four fit a phone's line. */
export function shortMask(masked: string): string {
  return masked.replace(/(?:•{4}\s+)+/g, '•••• ');
}
