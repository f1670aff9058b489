import { describe, expect, it } from 'vitest';
import { formatDate } from './format-date.ts';

const moment = new Date('2025-01-14T13:05:00Z');

describe('formatDate', () => {
  it('writes each style in the language it is given', () => {
    expect(formatDate(moment, 'date', 'en', { timeZone: 'UTC' })).toBe('Jan 14, 2025');
    expect(formatDate(moment, 'date', 'fr', { timeZone: 'UTC' })).toBe('14 janv. 2025');
    expect(formatDate(moment, 'listDate', 'es', { timeZone: 'UTC' })).toBe('14 ene 2025');
    expect(formatDate(moment, 'longDate', 'en', { timeZone: 'UTC' })).toBe('January 14, 2025');
    expect(formatDate(moment, 'longDate', 'es', { timeZone: 'UTC' })).toBe('14 de enero de 2025');
    expect(formatDate(moment, 'dateTime', 'fr', { timeZone: 'UTC' })).toBe('14 janv. 2025, 13:05');
    expect(formatDate(moment.toISOString(), 'dateTime', 'en-GB', { timeZone: 'UTC' })).toBe('14 Jan 2025, 13:05');
    expect(formatDate(moment, 'month', 'en', { timeZone: 'UTC' })).toBe('January 2025');
    expect(formatDate(moment, 'month', 'es', { timeZone: 'UTC' })).toBe('enero de 2025');
  });

  it('keeps Latvian as CLDR writes it: the list date abbreviates the year, the others do not', () => {
    expect(formatDate(moment, 'date', 'lv', { timeZone: 'UTC' })).toBe('2025. gada 14. janv.');
    expect(formatDate(moment, 'listDate', 'lv', { timeZone: 'UTC' })).toBe('2025. g. 14. janv.');
  });

  it('reads the day in the zone it is given', () => {
    const lateInRiga = '2025-01-14T23:30:00Z';
    expect(formatDate(lateInRiga, 'date', 'en', { timeZone: 'UTC' })).toBe('Jan 14, 2025');
    expect(formatDate(lateInRiga, 'date', 'en', { timeZone: 'Europe/Riga' })).toBe('Jan 15, 2025');
  });

  it('names a day ahead, with the year only when it is not this year', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(formatDate('2026-11-24', 'day', 'en', { timeZone: 'UTC', now })).toBe('Tue, Nov 24');
    expect(formatDate('2026-11-24', 'longDay', 'en', { timeZone: 'UTC', now })).toBe('Tuesday, November 24');
    expect(formatDate('2027-01-04', 'day', 'en', { timeZone: 'UTC', now })).toBe('Mon, Jan 4, 2027');
    expect(formatDate('2027-01-04', 'day', 'fr', { timeZone: 'UTC', now })).toBe('lun. 4 janv. 2027');
    expect(formatDate('2026-11-24', 'day', 'fr', { timeZone: 'UTC', now })).toBe('mar. 24 nov.');
  });

  it('shows a string that is no date as it is', () => {
    expect(formatDate('soon', 'date', 'en')).toBe('soon');
    expect(() => formatDate(new Date(Number.NaN), 'date', 'en')).toThrow(RangeError);
  });
});
