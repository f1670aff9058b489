import { describe, expect, it } from 'vitest';
import { rangeOf } from './periods.ts';

const local = (y: number, m: number, d: number) => new Date(y, m - 1, d).toISOString();

describe('rangeOf', () => {
  const wednesday = new Date(2026, 10, 25, 15, 30);

  it('runs this week from Monday to the end of today', () => {
    expect(rangeOf({ kind: 'week' }, wednesday)).toEqual({ from: local(2026, 11, 23), to: local(2026, 11, 26) });
    expect(rangeOf({ kind: 'week' }, new Date(2026, 10, 29, 23, 0))).toEqual({
      from: local(2026, 11, 23),
      to: local(2026, 11, 30),
    });
  });

  it('runs this month from its first day', () => {
    expect(rangeOf({ kind: 'month' }, wednesday)).toEqual({ from: local(2026, 11, 1), to: local(2026, 11, 26) });
  });

  it('runs last month from its first day to this month’s, also across a year', () => {
    expect(rangeOf({ kind: 'last_month' }, wednesday)).toEqual({ from: local(2026, 10, 1), to: local(2026, 11, 1) });
    expect(rangeOf({ kind: 'last_month' }, new Date(2027, 0, 3))).toEqual({ from: local(2026, 12, 1), to: local(2027, 1, 1) });
  });

  it('includes both chosen days, and waits for valid dates in order', () => {
    expect(rangeOf({ kind: 'range', from: '2026-11-02', to: '2026-11-02' }, wednesday)).toEqual({
      from: local(2026, 11, 2),
      to: local(2026, 11, 3),
    });
    expect(rangeOf({ kind: 'range', from: '2026-11-05', to: '2026-11-02' }, wednesday)).toBeNull();
    expect(rangeOf({ kind: 'range', from: '', to: '2026-11-02' }, wednesday)).toBeNull();
  });
});
