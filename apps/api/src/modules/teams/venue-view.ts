import type { OpsVenueDetail, OpsVenuePerson } from '@tipcard/shared/ops/schemas';
import type { Executor } from '../../db/client.ts';
import { findPrivateCardOfUser } from '../cards/cards.service.ts';
import { findUserById } from '../users/users.service.ts';
import * as repo from './teams.repository.ts';

/** Every period a team has closed: months are `yyyy-mm`, so this is before any of them. */
const ALL_MONTHS = '0000-01';

/** A venue as the back office's search lists it. */
export interface VenueHit {
  id: string;
  name: string;
  country: string;
  createdAt: Date;
}

/** Venues (workplaces) by a part of their name, or by their id's first digits (`idRange`), for the back office. */
export async function searchVenues(
  db: Executor,
  text: string,
  idRange: [string, string] | null,
  limit: number,
): Promise<VenueHit[]> {
  return repo.searchWorkplaces(db, text, idRange, limit);
}

/** What the venue-tips module, which builds on this one, adds to the back office's venue (decision 0058). */
export type OpsVenueCardPart = Pick<OpsVenueDetail, 'venue_card' | 'percentages'>;

/**
 * Everything the back office shows of a venue (issue 29), read-only: its admins with who added them, its tipping
 * policy versions and each of its teams with the admin, the current members, every split rule version and every
 * closed or locked period with who closed or locked it and how many objections it had; the venue card and the
 * percentages come from `venueCardOf`, given the same way of naming a person. Null for an unknown id. `db` is the
 * reader the caller chose.
 */
export async function describeVenueForOps(
  db: Executor,
  workplaceId: string,
  venueCardOf: (person: (userId: string) => Promise<OpsVenuePerson>) => Promise<OpsVenueCardPart>,
): Promise<OpsVenueDetail | null> {
  const workplace = await repo.findWorkplace(db, workplaceId);
  if (!workplace) return null;
  const people = new Map<string, OpsVenuePerson>();
  const person = async (userId: string): Promise<OpsVenuePerson> => {
    if (!people.has(userId)) {
      const [user, card] = await Promise.all([findUserById(db, userId), findPrivateCardOfUser(db, userId)]);
      people.set(userId, { user_id: userId, public_name: card?.public_name ?? null, phone: user?.phone ?? '' });
    }
    return people.get(userId)!;
  };

  const admins = [];
  for (const admin of await repo.listWorkplaceAdmins(db, workplace.id))
    admins.push({
      ...(await person(admin.userId)),
      since: admin.createdAt.toISOString(),
      added_by: await person(admin.addedByUserId),
    });

  const policies = [];
  for (const policy of await repo.listPolicyVersions(db, workplace.id))
    policies.push({
      version: policy.version,
      text: policy.text,
      published_at: policy.publishedAt.toISOString(),
      published_by: await person(policy.publishedByUserId),
    });

  const teams: OpsVenueDetail['teams'] = [];
  for (const team of await repo.listTeamsOfWorkplace(db, workplace.id)) {
    const members = [];
    for (const membership of await repo.listOpenMemberships(db, team.id))
      members.push({ ...(await person(membership.userId)), joined_at: membership.joinedAt.toISOString(), role: membership.role });
    const rules = [];
    for (const rule of await repo.listSplitRules(db, team.id))
      rules.push({
        id: rule.id,
        kind: rule.kind,
        points: rule.points,
        created_at: rule.createdAt.toISOString(),
        created_by: await person(rule.createdByUserId),
      });
    const objections = await repo.listPeriodObjections(db, team.id, ALL_MONTHS);
    const rows = (await repo.listPeriods(db, team.id, ALL_MONTHS)).sort((a, b) => b.month.localeCompare(a.month));
    const periods = [];
    for (const row of rows) {
      const ofMonth = objections.filter((objection) => objection.month === row.month);
      periods.push({
        month: row.month,
        state: row.lockedAt ? ('locked' as const) : ('closed' as const),
        closed_at: row.closedAt.toISOString(),
        closed_by: await person(row.closedByUserId),
        objections_until: row.objectionsUntil.toISOString(),
        locked_at: row.lockedAt?.toISOString() ?? null,
        locked_by: row.lockedByUserId ? await person(row.lockedByUserId) : null,
        objections: ofMonth.length,
        open_objections: ofMonth.filter((objection) => !objection.answeredAt).length,
      });
    }
    teams.push({
      id: team.id,
      title: team.title,
      card_id: team.cardId,
      created_at: team.createdAt.toISOString(),
      admin: await person(team.adminUserId),
      members,
      rules,
      periods,
    });
  }

  return {
    id: workplace.id,
    name: workplace.name,
    country: workplace.country,
    created_at: workplace.createdAt.toISOString(),
    created_by: await person(workplace.createdByUserId),
    admins,
    ...(await venueCardOf(person)),
    policies,
    teams,
  };
}
