import { describe, expect, it } from 'vitest';
import {
  easterSunday,
  expectedArrival,
  isBusinessDay,
  latestCutoff,
  nextBusinessDay,
  processingDay,
  target2Holidays,
} from './business-days.ts';

describe('business days (TARGET2, 14:00 Europe/Riga cut-off)', () => {
  it('computes Easter Sunday for known years', () => {
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
    expect(easterSunday(2038)).toBe('2038-04-25');
    expect(easterSunday(2285)).toBe('2285-03-22');
  });

  it('lists the six TARGET2 closing days', () => {
    expect([...target2Holidays(2026)].sort()).toEqual([
      '2026-01-01',
      '2026-04-03',
      '2026-04-06',
      '2026-05-01',
      '2026-12-25',
      '2026-12-26',
    ]);
  });

  it('skips weekends and holidays', () => {
    expect(isBusinessDay('2026-11-20')).toBe(true); // Friday
    expect(isBusinessDay('2026-11-21')).toBe(false); // Saturday
    expect(isBusinessDay('2026-04-03')).toBe(false); // Good Friday
    expect(nextBusinessDay('2026-11-20')).toBe('2026-11-23');
    expect(nextBusinessDay('2026-04-02')).toBe('2026-04-07'); // Good Friday, weekend, Easter Monday
    expect(nextBusinessDay('2026-12-24')).toBe('2026-12-28');
    expect(nextBusinessDay('2026-12-31')).toBe('2027-01-04'); // New Year's Day then a weekend
  });

  it('arrives the next business day before the cut-off, the one after once it passed', () => {
    // Riga is UTC+2 in November: 13:59 and 14:00 local.
    expect(expectedArrival(new Date('2026-11-18T11:59:59Z'))).toBe('2026-11-19');
    expect(expectedArrival(new Date('2026-11-18T12:00:00Z'))).toBe('2026-11-20');
    // Friday morning arrives Monday; Friday afternoon is processed Monday and arrives Tuesday.
    expect(expectedArrival(new Date('2026-11-20T08:00:00Z'))).toBe('2026-11-23');
    expect(expectedArrival(new Date('2026-11-20T13:00:00Z'))).toBe('2026-11-24');
    // A weekend request is processed Monday.
    expect(processingDay(new Date('2026-11-22T09:00:00Z'))).toBe('2026-11-23');
    // Summer time (UTC+3): 13:30 local is before the cut-off.
    expect(expectedArrival(new Date('2026-07-01T10:30:00Z'))).toBe('2026-07-02');
    expect(expectedArrival(new Date('2026-07-01T11:00:00Z'))).toBe('2026-07-03');
    // Around Easter and Christmas.
    expect(expectedArrival(new Date('2026-04-02T09:00:00Z'))).toBe('2026-04-07');
    expect(expectedArrival(new Date('2026-12-23T13:00:00Z'))).toBe('2026-12-28');
  });

  it('answers the latest cut-off instant, in winter and summer time', () => {
    expect(latestCutoff(new Date('2026-11-18T12:30:00Z')).toISOString()).toBe('2026-11-18T12:00:00.000Z');
    expect(latestCutoff(new Date('2026-11-18T11:30:00Z')).toISOString()).toBe('2026-11-17T12:00:00.000Z');
    expect(latestCutoff(new Date('2026-11-22T10:00:00Z')).toISOString()).toBe('2026-11-20T12:00:00.000Z');
    expect(latestCutoff(new Date('2026-07-01T12:00:00Z')).toISOString()).toBe('2026-07-01T11:00:00.000Z');
  });
});
