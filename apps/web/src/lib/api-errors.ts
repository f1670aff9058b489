import { ERROR_CODES, isErrorCode } from '@tipcard/shared/errors/error-codes';
import type { ApiError } from './api-client.ts';
import { i18n } from './i18n.ts';

/** English validation text → rule, from the en catalog (the server sends the English text). */
function validationRuleOf(text: string): string | null {
  const catalog = i18n.getResourceBundle('en', 'validation') as Record<string, string> | undefined;
  for (const [rule, message] of Object.entries(catalog ?? {})) if (message === text) return rule;
  return null;
}

/** Whether `text` is the server message of `code` ('Wait {seconds} seconds' matches 'Wait 42 seconds'). */
function matchesCodeMessage(code: keyof typeof ERROR_CODES, text: string): boolean {
  const template = ERROR_CODES[code].message;
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '\\d+');
  return new RegExp(`^${pattern}$`).test(text);
}

/** Seconds from a 'Wait N seconds' message (or the Retry-After header). */
export function waitSeconds(error: ApiError): number | null {
  const text = error.body?.errors[0] ?? error.body?.message ?? '';
  const match = /Wait\s+(\d+)/i.exec(text);
  if (match) return Number(match[1]);
  return error.retryAfter;
}

/**
 * The snackbar text for a 400/403/422/429 answer: errors[0] in the user's language when we know it, the server
 * text otherwise, and 'Api Error!' when the body carries nothing to show (spec 8).
 */
export function apiErrorText(error: ApiError): string {
  const first = error.body?.errors[0];
  if (!first) return i18n.t('errors:api_error');

  const rule = validationRuleOf(first);
  if (rule) return i18n.t(`validation:${rule}`);

  const code = error.body?.code;
  if (isErrorCode(code) && matchesCodeMessage(code, first) && i18n.exists(`errors:codes.${code}`)) {
    return i18n.t(`errors:codes.${code}`, { seconds: waitSeconds(error) ?? 0 });
  }
  for (const known of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) {
    if (matchesCodeMessage(known, first) && i18n.exists(`errors:codes.${known}`)) {
      return i18n.t(`errors:codes.${known}`, { seconds: waitSeconds(error) ?? 0 });
    }
  }
  return first;
}
