import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tipBreakdown } from '@tipcard/shared/payments/fees';
import { HOURS_WINDOW_MS, splitTeamTip, weightedSplit, type SplitRule, type SplitShift } from './team-split.ts';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const ROLES = ['waiter', 'cook', 'host', 'runner'] as const;

/** Members with distinct ids, start times that may tie, and roles; shifts around the tip's instant (T0 + 1 day). */
const scenario = fc
  .array(
    fc.record({
      joinedMinute: fc.integer({ min: 0, max: 50 }),
      role: fc.constantFrom(...ROLES, null),
      // A member's shifts follow one another (the API refuses overlaps): gaps and lengths in minutes; the last may be open.
      shifts: fc.array(fc.record({ gap: fc.integer({ min: 0, max: 8 * 60 }), length: fc.integer({ min: 1, max: 8 * 60 }) }), {
        maxLength: 3,
      }),
      lastOpen: fc.boolean(),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((specs) => {
    const at = new Date(T0 + 24 * 60 * MINUTE);
    const members = specs.map((spec, i) => ({
      userId: `user-${i}`,
      membershipId: `m-${String(i).padStart(3, '0')}`,
      joinedAt: new Date(T0 + spec.joinedMinute * MINUTE),
      role: spec.role,
    }));
    const shifts: SplitShift[] = specs.flatMap((spec, i) => {
      let cursor = at.getTime() - 20 * 60 * MINUTE;
      return spec.shifts.map((shift, index) => {
        const startedAt = new Date(cursor + shift.gap * MINUTE);
        cursor = startedAt.getTime() + shift.length * MINUTE;
        const open = spec.lastOpen && index === spec.shifts.length - 1 && startedAt <= at;
        return { userId: `user-${i}`, startedAt, endedAt: open ? null : new Date(cursor) };
      });
    });
    return { at, members, shifts };
  });

const rule: fc.Arbitrary<SplitRule> = fc.oneof(
  fc.constant({ kind: 'even' as const }),
  fc.constant({ kind: 'hours' as const }),
  fc
    .record({ waiter: fc.nat(1_000), cook: fc.nat(1_000), host: fc.nat(1_000), runner: fc.nat(1_000) })
    .map((points) => ({ kind: 'points' as const, points })),
);

const tip = fc
  .tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.boolean())
  .map(([amount, cover]) => tipBreakdown(amount, 5, cover));

describe('splitTeamTip', () => {
  it('for every rule: shares sum exactly to the net and the fee, none negative, each within a cent over its exact share, weight 0 gets nothing', () => {
    fc.assert(
      fc.property(rule, scenario, tip, (r, { at, members, shifts }, payment) => {
        const result = splitTeamTip(r, { members, shifts, at, totalCents: payment.totalCents, feeCents: payment.feeCents });
        const nets = result.shares.map((s) => s.netCents);
        const fees = result.shares.map((s) => s.feeCents);
        const weight = sum(result.shares.map((s) => s.weight));
        const net = payment.totalCents - payment.feeCents;
        return (
          result.shares.length === members.length &&
          sum(nets) === net &&
          sum(fees) === payment.feeCents &&
          weight > 0 &&
          result.shares.every(
            (s) =>
              s.netCents >= 0 &&
              s.feeCents >= 0 &&
              // Never more than one cent over the exact proportional share, never a cent under its floor.
              s.netCents * weight <= net * s.weight + weight &&
              s.netCents * weight >= net * s.weight - weight &&
              s.feeCents * weight <= payment.feeCents * s.weight + weight &&
              (s.weight > 0 || (s.netCents === 0 && s.feeCents === 0)),
          )
        );
      }),
      { numRuns: 20_000 },
    );
  });

  it('does not depend on the order the members and shifts come in', () => {
    fc.assert(
      fc.property(rule, scenario, tip, fc.integer(), (r, { at, members, shifts }, payment, seed) => {
        const shuffle = <T>(list: readonly T[]) =>
          list
            .map((item, i) => ({ item, key: Math.imul(i + 1, seed | 1) ^ (seed >>> 3) }))
            .sort((a, b) => a.key - b.key)
            .map(({ item }) => item);
        const input = { at, totalCents: payment.totalCents, feeCents: payment.feeCents };
        const byUser = (result: ReturnType<typeof splitTeamTip>) =>
          Object.fromEntries(result.shares.map((s) => [s.member.userId, [s.netCents, s.feeCents]]));
        const a = splitTeamTip(r, { ...input, members, shifts });
        const b = splitTeamTip(r, { ...input, members: shuffle(members), shifts: shuffle(shifts) });
        expect(byUser(b)).toEqual(byUser(a));
        expect(b.basis).toBe(a.basis);
      }),
      { numRuns: 5_000 },
    );
  });

  it('hours: only the members on shift at the instant share, by minutes worked in the window; nobody on shift is even', () => {
    fc.assert(
      fc.property(scenario, tip, ({ at, members, shifts }, payment) => {
        const result = splitTeamTip(
          { kind: 'hours' },
          { members, shifts, at, totalCents: payment.totalCents, feeCents: payment.feeCents },
        );
        const onShift = (userId: string) =>
          shifts.some((s) => s.userId === userId && s.startedAt <= at && (s.endedAt === null || s.endedAt > at));
        if (!members.some((m) => onShift(m.userId))) return result.basis === 'even_nobody_on_shift';
        return result.shares.every(
          (s) =>
            (s.minutes ?? -1) >= 0 &&
            s.minutes! <= HOURS_WINDOW_MS / MINUTE &&
            (result.basis !== 'hours' || s.weight === (onShift(s.member.userId) ? s.minutes : 0)),
        );
      }),
      { numRuns: 5_000 },
    );
  });

  it('gives the leftover cents to the largest remainders, ties to the longest-standing member', () => {
    const at = new Date(T0 + 10 * 60 * MINUTE);
    const joined = (minute: number) => new Date(T0 + minute * MINUTE);
    const members = [
      { userId: 'late', membershipId: 'm3', joinedAt: joined(30), role: 'waiter' },
      { userId: 'first', membershipId: 'm1', joinedAt: joined(10), role: 'waiter' },
      { userId: 'cook', membershipId: 'm2', joinedAt: joined(20), role: 'cook' },
    ];
    // Even: 9.50 over three is 3.17 + 3.17 + 3.16 (the two longest-standing get the leftover cents).
    const even = splitTeamTip({ kind: 'even' }, { members, shifts: [], at, totalCents: 1_000, feeCents: 50 });
    expect(even.shares.map((s) => [s.member.userId, s.netCents, s.feeCents])).toEqual([
      ['first', 317, 17],
      ['cook', 317, 17],
      ['late', 316, 16],
    ]);
    // Points 2/1/2 of 1000 cents: exact 400 / 200 / 400, no leftover.
    const points = splitTeamTip(
      { kind: 'points', points: { waiter: 2, cook: 1 } },
      { members, shifts: [], at, totalCents: 1_000, feeCents: 0 },
    );
    expect(points.shares.map((s) => [s.member.userId, s.points, s.netCents])).toEqual([
      ['first', 2, 400],
      ['cook', 1, 200],
      ['late', 2, 400],
    ]);
    // Hours: 'first' worked 6 h, 'cook' 3 h and is on shift, 'late' clocked out before the tip and gets nothing.
    // 1000 × 360/540 = 666.67 and 1000 × 180/540 = 333.33: the leftover cent goes to the larger fraction.
    const hour = 60 * MINUTE;
    const hours = splitTeamTip(
      { kind: 'hours' },
      {
        members,
        shifts: [
          { userId: 'first', startedAt: new Date(at.getTime() - 6 * hour), endedAt: null },
          { userId: 'cook', startedAt: new Date(at.getTime() - 3 * hour), endedAt: new Date(at.getTime() + hour) },
          { userId: 'late', startedAt: new Date(at.getTime() - 8 * hour), endedAt: at },
        ],
        at,
        totalCents: 1_000,
        feeCents: 0,
      },
    );
    expect(hours.basis).toBe('hours');
    expect(hours.shares.map((s) => [s.member.userId, s.minutes, s.weight, s.netCents])).toEqual([
      ['first', 360, 360, 667],
      ['cook', 180, 180, 333],
      ['late', 480, 0, 0],
    ]);
  });

  it('falls back to even when every weight is zero', () => {
    const members = [
      { userId: 'a', membershipId: 'm1', joinedAt: new Date(T0), role: 'host' },
      { userId: 'b', membershipId: 'm2', joinedAt: new Date(T0 + MINUTE), role: null },
    ];
    const result = splitTeamTip(
      { kind: 'points', points: { host: 0 } },
      { members, shifts: [], at: new Date(T0 + 60 * MINUTE), totalCents: 101, feeCents: 0 },
    );
    expect(result.basis).toBe('even_no_weight');
    expect(result.shares.map((s) => s.netCents)).toEqual([51, 50]);
  });

  it('refuses what cannot be split', () => {
    expect(() =>
      splitTeamTip({ kind: 'even' }, { members: [], shifts: [], at: new Date(T0), totalCents: 100, feeCents: 5 }),
    ).toThrow(RangeError);
    expect(() => weightedSplit(-1, [1])).toThrow(RangeError);
    expect(() => weightedSplit(1.5, [1])).toThrow(RangeError);
    expect(() => weightedSplit(10, [0, 0])).toThrow(RangeError);
  });
});

describe('weightedSplit', () => {
  it('sums exactly for any weights, including amounts above their sum', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.nat(100_000), { minLength: 1, maxLength: 40 }),
        (amount, weights) => {
          fc.pre(sum(weights) > 0);
          const shares = weightedSplit(amount, weights);
          return sum(shares) === amount && shares.every((s, i) => s >= 0 && (weights[i]! > 0 || s === 0));
        },
      ),
    );
  });
});
