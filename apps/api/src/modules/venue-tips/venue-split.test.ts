import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tipBreakdown } from '@tipcard/shared/payments/fees';
import { BASIS_POINTS_WHOLE } from '@tipcard/shared/venue-tips/schemas';
import { splitTeamTip } from '../teams/teams.service.ts';
import { evenBasisPoints, splitVenueTip, type VenueTeam } from './venue-split.ts';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Basis points for `n` teams summing to 10000: cut points drawn in [0, 10000]. */
const percentagesOf = (n: number) =>
  fc.array(fc.integer({ min: 0, max: BASIS_POINTS_WHOLE }), { minLength: n - 1, maxLength: n - 1 }).map((cuts) => {
    const sorted = [0, ...cuts.sort((a, b) => a - b), BASIS_POINTS_WHOLE];
    return sorted.slice(1).map((cut, i) => cut - sorted[i]!);
  });

/** A venue of 1–8 teams (some maybe empty), its percentages set or not, and a tip as guests pay it. */
const scenario = fc
  .integer({ min: 1, max: 8 })
  .chain((n) =>
    fc.record({
      basisPoints: percentagesOf(n),
      members: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: n, maxLength: n }),
      set: fc.boolean(),
      amountCents: fc.integer({ min: 1, max: 50_000 }),
      coverFee: fc.boolean(),
    }),
  )
  .map(({ basisPoints, members, set, amountCents, coverFee }) => {
    const teams: VenueTeam[] = basisPoints.map((points, i) => ({
      teamId: `team-${i}`,
      basisPoints: points,
      members: members[i]!,
    }));
    const { totalCents, feeCents } = tipBreakdown(amountCents, 5, coverFee);
    return { teams, set, totalCents, feeCents };
  });

describe('venue tip split between teams (decision 0058)', () => {
  it('sums to the tip and fee exactly, none negative, nothing to a team with no member; null when nobody is in any team', () => {
    fc.assert(
      fc.property(scenario, ({ teams, set, totalCents, feeCents }) => {
        const split = splitVenueTip(teams, { set, totalCents, feeCents });
        if (teams.every((team) => team.members === 0)) {
          expect(split).toBeNull();
          return;
        }
        const parts = split!.parts;
        expect(sum(parts.map((p) => p.netCents))).toBe(totalCents - feeCents);
        expect(sum(parts.map((p) => p.feeCents))).toBe(feeCents);
        for (const part of parts) {
          expect(part.netCents).toBeGreaterThanOrEqual(0);
          expect(part.feeCents).toBeGreaterThanOrEqual(0);
          if (part.members === 0) expect(part.netCents + part.feeCents).toBe(0);
        }
      }),
    );
  });

  it('gives each team within one cent of its percentage (of the teams with members), the leftover cents one each to the largest fractions', () => {
    fc.assert(
      fc.property(scenario, ({ teams, set, totalCents, feeCents }) => {
        const split = splitVenueTip(teams, { set, totalCents, feeCents });
        if (!split) return;
        const weights = split.parts.map((p) => p.weight);
        const whole = sum(weights);
        for (const [amount, key] of [
          [totalCents - feeCents, 'netCents'],
          [feeCents, 'feeCents'],
        ] as const) {
          const floors = weights.map((w) => Math.floor((amount * w) / whole));
          const leftover = amount - sum(floors);
          // The leftover is stated: fewer cents than teams with a fraction, one each, never to a team of weight 0.
          expect(leftover).toBeLessThan(Math.max(1, weights.filter((w) => w > 0).length));
          split.parts.forEach((part, i) => {
            const extra = part[key] - floors[i]!;
            expect([0, 1]).toContain(extra);
            if (weights[i] === 0) expect(part[key]).toBe(0);
            // Within one cent of the exact share: |part × whole − amount × weight| < whole.
            expect(Math.abs(part[key] * whole - amount * weights[i]!)).toBeLessThan(whole);
          });
          // Fair leftover: a team with a larger remainder never got a cent that one with a smaller remainder lacks.
          const remainder = (i: number) => (amount * weights[i]!) % whole;
          for (let a = 0; a < weights.length; a++)
            for (let b = 0; b < weights.length; b++)
              if (remainder(a) > remainder(b))
                expect(split.parts[a]![key] - floors[a]!).toBeGreaterThanOrEqual(split.parts[b]![key] - floors[b]!);
        }
        if (set && split.basis === 'percentages' && teams.every((team) => team.members > 0))
          // Everybody present: each team's part is its percentage of the tip, within a cent.
          for (const part of split.parts)
            expect(Math.abs(part.netCents * BASIS_POINTS_WHOLE - (totalCents - feeCents) * part.basisPoints)).toBeLessThan(
              BASIS_POINTS_WHOLE,
            );
      }),
    );
  });

  it("then each team's part among its members by the team's rule adds up to the whole tip, to the cent", () => {
    fc.assert(
      fc.property(scenario, fc.constantFrom('even', 'points'), ({ teams, set, totalCents, feeCents }, kind) => {
        const split = splitVenueTip(teams, { set, totalCents, feeCents });
        if (!split) return;
        let net = 0;
        let fee = 0;
        for (const part of split.parts) {
          if (part.members === 0) continue;
          const members = Array.from({ length: part.members }, (_, i) => ({
            userId: `${part.teamId}-u${i}`,
            membershipId: `${part.teamId}-m${i}`,
            joinedAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
            role: i % 2 === 0 ? 'waiter' : 'cook',
          }));
          const rule =
            kind === 'even' ? ({ kind: 'even' } as const) : ({ kind: 'points', points: { waiter: 3, cook: 1 } } as const);
          const shares = splitTeamTip(rule, {
            members,
            shifts: [],
            at: new Date(Date.UTC(2026, 0, 2)),
            totalCents: part.netCents + part.feeCents,
            feeCents: part.feeCents,
          }).shares;
          for (const share of shares) {
            expect(share.netCents).toBeGreaterThanOrEqual(0);
            expect(share.feeCents).toBeGreaterThanOrEqual(0);
          }
          net += sum(shares.map((s) => s.netCents));
          fee += sum(shares.map((s) => s.feeCents));
        }
        expect([net, fee]).toEqual([totalCents - feeCents, feeCents]);
      }),
    );
  });

  it('examples: the leftover cent, an empty team, and the default even split', () => {
    const teams = (members: number[], points: number[]) =>
      points.map((basisPoints, i) => ({ teamId: `t${i}`, basisPoints, members: members[i]! }));
    // 10.00 at 33.34 / 33.33 / 33.33 %: 333.4, 333.3, 333.3 → 334, 333, 333.
    expect(
      splitVenueTip(teams([1, 1, 1], [3334, 3333, 3333]), { set: true, totalCents: 1_000, feeCents: 0 })!.parts.map(
        (p) => p.netCents,
      ),
    ).toEqual([334, 333, 333]);
    // Kitchen (30 %) has nobody: front of house (60 %) and bar (10 %) share it 6:1 — 857.14 and 142.86 → 857 and 143.
    const empty = splitVenueTip(teams([2, 0, 1], [6000, 3000, 1000]), { set: true, totalCents: 1_000, feeCents: 0 })!;
    expect(empty.parts.map((p) => p.netCents)).toEqual([857, 0, 143]);
    // No percentages: even between the teams with members; the cent to the oldest.
    expect(
      splitVenueTip(teams([1, 1, 0], [3334, 3333, 3333]), { set: false, totalCents: 101, feeCents: 0 })!.parts.map(
        (p) => p.netCents,
      ),
    ).toEqual([51, 50, 0]);
    // The teams with members all at 0 %: even among them.
    const zero = splitVenueTip(teams([0, 3, 2], [10_000, 0, 0]), { set: true, totalCents: 1_000, feeCents: 50 })!;
    expect([zero.basis, zero.parts.map((p) => [p.netCents, p.feeCents])]).toEqual([
      'even_no_weight',
      [
        [0, 0],
        [475, 25],
        [475, 25],
      ],
    ]);
    expect(evenBasisPoints(3)).toEqual([3334, 3333, 3333]);
  });
});
