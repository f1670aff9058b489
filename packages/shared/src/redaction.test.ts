import { describe, expect, it } from 'vitest';
import { redactFields, redactText } from './redaction.ts';

describe('redaction for error reports', () => {
  it('cuts IBANs, phone numbers and codes out of text, keeping words and ids', () => {
    const id = '75c16114-9a88-4631-823a-2cb282d5d7fe';
    expect(redactText(`tip for +371 20 000 017 to LV80BANK0000435195001 failed (${id})`)).toBe(
      `tip for [redacted] to [redacted] failed (${id})`,
    );
    expect(redactText('IBAN DE89 3704 0044 0532 0130 00, code 123456')).toBe('IBAN [redacted], code [redacted]');
    expect(redactText('Failed query: insert … error 23514')).toBe('Failed query: insert … error 23514');
  });

  it('censors the fields the log censors, at any depth', () => {
    expect(redactFields({ messageId: 'm1', nested: [{ iban: 'x', Phone: 'y', note: '+37120000017' }] })).toEqual({
      messageId: 'm1',
      nested: [{ iban: '[redacted]', Phone: '[redacted]', note: '[redacted]' }],
    });
  });
});
