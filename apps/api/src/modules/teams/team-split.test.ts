import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tipBreakdown } from '@tipcard/shared/payments/fees';
import { evenSplit, splitAmongMembers } from './team-split.ts';

const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('splitAmongMembers', () => {
  it('for any tip from 1 cent to 10,000 EUR and 1–50 members: shares and fees sum exactly, differ by at most a cent, leftovers by membership start', () => {
    const member = fc.record({
      joinedAt: fc.integer({ min: 0, max: 1_000 }).map((minute) => new Date(Date.UTC(2026, 0, 1) + minute * 60_000)),
      membershipId: fc.integer({ min: 0, max: 99 }).map(String),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        fc.array(member, { minLength: 1, maxLength: 50 }),
        (amountCents, coverFee, members) => {
          const tip = tipBreakdown(amountCents, 5, coverFee);
          const split = splitAmongMembers(
            members.map((m, i) => ({ ...m, userId: `user-${i}` })),
            tip.totalCents,
            tip.feeCents,
          );
          const nets = split.map((s) => s.netCents);
          const fees = split.map((s) => s.feeCents);
          // Plain checks rather than expect(): 100,000 cases of up to 50 members each must stay quick.
          const ordered = split.every(
            (s, i) =>
              s.netCents >= 0 &&
              s.feeCents >= 0 &&
              (i === 0 ||
                // A member who started earlier never gets less than one who started later (net or fee).
                (split[i - 1]!.member.joinedAt <= s.member.joinedAt &&
                  split[i - 1]!.netCents >= s.netCents &&
                  split[i - 1]!.feeCents >= s.feeCents)),
          );
          return (
            split.length === members.length &&
            sum(nets) === tip.netCents &&
            sum(fees) === tip.feeCents &&
            sum(nets) + sum(fees) === tip.totalCents &&
            spread(nets) <= 1 &&
            spread(fees) <= 1 &&
            ordered &&
            // With "cover the cost" every member gets their full share of the tip itself.
            (!coverFee || nets.every((net, i) => net === evenSplit(amountCents, members.length)[i]))
          );
        },
      ),
      { numRuns: 100_000 },
    );
  });

  it('gives the leftover cents one each to the longest-standing members', () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
    const members = [
      { userId: 'c', joinedAt: at(30), membershipId: 'm3' },
      { userId: 'a', joinedAt: at(10), membershipId: 'm1' },
      { userId: 'b', joinedAt: at(20), membershipId: 'm2' },
    ];
    // 10.00 EUR, 5% fee not covered: 9.50 received over three is 3.17 + 3.17 + 3.16; the 0.50 fee 0.17 + 0.17 + 0.16.
    const split = splitAmongMembers(members, 1_000, 50);
    expect(split.map((s) => [s.member.userId, s.netCents, s.feeCents])).toEqual([
      ['a', 317, 17],
      ['b', 317, 17],
      ['c', 316, 16],
    ]);
  });

  it('refuses what cannot be split', () => {
    expect(() => splitAmongMembers([], 100, 5)).toThrow(RangeError);
    expect(() => evenSplit(-1, 2)).toThrow(RangeError);
    expect(() => evenSplit(1.5, 2)).toThrow(RangeError);
  });
});
