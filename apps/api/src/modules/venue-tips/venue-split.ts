import { BASIS_POINTS_WHOLE } from '@tipcard/shared/venue-tips/schemas';
import type { VenueTipPart } from '../../db/schema/venue-tips.ts';
import { weightedSplit } from '../teams/teams.service.ts';

/** A team of the venue at the moment of payment: its percentage (basis points) and how many members it has. */
export interface VenueTeam {
  teamId: string;
  basisPoints: number;
  members: number;
}

export type VenueSplitBasis = 'percentages' | 'even' | 'even_no_weight';

/**
 * The default with no percentages set: even between the venue's teams, as basis points (the leftover points to the
 * oldest teams), so the admin's form starts from what is in force.
 */
export const evenBasisPoints = (teams: number): number[] =>
  teams === 0
    ? []
    : weightedSplit(
        BASIS_POINTS_WHOLE,
        Array.from({ length: teams }, () => 1),
      );

/**
 * A venue tip's parts per team (decision 0058), the teams in the venue's order (oldest first). What the members
 * receive (the payment's total less its fee) and the fee are each split by the teams' weights, largest remainder, ties
 * to the earlier team (`weightedSplit`): a team's weight is its percentage, or 0 when it has no member, so its share
 * goes to the others in proportion to theirs. Under no percentages (`set` false) every team with members weighs 1;
 * when the teams with members all have 0 %, they share evenly (`even_no_weight`). Null when no team has a member: the
 * payment is given back.
 */
export function splitVenueTip(
  teams: readonly VenueTeam[],
  input: { set: boolean; totalCents: number; feeCents: number },
): { basis: VenueSplitBasis; parts: VenueTipPart[] } | null {
  const { set, totalCents, feeCents } = input;
  if (!Number.isSafeInteger(feeCents) || feeCents < 0 || !Number.isSafeInteger(totalCents) || feeCents > totalCents)
    throw new RangeError(`Fee ${feeCents} does not fit the payment ${totalCents}`);
  if (!teams.some((team) => team.members > 0)) return null;
  let basis: VenueSplitBasis = set ? 'percentages' : 'even';
  let weights = teams.map((team) => (team.members === 0 ? 0 : set ? team.basisPoints : 1));
  if (weights.every((weight) => weight === 0)) {
    basis = 'even_no_weight';
    weights = teams.map((team) => (team.members === 0 ? 0 : 1));
  }
  const nets = weightedSplit(totalCents - feeCents, weights);
  const fees = weightedSplit(feeCents, weights);
  return {
    basis,
    parts: teams.map((team, index) => ({
      teamId: team.teamId,
      basisPoints: team.basisPoints,
      members: team.members,
      weight: weights[index]!,
      netCents: nets[index]!,
      feeCents: fees[index]!,
    })),
  };
}
