/**
 * Splits `amount` cents evenly over `parts` parts, in the order given: every part gets the floor of the even share and
 * the cents left over go one each to the first parts. The parts sum to `amount` and differ by at most one cent.
 */
export function evenSplit(amount: number, parts: number): number[] {
  if (!Number.isSafeInteger(amount) || amount < 0 || !Number.isSafeInteger(parts) || parts < 1) {
    throw new RangeError(`Cannot split ${amount} over ${parts}`);
  }
  const base = Math.floor(amount / parts);
  const leftover = amount % parts;
  return Array.from({ length: parts }, (_, index) => base + (index < leftover ? 1 : 0));
}

export interface SplitMember {
  userId: string;
  /** The start of the current membership period: the longest-standing member gets the first leftover cent. */
  joinedAt: Date;
  /** Breaks ties of members who joined at the same instant, so the order never depends on the query plan. */
  membershipId: string;
}

/**
 * A team tip's shares (DESIGN "Teams and workplaces"): what the members receive (the payment's total less its fee)
 * and the fee are each split evenly, leftover cents to the longest-standing members. With "cover the cost" what is
 * received is the whole tip, so every member gets their full share of it. Answers the members longest-standing first.
 */
export function splitAmongMembers<M extends SplitMember>(members: readonly M[], totalCents: number, feeCents: number) {
  if (members.length === 0) throw new RangeError('A team tip needs at least one member');
  if (!Number.isSafeInteger(feeCents) || feeCents < 0 || feeCents > totalCents)
    throw new RangeError(`Fee ${feeCents} does not fit the payment ${totalCents}`);
  const ordered = [...members].sort(
    (a, b) =>
      a.joinedAt.getTime() - b.joinedAt.getTime() ||
      (a.membershipId < b.membershipId ? -1 : a.membershipId > b.membershipId ? 1 : 0),
  );
  const nets = evenSplit(totalCents - feeCents, ordered.length);
  const fees = evenSplit(feeCents, ordered.length);
  return ordered.map((member, index) => ({ member, netCents: nets[index]!, feeCents: fees[index]! }));
}
