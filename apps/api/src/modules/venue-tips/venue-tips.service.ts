import type { OpsVenuePerson } from '@tipcard/shared/ops/schemas';
import type { PublicTeam } from '@tipcard/shared/teams/schemas';
import {
  BASIS_POINTS_WHOLE,
  formatPercent,
  type VenueCard,
  type VenuePercentages,
  type VenuePercentagesInput,
} from '@tipcard/shared/venue-tips/schemas';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  addCardRating,
  createTeamCard,
  findCardRecipient,
  paymentUrlOf,
  updateTeamCard,
  type CardSharing,
} from '../cards/cards.service.ts';
import { payerRatingOf, type AllocationPlan, type PurposeHandler } from '../payments/payments.service.ts';
import {
  findVenue,
  isVenueAdmin,
  memberIdsOfTeam,
  recordTeamSplit,
  requireVenueAdmin,
  requireVenueMember,
  splitForTeam,
  teamsOfVenue,
  type OpsVenueCardPart,
  type TeamsService,
  type VenueTeamRow,
} from '../teams/teams.service.ts';
import { findTipNote } from '../tips/tips.service.ts';
import { t } from '../../lib/i18n.ts';
import { enqueueSmsAt } from '../messaging/messaging.service.ts';
import { findUserById, listClients } from '../users/users.service.ts';
import * as repo from './venue-tips.repository.ts';
import { evenBasisPoints, splitVenueTip, type VenueTeam } from './venue-split.ts';

type PaymentRow = Parameters<PurposeHandler['allocate']>[1];

/**
 * Each team's percentage in force: the version's, 0 for a team it does not name (made after it), or the default even
 * split when the venue never set one.
 */
function percentagesOf(teams: readonly VenueTeamRow[], row: repo.PercentagesRow | undefined): number[] {
  if (!row) return evenBasisPoints(teams.length);
  const byTeam = new Map(row.shares.map((share) => [share.teamId, share.basisPoints]));
  return teams.map((team) => byTeam.get(team.id) ?? 0);
}

/** What the handler decided in `allocate`, recorded with the credit in `onSucceeded` (same transaction). */
interface PendingVenueSplit {
  venue: repo.VenueTipSplitInsert;
  teams: Parameters<typeof recordTeamSplit>[1][];
}

/**
 * What a tip to a venue card means to the money (the `venue_tip` purpose, decision 0058). At the moment of payment
 * the tip and its fee are split between the venue's teams by the percentages in force (a team with no member gets
 * nothing, its share going to the others by their percentages), then each team's part among its members by the
 * team's own rule, with the team card's functions. The teams' rows are share-locked in id order, then the venue row:
 * a change of membership locks its team for update and a change of percentages the venue, so the whole split sees
 * one moment. Nobody in any team: no plan, and payments gives the tip back.
 */
export function createVenueTipHandler(): PurposeHandler {
  const pending = new WeakMap<PaymentRow, PendingVenueSplit>();
  return {
    purpose: 'venue_tip',
    async allocate(tx, payment, now) {
      const card = await repo.findVenueCardByCard(tx, payment.subjectId);
      if (!card) throw new Error(`Venue tip ${payment.id} has no venue to credit`);
      const teams = await teamsOfVenue(tx, card.workplaceId, 'share');
      const venue = (await findVenue(tx, card.workplaceId, 'share'))!;
      const percentages = await repo.findPercentagesAt(tx, venue.id, now);
      const points = percentagesOf(teams, percentages);
      const inputs: VenueTeam[] = [];
      for (const [index, team] of teams.entries())
        inputs.push({ teamId: team.id, basisPoints: points[index]!, members: (await memberIdsOfTeam(tx, team.id)).length });
      const split = splitVenueTip(inputs, {
        set: percentages !== undefined,
        totalCents: payment.totalCents,
        feeCents: payment.feeCents,
      });
      if (!split) return [];
      const totalWeight = split.parts.reduce((sum, part) => sum + part.weight, 0);
      const note = await findTipNote(tx, payment.id);
      const plans: AllocationPlan[] = [];
      const records: PendingVenueSplit['teams'] = [];
      for (const [index, part] of split.parts.entries()) {
        if (part.netCents + part.feeCents === 0) continue;
        const team = teams[index]!;
        const teamSplit = (await splitForTeam(
          tx,
          team.id,
          {
            paymentId: payment.id,
            totalCents: part.netCents + part.feeCents,
            feeCents: part.feeCents,
            venuePart: {
              percentagesId: percentages?.id ?? null,
              basisPoints: part.basisPoints,
              weight: part.weight,
              totalWeight,
              venueTotalCents: payment.totalCents,
              venueFeeCents: payment.feeCents,
            },
          },
          now,
        ))!;
        records.push(teamSplit.record);
        for (const share of teamSplit.result.shares)
          if (share.netCents + share.feeCents > 0)
            plans.push({
              userId: share.member.userId,
              netCents: share.netCents,
              feeCents: share.feeCents,
              history: {
                detail: { kind: 'venue_tip', venue: venue.name, team: team.title },
                message: note?.message ?? null,
                rating: note?.rating ?? null,
              },
            });
      }
      pending.set(payment, {
        venue: {
          paymentId: payment.id,
          workplaceId: venue.id,
          percentagesId: percentages?.id ?? null,
          basis: split.basis,
          at: now,
          totalCents: payment.totalCents,
          feeCents: payment.feeCents,
          parts: split.parts,
        },
        teams: records,
      });
      return plans;
    },
    async onSucceeded(tx, payment, _allocations, _now, plans) {
      const split = pending.get(payment);
      if (split) {
        pending.delete(payment);
        await repo.insertVenueTipSplit(tx, split.venue);
        for (const record of split.teams) await recordTeamSplit(tx, record);
      }
      const rating = payerRatingOf(plans);
      if (rating != null) await addCardRating(tx, payment.subjectId, rating);
    },
  };
}

export type VenueTipsService = ReturnType<typeof createVenueTipsService>;

/** The venue card and the percentages between a venue's teams (decision 0058). */
export function createVenueTipsService(deps: {
  db: Database;
  clock: Clock;
  publicUrl: string;
  teams: Pick<TeamsService, 'teamOfCard'>;
}) {
  const { db, clock, publicUrl } = deps;

  async function describePercentages(executor: Executor, userId: string, workplaceId: string): Promise<VenuePercentages> {
    const venue = await requireVenueMember(executor, userId, workplaceId);
    const teams = await teamsOfVenue(executor, workplaceId);
    const row = await repo.findPercentagesAt(executor, workplaceId, clock.now());
    const points = percentagesOf(teams, row);
    const described = [];
    for (const [index, team] of teams.entries())
      described.push({
        team_id: team.id,
        title: team.title,
        member_count: (await memberIdsOfTeam(executor, team.id)).length,
        basis_points: points[index]!,
      });
    return {
      workplace_id: workplaceId,
      id: row?.id ?? null,
      created_at: row?.createdAt.toISOString() ?? null,
      teams: described,
      // The admin rule's one home is requireVenueAdmin; here only whether to offer the form.
      can_edit: await isVenueAdmin(executor, userId, venue),
    };
  }

  return {
    /**
     * The venue's card, for its admins: made on first need (decision 0058), held by the maker's client like a team
     * card, so its link, QR code and print sheet work as for any card, and every other admin of the venue may use them
     * too (`mayUseVenueCard`, decision 0061). Made once, under the venue row's lock.
     */
    async venueCard(userId: string, workplaceId: string): Promise<VenueCard> {
      await requireVenueAdmin(db, userId, workplaceId);
      const existing = await repo.findVenueCardOfWorkplace(db, workplaceId);
      const card =
        existing ??
        (await db.transaction(async (tx) => {
          const { workplace } = await requireVenueAdmin(tx, userId, workplaceId, 'update');
          const made = await repo.findVenueCardOfWorkplace(tx, workplaceId);
          if (made) return made;
          const [client] = await listClients(tx, userId);
          const created = await createTeamCard(tx, client!.id, {
            title: workplace.name,
            workplaceName: workplace.name,
            country: workplace.country,
          });
          return repo.insertVenueCard(tx, { workplaceId, cardId: created.id, createdAt: clock.now() });
        }));
      return { workplace_id: workplaceId, card_id: card.cardId, payment_url: paymentUrlOf(publicUrl, card.cardId) };
    },

    /** The percentages in force; every member of the venue may read them (the tipping rule is no secret). */
    percentages(userId: string, workplaceId: string): Promise<VenuePercentages> {
      return describePercentages(db, userId, workplaceId);
    },

    /**
     * A venue admin sets the percentages: a new version in force from now, never an edit. Every team of the venue
     * once, none other, summing to 10000 basis points; otherwise a 422 naming the field, and nothing changes.
     */
    async setPercentages(userId: string, workplaceId: string, body: VenuePercentagesInput): Promise<VenuePercentages> {
      return db.transaction(async (tx) => {
        const venue = await requireVenueAdmin(tx, userId, workplaceId, 'update');
        const teams = new Set((await teamsOfVenue(tx, workplaceId)).map((team) => team.id));
        const named = body.shares.map((share) => share.team_id);
        const problems: Record<string, string[]> = {};
        body.shares.forEach((share, index) => {
          if (!teams.has(share.team_id) || named.indexOf(share.team_id) !== index) problems[`shares.${index}.team_id`] = ['team'];
        });
        if (Object.keys(problems).length > 0 || named.length !== teams.size)
          throw new AppError('venue_percentages_teams', { validationErrors: { shares: ['teams'], ...problems } });
        const total = body.shares.reduce((sum, share) => sum + share.basis_points, 0);
        if (total !== BASIS_POINTS_WHOLE) throw new AppError('venue_percentages_sum', { validationErrors: { shares: ['sum'] } });
        const now = clock.now();
        await repo.insertPercentages(tx, {
          workplaceId,
          shares: body.shares.map((share) => ({ teamId: share.team_id, basisPoints: share.basis_points })),
          createdByUserId: userId,
          createdAt: now,
        });
        // Every other member of the venue is told their team's new percentage, in their language (issue 29).
        for (const team of await teamsOfVenue(tx, workplaceId)) {
          const basisPoints = body.shares.find((share) => share.team_id === team.id)!.basis_points;
          for (const memberId of await memberIdsOfTeam(tx, team.id)) {
            const member = memberId === userId ? undefined : await findUserById(tx, memberId);
            if (!member || member.deletedAt || member.erasedAt) continue;
            const vars = {
              workplace: venue.workplace.name,
              team: team.title,
              percent: formatPercent(basisPoints, member.language),
            };
            await enqueueSmsAt(tx, { to: member.phone, body: t('sms.venue_percentages_changed', vars, member.language) }, now);
          }
        }
        return describePercentages(tx, userId, workplaceId);
      });
    },

    /**
     * The venue of a venue card as its guest page shows it, like a team card's team: the venue's name and every
     * member of its teams; null for any other card.
     */
    async venueOfCard(cardId: string): Promise<PublicTeam | null> {
      const card = await repo.findVenueCardByCard(db, cardId);
      if (!card) return null;
      const venue = (await findVenue(db, card.workplaceId))!;
      const members: PublicTeam['members'] = [];
      for (const team of await teamsOfVenue(db, card.workplaceId))
        members.push(...((await deps.teams.teamOfCard(team.cardId))?.members ?? []));
      return { id: venue.id, title: venue.name, workplace_name: venue.name, member_count: members.length, members };
    },
  };
}

/**
 * Who may use a venue card without holding it (the cards module's `CardSharing`, decision 0061): every admin of its
 * venue now, so each can show, print and order its QR code; false for any other card or person.
 */
export const mayUseVenueCard: CardSharing = async (db, userId, cardId) => {
  const card = await repo.findVenueCardByCard(db, cardId);
  if (!card) return false;
  return requireVenueAdmin(db, userId, card.workplaceId).then(
    () => true,
    (error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return false;
      throw error;
    },
  );
};

/**
 * A venue admin's role ended (decision 0061): when their client holds the venue card it passes to the successor's
 * client, as the teams they held do, so the card's guest page lives on after the holder's account is deleted. Runs in
 * the role's end, under the venue row's lock that the card's making takes too.
 */
export async function passVenueCard(tx: Executor, workplaceId: string, fromUserId: string, toClientId: string): Promise<void> {
  const card = await repo.findVenueCardOfWorkplace(tx, workplaceId);
  if (card && (await findCardRecipient(tx, card.cardId))?.userId === fromUserId)
    await updateTeamCard(tx, card.cardId, { clientId: toClientId });
}

/**
 * The venue card and the percentages between the venue's teams as the back office shows them (issue 29): the card
 * once made, the percentages in force at `now` for every team, and every version as it was set, naming its author
 * with `person`.
 */
export async function describeVenueCardForOps(
  db: Executor,
  workplaceId: string,
  { publicUrl, now, person }: { publicUrl: string; now: Date; person: (userId: string) => Promise<OpsVenuePerson> },
): Promise<OpsVenueCardPart> {
  const [card, teams, versions, inForce] = await Promise.all([
    repo.findVenueCardOfWorkplace(db, workplaceId),
    teamsOfVenue(db, workplaceId),
    repo.listPercentages(db, workplaceId),
    repo.findPercentagesAt(db, workplaceId, now),
  ]);
  const titles = new Map(teams.map((team) => [team.id, team.title]));
  const points = percentagesOf(teams, inForce);
  const described = [];
  for (const version of versions)
    described.push({
      id: version.id,
      created_at: version.createdAt.toISOString(),
      created_by: await person(version.createdByUserId),
      shares: version.shares.map((share) => ({
        team_id: share.teamId,
        title: titles.get(share.teamId) ?? '',
        basis_points: share.basisPoints,
      })),
    });
  return {
    venue_card: card
      ? { card_id: card.cardId, payment_url: paymentUrlOf(publicUrl, card.cardId), created_at: card.createdAt.toISOString() }
      : null,
    percentages: {
      in_force: {
        id: inForce?.id ?? null,
        teams: teams.map((team, index) => ({ team_id: team.id, title: team.title, basis_points: points[index]! })),
      },
      versions: described,
    },
  };
}

/** The venue card of a workplace once its admin has made it, else null (the venue page's "everyone here" choice). */
export async function venueCardIdOf(db: Executor, workplaceId: string): Promise<string | null> {
  return (await repo.findVenueCardOfWorkplace(db, workplaceId))?.cardId ?? null;
}
