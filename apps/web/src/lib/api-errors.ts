import { DEFAULT_LOCALE } from '@tipcard/shared/constants';
import { isErrorCode, type ApiErrorBody, type ErrorCode } from '@tipcard/shared/errors/error-codes';
import { NOT_BLANK_SERVER_TEXT } from '@tipcard/shared/validation-rules';
import { codeTextKey } from './error-text.ts';
import { currentLocale, i18n } from './i18n.ts';

/**
 * What an error answer means to the user, read from its `code` (packages/shared errors/error-codes.ts) and never from
 * its English text: this file, with the keys error-text.ts names, is the only place that maps codes to texts.
 */

/** An answer other than 2xx. `status` defaults to 500 when the request never got an answer (spec 8). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody | null;
  /** Seconds from the Retry-After header, when present. */
  readonly retryAfter: number | null;

  /** `cause`: why an answer we could not use failed, such as the zod error of an answer that breaks its schema. */
  constructor(status: number, body: ApiErrorBody | null, retryAfter: number | null = null, cause?: unknown) {
    super(body?.message || `Request failed with status ${status}`, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }

  get code(): string | undefined {
    return this.body?.code;
  }
}

/**
 * A server text in the user's language, chosen by `code`. The server writes English; `validation_failed` names its
 * rule only in those words, so an English reader gets the server's own text and every other reader the code's
 * meaning ('Enter valid data'). A code this build does not know yet keeps the server's text, and so does a resend
 * wait without its Retry-After header, which carries the seconds.
 */
function translated(error: ApiError, serverText: string): string {
  const code = error.code;
  // `count` picks the plural form of a counted text (resend_wait) and is ignored by the others.
  const vars = { count: error.retryAfter ?? 0 };
  if (!isErrorCode(code)) return serverText;
  const key = `errors:${codeTextKey(code)}`;
  if (!i18n.exists(key, vars)) return serverText;
  // The spec's message for an empty required field names its rule (spec 8, not_blank): the spec's user wording for
  // it, in every language, rather than the server's English or the generic 'Enter valid data'.
  if (code === 'validation_failed' && serverText === NOT_BLANK_SERVER_TEXT) return i18n.t('validation:not_blank');
  if (code === 'validation_failed' && currentLocale() === DEFAULT_LOCALE) return serverText;
  if (code === 'resend_wait' && error.retryAfter === null) return serverText;
  return i18n.t(key, vars);
}

/**
 * The text of a code the page meets without an error answer (a deletion blocker the preview lists, a limit the page
 * knows before sending): the same entry an error answer with that code would show. An unknown code stays as it is.
 */
export function errorCodeText(code: string): string {
  return isErrorCode(code) ? i18n.t(`errors:${codeTextKey(code)}`) : code;
}

/** The snackbar text for a 400/403/422/429 answer: errors[0] in the user's language, or 'Api Error!' (spec 8). */
export function apiErrorText(error: ApiError): string {
  const first = error.body?.errors[0];
  return first ? translated(error, first) : i18n.t('errors:api_error');
}

/** The field errors of a 422 answer in the user's language, for react-hook-form's setError. */
export function serverFieldErrors(error: unknown): [field: string, message: string][] {
  if (!(error instanceof ApiError) || !error.body) return [];
  return Object.entries(error.body.validation_errors)
    .filter(([, messages]) => messages.length > 0)
    .map(([field, messages]) => [field, translated(error, messages[0]!)]);
}

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
  /** Seconds left for `wait`, from the Retry-After header. */
  seconds?: number;
  /** The form field the server blamed, when it said. */
  field?: string;
}

/** The spec 8 table, keyed by the codes the server sends with those messages. */
const AUTH_MESSAGE_KEYS: Partial<Record<ErrorCode, AuthMessageKey>> = {
  wrong_code: 'wrong_code',
  username_not_found: 'wrong_code',
  phone_taken: 'phone_taken',
  confirmation_limit: 'confirmation_limit',
  user_not_found: 'user_not_found',
  too_many_attempts: 'too_many_attempts',
  too_many_requests: 'too_many_attempts',
};

export function authMessageKey(code: string | undefined): AuthMessageKey {
  return (isErrorCode(code) && AUTH_MESSAGE_KEYS[code]) || 'contact_support';
}

/**
 * How an auth form reads a failed call (spec 8): a resend wait counts down the Retry-After seconds; any other 429 is
 * 'Too many attempts'; a refused field is named; unexpected answers ask the user to contact support. The sign-in
 * forms check the fields before sending, so a `validation_failed` means the phone number when it names `username`
 * and an empty field otherwise.
 */
export function authFailureOf(error: unknown): AuthFailure {
  if (!(error instanceof ApiError) || !error.body) return { key: 'contact_support' };
  const { code } = error.body;

  if (code === 'resend_wait') return error.retryAfter === null ? { key: 'wait' } : { key: 'wait', seconds: error.retryAfter };
  if (error.status === 429) return { key: 'too_many_attempts' };

  const field = Object.entries(error.body.validation_errors).find(([, messages]) => messages.length > 0)?.[0];
  if (code === 'validation_failed') {
    return field ? { key: field === 'username' ? 'phone_invalid' : 'not_blank', field } : { key: 'contact_support' };
  }
  const key = authMessageKey(code);
  return field && key !== 'contact_support' ? { key, field } : { key };
}

/** The translation key of the user-facing text. */
export function authMessageTranslationKey(failure: AuthFailure): string {
  return `auth:errors.${failure.key}`;
}
