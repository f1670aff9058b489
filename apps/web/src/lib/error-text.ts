/**
 * Which entry of errors.json words a failed call: the web app's one map from an error's code (or, for a call that got
 * no answer or was refused for its rate, its status) to a text. api-errors.ts reads it for the app's pages and
 * guest-api.ts for the guest pages; it imports nothing, so the guest pages' small bundle can take it.
 *
 * A code's text is `codes.<code>`, except for the codes a guest can meet: those are top-level entries, because the
 * guest pages take a catalog's top-level entries one by one (guest-i18n.ts) but a nested object whole, all 60 codes.
 */
export const GUEST_ERROR_KEYS = ['no_answer', 'rate_limited', 'bot_check_failed', 'payment_changed'] as const;
export type GuestErrorKey = (typeof GUEST_ERROR_KEYS)[number];

const TOP_LEVEL_CODES: Readonly<Record<string, GuestErrorKey>> = {
  too_many_requests: 'rate_limited',
  bot_check_failed: 'bot_check_failed',
  idempotency_key_reused: 'payment_changed',
};

function topLevelKeyOf(code: string | undefined): GuestErrorKey | null {
  return code !== undefined && Object.hasOwn(TOP_LEVEL_CODES, code) ? TOP_LEVEL_CODES[code]! : null;
}

/** The errors.json key of a code's text (which the catalog may lack: a code it does not word). */
export function codeTextKey(code: string): string {
  return topLevelKeyOf(code) ?? `codes.${code}`;
}

/**
 * What a guest page says of a failed call: no answer (status 0), too many requests (any 429: the guest waits either
 * way), the anti-bot check, a payment started before with other details; null for anything else, which the page words
 * itself ("the payment could not be started").
 */
export function guestErrorKey(status: number, code: string | undefined): GuestErrorKey | null {
  if (status === 0) return 'no_answer';
  if (status === 429) return 'rate_limited';
  return topLevelKeyOf(code);
}
