import type { ApiError } from '../../lib/api-client.ts';
import { currentLocale, i18n } from '../../lib/i18n.ts';

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

/** English validation text → the user's language (the server sends `validation_errors` in English). */
function translateServerText(text: string): string {
  const catalog = i18n.getResourceBundle('en', 'validation') as Record<string, string> | undefined;
  for (const [rule, message] of Object.entries(catalog ?? {})) if (message === text) return i18n.t(`validation:${rule}`);
  return text;
}

/** The field errors of a 422 answer, translated, for react-hook-form's setError. */
export function serverFieldErrors(error: unknown): [field: string, message: string][] {
  const body = (error as ApiError | null)?.body;
  if (!body?.validation_errors) return [];
  return Object.entries(body.validation_errors)
    .filter(([, messages]) => messages.length > 0)
    .map(([field, messages]) => [field, translateServerText(messages[0]!)]);
}

/** "LV•• •••• •••• •••• •••• 5001" → "LV•• •••• 5001": the country and the last four fit a phone's line. */
export function shortMask(masked: string): string {
  return masked.replace(/(?:•{4}\s+)+/g, '•••• ');
}
