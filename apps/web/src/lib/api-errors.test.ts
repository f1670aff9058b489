import { describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '@tipcard/shared/errors/error-codes';
import {
  ApiError,
  apiErrorText,
  authFailureOf,
  authMessageKey,
  authMessageTranslationKey,
  serverFieldErrors,
} from './api-errors.ts';
import { i18n, loadLocale } from './i18n.ts';

const body = (message: string, extra: Partial<ApiErrorBody> = {}): ApiErrorBody => ({
  message,
  code: 'forbidden',
  errors: [message],
  validation_errors: {},
  ...extra,
});

describe('authMessageKey (spec 8 table, by the codes of its messages)', () => {
  it.each([
    ['wrong_code', 'wrong_code'],
    ['username_not_found', 'wrong_code'],
    ['phone_taken', 'phone_taken'],
    ['confirmation_limit', 'confirmation_limit'],
    ['user_not_found', 'user_not_found'],
    ['too_many_attempts', 'too_many_attempts'],
    ['too_many_requests', 'too_many_attempts'],
    ['forbidden', 'contact_support'],
    ['not_a_code', 'contact_support'],
    [undefined, 'contact_support'],
  ])('%s → %s', (code, key) => {
    expect(authMessageKey(code)).toBe(key);
  });
});

describe('authFailureOf', () => {
  it('maps a 403 by its response message', () => {
    expect(authFailureOf(new ApiError(403, body('Wrong confirmation code', { code: 'wrong_code' })))).toEqual({
      key: 'wrong_code',
    });
    expect(authFailureOf(new ApiError(403, body('User not found', { code: 'user_not_found' })))).toEqual({
      key: 'user_not_found',
    });
    expect(authFailureOf(new ApiError(403, body('Confirmation limit', { code: 'confirmation_limit' })))).toEqual({
      key: 'confirmation_limit',
    });
    expect(authFailureOf(new ApiError(403, body('Username could not be found', { code: 'username_not_found' })))).toEqual({
      key: 'wrong_code',
    });
  });

  it('reads any 429 as too many attempts, except a resend wait', () => {
    expect(authFailureOf(new ApiError(429, body('Too many requests', { code: 'too_many_requests' })))).toEqual({
      key: 'too_many_attempts',
    });
    expect(
      authFailureOf(new ApiError(429, body('Too many attempts to enter, try later', { code: 'too_many_attempts' }))),
    ).toEqual({ key: 'too_many_attempts' });
    expect(authFailureOf(new ApiError(429, body('Wait 42 seconds', { code: 'resend_wait' }), 42))).toEqual({
      key: 'wait',
      seconds: 42,
    });
  });

  it('uses the first validation error on a 422', () => {
    const taken = body('Enter valid data', {
      code: 'phone_taken',
      errors: ['This phone is already taken'],
      validation_errors: { username: ['This phone is already taken'] },
    });
    expect(authFailureOf(new ApiError(422, taken))).toEqual({ key: 'phone_taken', field: 'username' });
    const blank = body('Enter valid data', {
      code: 'validation_failed',
      validation_errors: { code: ['This value should not be blank.'] },
    });
    expect(authFailureOf(new ApiError(422, blank))).toEqual({ key: 'not_blank', field: 'code' });
    const phone = body('Enter valid data', {
      code: 'validation_failed',
      validation_errors: { username: ['This field should be valid phone number'] },
    });
    expect(authFailureOf(new ApiError(422, phone))).toEqual({ key: 'phone_invalid', field: 'username' });
  });

  it('asks to contact support for anything else', () => {
    expect(authFailureOf(new ApiError(422, body('Enter valid data')))).toEqual({ key: 'contact_support' });
    expect(authFailureOf(new ApiError(500, null))).toEqual({ key: 'contact_support' });
    expect(authFailureOf(new TypeError('Failed to fetch'))).toEqual({ key: 'contact_support' });
  });

  it('has the spec user texts in English', () => {
    const text = (key: Parameters<typeof authMessageTranslationKey>[0]['key']) =>
      i18n.t(authMessageTranslationKey({ key }), { lng: 'en', count: 5 });
    expect(text('phone_taken')).toBe('This phone is already taken');
    expect(text('phone_invalid')).toBe('Phone number is not correct');
    expect(text('confirmation_limit')).toBe('You have confirmation limit, contact support');
    expect(text('not_blank')).toBe('The field is empty');
    expect(text('wrong_code')).toBe('Code that you entered is not correct');
    expect(text('user_not_found')).toBe('User not found');
    expect(text('too_many_attempts')).toBe('Too many attempts to enter, try again later');
    expect(text('contact_support')).toBe('Something went wrong. Please contact support.');
    expect(text('wait')).toBe('5 seconds left before you can request a new code');
  });
});

describe('the code decides, never the English text', () => {
  const inLocale = async <T>(locale: 'en' | 'lv' | 'fr', run: () => T) => {
    await loadLocale(locale);
    await i18n.changeLanguage(locale);
    try {
      return run();
    } finally {
      await i18n.changeLanguage('en');
    }
  };

  it('translates errors[0] by its code, whatever the words', async () => {
    const error = new ApiError(403, body('Some other words', { code: 'user_not_found' }));
    expect(await inLocale('en', () => apiErrorText(error))).toBe('User not found');
    expect(await inLocale('lv', () => apiErrorText(error))).toBe('Lietotājs nav atrasts');
    expect(authFailureOf(new ApiError(403, body('User not found', { code: 'wrong_code' })))).toEqual({ key: 'wrong_code' });
  });

  it('counts a resend wait from Retry-After, not from the text', async () => {
    const error = new ApiError(429, body('Wait 99 seconds', { code: 'resend_wait' }), 17);
    expect(await inLocale('en', () => apiErrorText(error))).toBe('Wait 17 seconds');
    expect(authFailureOf(error)).toEqual({ key: 'wait', seconds: 17 });
    expect(authFailureOf(new ApiError(429, body('Wait 42 seconds', { code: 'resend_wait' })))).toEqual({ key: 'wait' });
  });

  it('keeps the server text of a code this build does not know, and of validation_failed for English readers', async () => {
    const unknown = new ApiError(422, body('A rule from a newer server', { code: 'newer_rule' as never }));
    expect(await inLocale('fr', () => apiErrorText(unknown))).toBe('A rule from a newer server');
    const invalid = new ApiError(
      422,
      body('Enter an amount from €1.00 to €500.00', {
        code: 'validation_failed',
        validation_errors: { amount: ['Enter an amount from €1.00 to €500.00'] },
      }),
    );
    expect(await inLocale('en', () => apiErrorText(invalid))).toBe('Enter an amount from €1.00 to €500.00');
    expect(await inLocale('en', () => serverFieldErrors(invalid))).toEqual([['amount', 'Enter an amount from €1.00 to €500.00']]);
    const french = await inLocale('fr', () => [apiErrorText(invalid), serverFieldErrors(invalid)] as const);
    expect(french[0]).not.toBe('Enter an amount from €1.00 to €500.00');
    expect(french[1]).toEqual([['amount', french[0]]]);
  });

  it("answers an empty required field with the spec's user wording in each language, never 'This value should not be blank.'", async () => {
    const blank = new ApiError(
      422,
      body('This value should not be blank.', {
        code: 'validation_failed',
        validation_errors: { title: ['This value should not be blank.'] },
      }),
    );
    expect(await inLocale('en', () => serverFieldErrors(blank))).toEqual([['title', 'This field is required']]);
    expect(await inLocale('en', () => apiErrorText(blank))).toBe('This field is required');
    expect(await inLocale('fr', () => serverFieldErrors(blank))).toEqual([['title', 'Ce champ est obligatoire']]);
    expect(await inLocale('lv', () => apiErrorText(blank))).toBe('Šis lauks ir obligāts');
  });

  it('translates the field errors of other codes by their code', async () => {
    const taken = new ApiError(
      422,
      body('This phone is already taken', {
        code: 'phone_taken',
        validation_errors: { username: ['This phone is already taken'] },
      }),
    );
    const [[field, text]] = (await inLocale('lv', () => serverFieldErrors(taken))) as [[string, string]];
    expect(field).toBe('username');
    expect(text).toBe(i18n.t('errors:codes.phone_taken', { lng: 'lv' }));
    expect(text).not.toBe('This phone is already taken');
    expect(serverFieldErrors(new TypeError('Failed to fetch'))).toEqual([]);
  });
});
