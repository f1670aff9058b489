/**
 * Splits `amount` cents over parts in proportion to their weights, in the order given (largest remainder, decision
 * 0045): every part gets the floor of its exact share, and the cents left over go one each to the largest fractions,
 * earlier parts first on ties. Unlike the refunds' `proportionalSplit`, the amount may exceed the weights' sum. The
 * parts sum to `amount`, none is more than one cent over its exact share, and a part of weight 0 gets nothing (the
 * leftover is smaller than the number of parts with a fraction). Products in BigInt, so no weight can overflow.
 */
export function weightedSplit(amount: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`Cannot split ${amount}`);
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0)) throw new RangeError(`Weights must be whole: ${weights.join()}`);
  const whole = BigInt(weights.reduce((sum, w) => sum + w, 0));
  if (whole === 0n) throw new RangeError('Cannot split over no weight');
  const exact = weights.map((w) => BigInt(amount) * BigInt(w));
  const shares = exact.map((e) => Number(e / whole));
  const order = exact
    .map((e, index) => ({ index, remainder: e % whole }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  let left = amount - shares.reduce((sum, share) => sum + share, 0);
  for (const { index } of order) {
    if (left === 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}

/** `amount` evenly over `parts`: the leftover cents one each to the first parts. */
export const evenSplit = (amount: number, parts: number): number[] => {
  if (!Number.isSafeInteger(parts) || parts < 1) throw new RangeError(`Cannot split ${amount} over ${parts}`);
  return weightedSplit(
    amount,
    Array.from({ length: parts }, () => 1),
  );
};

export interface SplitMember {
  userId: string;
  /** The start of the current membership period: the longest-standing member wins a tie for a leftover cent. */
  joinedAt: Date;
  /** Breaks ties of members who joined at the same instant, so the order never depends on the query plan. */
  membershipId: string;
  /** The member's role in the team, which the points rule prices; null when the admin gave none. */
  role: string | null;
}

/** A worked period; `endedAt` null while the member is still clocked in. */
export interface SplitShift {
  userId: string;
  startedAt: Date;
  endedAt: Date | null;
}

/**
 * A team's split rule (decision 0045): `even` among the members; `hours` among the members on shift at the tip's
 * instant, by the minutes each worked in the window before it; `points` among the members by their role's points.
 */
export type SplitRule = { kind: 'even' } | { kind: 'hours' } | { kind: 'points'; points: Readonly<Record<string, number>> };

/** How far back the hours rule counts the work of the members on shift: a service, not a day (decision 0045). */
export const HOURS_WINDOW_MS = 12 * 3_600_000;

/**
 * What a split was based on: the rule's own weights, or even when the rule had nothing to go by (nobody on shift, or
 * every weight zero).
 */
export type SplitBasis = 'even' | 'hours' | 'points' | 'even_nobody_on_shift' | 'even_no_weight';

export interface MemberShare<M extends SplitMember> {
  member: M;
  /** The member's weight under the basis: minutes worked (hours), points, or 1 (even); 0 shares nothing. */
  weight: number;
  /** Minutes worked in the window (hours rule) or the role's points (points rule); null under the even rule. */
  minutes: number | null;
  points: number | null;
  netCents: number;
  feeCents: number;
}

export interface SplitResult<M extends SplitMember> {
  basis: SplitBasis;
  /** Every member, longest-standing first, with what they get (0 for those outside the basis). */
  shares: MemberShare<M>[];
}

const bySeniority = (a: SplitMember, b: SplitMember) =>
  a.joinedAt.getTime() - b.joinedAt.getTime() || (a.membershipId < b.membershipId ? -1 : a.membershipId > b.membershipId ? 1 : 0);

/** Whole minutes the member worked in [from, to), over all their shifts; an open shift counts up to `to`. */
export function minutesWorked(shifts: readonly SplitShift[], userId: string, from: Date, to: Date): number {
  let ms = 0;
  for (const shift of shifts) {
    if (shift.userId !== userId) continue;
    const start = Math.max(shift.startedAt.getTime(), from.getTime());
    const end = Math.min(shift.endedAt?.getTime() ?? to.getTime(), to.getTime());
    if (end > start) ms += end - start;
  }
  return Math.floor(ms / 60_000);
}

/** On shift at `at`: a shift [start, end) contains the instant (an open shift has no end yet). */
export const onShiftAt = (shifts: readonly SplitShift[], userId: string, at: Date): boolean =>
  shifts.some((s) => s.userId === userId && s.startedAt <= at && (s.endedAt === null || s.endedAt > at));

/**
 * A team tip's shares under a rule (DESIGN "The next wave", decision 0045): the one function the credit and the
 * preview both call. What the members receive (the payment's total less its fee) and the fee are each split by the
 * rule's weights (largest remainder, ties to the longest-standing member). The hours rule attributes the tip to the
 * members on shift at `at`, each weighted by the minutes worked in the 12 hours before it; with nobody on shift it is
 * even among the members. A member of weight 0 gets nothing; when every weight is 0 the split is even.
 */
export function splitTeamTip<M extends SplitMember>(
  rule: SplitRule,
  input: { members: readonly M[]; shifts: readonly SplitShift[]; at: Date; totalCents: number; feeCents: number },
): SplitResult<M> {
  const { members, shifts, at, totalCents, feeCents } = input;
  if (members.length === 0) throw new RangeError('A team tip needs at least one member');
  if (!Number.isSafeInteger(feeCents) || feeCents < 0 || !Number.isSafeInteger(totalCents) || feeCents > totalCents)
    throw new RangeError(`Fee ${feeCents} does not fit the payment ${totalCents}`);
  const ordered = [...members].sort(bySeniority);
  let basis: SplitBasis = rule.kind;
  let measured = ordered.map((member) => ({ member, weight: 1, minutes: null as number | null, points: null as number | null }));
  if (rule.kind === 'hours') {
    const from = new Date(at.getTime() - HOURS_WINDOW_MS);
    measured = ordered.map((member) => {
      const minutes = minutesWorked(shifts, member.userId, from, at);
      return { member, weight: onShiftAt(shifts, member.userId, at) ? minutes : 0, minutes, points: null };
    });
    if (!ordered.some((member) => onShiftAt(shifts, member.userId, at))) basis = 'even_nobody_on_shift';
  } else if (rule.kind === 'points') {
    measured = ordered.map((member) => {
      const points = member.role !== null ? (rule.points[member.role] ?? 0) : 0;
      return { member, weight: points, minutes: null, points };
    });
  }
  if (basis === rule.kind && rule.kind !== 'even' && measured.every((m) => m.weight === 0)) basis = 'even_no_weight';
  const weights = basis === rule.kind ? measured.map((m) => m.weight) : measured.map(() => 1);
  const nets = weightedSplit(totalCents - feeCents, weights);
  const fees = weightedSplit(feeCents, weights);
  return {
    basis,
    shares: measured.map((m, index) => ({ ...m, weight: weights[index]!, netCents: nets[index]!, feeCents: fees[index]! })),
  };
}
