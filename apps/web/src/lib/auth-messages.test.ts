import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.ts';
import { i18n } from './i18n.ts';
import { authFailureOf, authMessageKey, authMessageTranslationKey } from './auth-messages.ts';
import type { ApiErrorBody } from '@tipcard/shared/errors/error-codes';

const body = (message: string, extra: Partial<ApiErrorBody> = {}): ApiErrorBody => ({
  message,
  code: 'forbidden',
  errors: [message],
  validation_errors: {},
  ...extra,
});

describe('authMessageKey (spec 8 table)', () => {
  it.each([
    ['This value should not be blank.', 'not_blank'],
    ['Wrong confirmation code', 'wrong_code'],
    ['Username could not be found', 'wrong_code'],
    ['This phone is already taken', 'phone_taken'],
    ['Confirmation limit', 'confirmation_limit'],
    ['User not found', 'user_not_found'],
    ['Too many attempts to enter, try later', 'too_many_attempts'],
    ['Too many requests', 'too_many_attempts'],
    ['This field should be valid phone number', 'phone_invalid'],
    ['Something odd', 'contact_support'],
    ['', 'contact_support'],
  ])('%s → %s', (message, key) => {
    expect(authMessageKey(message)).toBe(key);
  });
});

describe('authFailureOf', () => {
  it('maps a 403 by its response message', () => {
    expect(authFailureOf(new ApiError(403, body('Wrong confirmation code', { code: 'wrong_code' })))).toEqual({ key: 'wrong_code' });
    expect(authFailureOf(new ApiError(403, body('User not found')))).toEqual({ key: 'user_not_found' });
    expect(authFailureOf(new ApiError(403, body('Confirmation limit')))).toEqual({ key: 'confirmation_limit' });
    expect(authFailureOf(new ApiError(403, body('Username could not be found')))).toEqual({ key: 'wrong_code' });
  });

  it('reads any 429 as too many attempts, except a resend wait', () => {
    expect(authFailureOf(new ApiError(429, body('Too many requests')))).toEqual({ key: 'too_many_attempts' });
    expect(authFailureOf(new ApiError(429, body('Too many attempts to enter, try later')))).toEqual({ key: 'too_many_attempts' });
    expect(authFailureOf(new ApiError(429, body('Wait 42 seconds', { code: 'resend_wait' }), 42))).toEqual({ key: 'wait', seconds: 42 });
  });

  it('uses the first validation error on a 422', () => {
    const taken = body('Enter valid data', {
      code: 'phone_taken',
      errors: ['This phone is already taken'],
      validation_errors: { username: ['This phone is already taken'] },
    });
    expect(authFailureOf(new ApiError(422, taken))).toEqual({ key: 'phone_taken', field: 'username' });
    const blank = body('Enter valid data', { validation_errors: { code: ['This value should not be blank.'] } });
    expect(authFailureOf(new ApiError(422, blank))).toEqual({ key: 'not_blank', field: 'code' });
    const phone = body('Enter valid data', { validation_errors: { username: ['This field should be valid phone number'] } });
    expect(authFailureOf(new ApiError(422, phone))).toEqual({ key: 'phone_invalid', field: 'username' });
  });

  it('asks to contact support for anything else', () => {
    expect(authFailureOf(new ApiError(422, body('Enter valid data')))).toEqual({ key: 'contact_support' });
    expect(authFailureOf(new ApiError(500, null))).toEqual({ key: 'contact_support' });
    expect(authFailureOf(new TypeError('Failed to fetch'))).toEqual({ key: 'contact_support' });
  });

  it('has the spec user texts in English', () => {
    const text = (key: Parameters<typeof authMessageTranslationKey>[0]['key']) => i18n.t(authMessageTranslationKey({ key }), { lng: 'en', seconds: 5 });
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
