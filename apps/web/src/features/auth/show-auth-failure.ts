import { i18n } from '../../lib/i18n.ts';
import { showSnackbar } from '../../lib/ui-store.ts';
import { authFailureOf, authMessageTranslationKey, type AuthFailure } from '../../lib/api-errors.ts';
import { setResendWait } from './auth-store.ts';

/** Shows a failed auth call as a red snackbar with the spec's user text; answers what it showed. */
export function showAuthFailure(error: unknown): AuthFailure {
  const failure = authFailureOf(error);
  showSnackbar(i18n.t(authMessageTranslationKey(failure), { count: failure.seconds ?? 0 }));
  return failure;
}

/** A refused code: a wrong one marks and clears the field (`refuse`); anything else is a snackbar. */
export function showCodeFailure(error: unknown, refuse: (message: string) => void): void {
  const failure = authFailureOf(error);
  if (failure.key === 'wrong_code') refuse(i18n.t(authMessageTranslationKey(failure)));
  else showAuthFailure(error);
}

/** A refused resend shows its message; a 'Wait N seconds' also restarts the countdown with the server's figure. */
export function showResendFailure(error: unknown): void {
  const failure = showAuthFailure(error);
  if (failure.key === 'wait' && failure.seconds) setResendWait(failure.seconds);
}

/** Client-side messages of the phone field on the sign-in forms. */
export function phoneFieldError(message: string | undefined): string | undefined {
  if (!message) return undefined;
  if (message === 'validation.not_blank') return i18n.t('auth:errors.phone_empty');
  return i18n.t('auth:errors.phone_invalid');
}
