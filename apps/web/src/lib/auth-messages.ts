import { ApiError } from './api-client.ts';

/** Meaning keys of the auth form errors (spec 8), plus `phone_invalid` and `wait`, which the spec also shows. */
export type AuthMessageKey =
  | 'not_blank'
  | 'wrong_code'
  | 'phone_taken'
  | 'phone_invalid'
  | 'confirmation_limit'
  | 'user_not_found'
  | 'too_many_attempts'
  | 'contact_support';

export interface AuthFailure {
  key: AuthMessageKey | 'wait';
  /** Seconds left for `wait` ('Wait N seconds'). */
  seconds?: number;
  /** The form field the server blamed, when it said. */
  field?: string;
}

const TOO_MANY_ATTEMPTS = 'Too many attempts to enter, try later';

/** The spec 8 table: server message → meaning key. */
export function authMessageKey(message: string | undefined | null): AuthMessageKey {
  const text = (message ?? '').trim();
  if (text === 'This value should not be blank.') return 'not_blank';
  if (text === 'Wrong confirmation code' || text === 'Username could not be found') return 'wrong_code';
  if (text.includes('already taken')) return 'phone_taken';
  if (text === 'This field should be valid phone number') return 'phone_invalid';
  if (text === 'Confirmation limit') return 'confirmation_limit';
  if (text === 'User not found') return 'user_not_found';
  if (text === TOO_MANY_ATTEMPTS || text === 'Too many requests') return 'too_many_attempts';
  return 'contact_support';
}

/**
 * How an auth form reads a failed call (spec 8): 403 uses the response message; 429 is 'Too many attempts to
 * enter, try later' unless it is a resend wait ('Wait N seconds'); otherwise the first validation_errors message,
 * or api_error. Unexpected answers ask the user to contact support.
 */
export function authFailureOf(error: unknown): AuthFailure {
  if (!(error instanceof ApiError) || !error.body) return { key: 'contact_support' };
  const { body } = error;

  if (error.status === 429) {
    const text = body.errors[0] ?? body.message;
    if (/wait/i.test(text)) {
      const match = /(\d+)/.exec(text);
      const seconds = match ? Number(match[1]) : (error.retryAfter ?? undefined);
      return seconds === undefined ? { key: 'wait' } : { key: 'wait', seconds };
    }
    return { key: authMessageKey(TOO_MANY_ATTEMPTS) };
  }

  if (error.status === 403) return { key: authMessageKey(body.message || body.errors[0]) };

  const [field, messages] = Object.entries(body.validation_errors ?? {})[0] ?? [];
  const first = messages?.[0];
  if (first) return field ? { key: authMessageKey(first), field } : { key: authMessageKey(first) };
  return { key: authMessageKey('api_error') };
}

/** The translation key of the user-facing text. */
export function authMessageTranslationKey(failure: AuthFailure): string {
  return `auth:errors.${failure.key}`;
}
