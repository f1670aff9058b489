import { describe, expect, it } from 'vitest';
import { codeTextKey, GUEST_ERROR_KEYS, guestErrorKey } from './error-text.ts';
import { i18n, loadLocale } from './i18n.ts';

describe('codeTextKey', () => {
  it('finds most codes under `codes`, and those a guest meets at the top of errors.json', () => {
    expect(codeTextKey('phone_taken')).toBe('codes.phone_taken');
    expect(codeTextKey('bot_check_failed')).toBe('bot_check_failed');
    expect(codeTextKey('too_many_requests')).toBe('rate_limited');
    expect(codeTextKey('idempotency_key_reused')).toBe('payment_changed');
  });

  it('takes no key from the object prototype for a code it does not know', () => {
    expect(codeTextKey('constructor')).toBe('codes.constructor');
  });
});

describe('guestErrorKey', () => {
  it.each([
    [0, 'network', 'no_answer'],
    [429, 'too_many_requests', 'rate_limited'],
    [429, 'resend_wait', 'rate_limited'],
    [403, 'bot_check_failed', 'bot_check_failed'],
    [422, 'idempotency_key_reused', 'payment_changed'],
    [500, 'internal', null],
    [404, undefined, null],
  ])('status %s, code %s → %s', (status, code, key) => {
    expect(guestErrorKey(status, code)).toBe(key);
  });
});

describe('the texts the map names', () => {
  it.each(['en', 'lv', 'fr', 'es'] as const)('exist in errors.json in %s', async (locale) => {
    await loadLocale(locale);
    for (const key of GUEST_ERROR_KEYS) expect(i18n.exists(`errors:${key}`, { lng: locale })).toBe(true);
  });
});
