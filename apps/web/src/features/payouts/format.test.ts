import { describe, expect, it } from 'vitest';
import '../../lib/i18n.ts';
import { formatDay, shortMask } from './format.ts';

describe('shortMask', () => {
  it('keeps the country and the last four of an IBAN mask', () => {
    expect(shortMask('LV•• •••• •••• •••• •••• 5001')).toBe('LV•• •••• 5001');
    expect(shortMask('DE•• •••• •••• •••• 3000')).toBe('DE•• •••• 3000');
  });

  it('leaves a UK mask as it is', () => {
    expect(shortMask('•••• 5678 (20-00-00)')).toBe('•••• 5678 (20-00-00)');
  });
});

describe('formatDay', () => {
  const now = new Date('2026-11-21T10:00:00Z');

  it('writes the calendar day whatever the time zone, short in lists and long in sentences', () => {
    expect(formatDay('2026-11-24', 'short', now)).toBe('Tue, Nov 24');
    expect(formatDay('2026-11-24', 'long', now)).toBe('Tuesday, November 24');
    expect(formatDay('2026-11-24T23:30:00.000Z', 'short', now)).toBe('Tue, Nov 24');
  });

  it('adds the year when it is not this year', () => {
    expect(formatDay('2027-01-04', 'short', now)).toBe('Mon, Jan 4, 2027');
  });
});
