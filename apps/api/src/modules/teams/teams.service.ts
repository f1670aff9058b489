import type { NoticeKind } from '@tipcard/shared/notices/schemas';
import type { z } from 'zod';
import type {
  JoinRequest,
  MembershipPeriod,
  OwnJoinRequest,
  PeriodAdjustment,
  periodAdjustmentBody,
  PeriodAdjustmentResult,
  RulePreview,
  rulePreviewBody,
  Shift,
  shiftBody,
  shiftPatchBody,
  SplitRule as SplitRuleVersion,
  SplitRuleInput,
  SplitRules,
  TeamPeriod,
  TipShare,
  PublicTeam,
  Team,
  TeamStatistics,
  tipRecordsQuery,
  TippingPolicy,
  VenueAdmin,
  Workplace,
  workplaceBody,
  workplacePatchBody,
} from '@tipcard/shared/teams/schemas';
import { normalizePhone } from '@tipcard/shared/auth/phone';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { formatMoney } from '@tipcard/shared/money/format';
import { isUuid } from '@tipcard/shared/uuid';
import type { Locale } from '@tipcard/shared/constants';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { addCardRating, createTeamCard, findPrivateCardOfUser, paymentUrlOf, updateTeamCard } from '../cards/cards.service.ts';
import {
  payerRatingOf,
  sharesOfPairsPerUser,
  sharesReceivedPerUser,
  type PaymentsService,
  type PurposeHandler,
} from '../payments/payments.service.ts';
import { findTipNote } from '../tips/tips.service.ts';
import { t } from '../../lib/i18n.ts';
import { enqueueSmsAt, notifyUser } from '../messaging/messaging.service.ts';
import { findUserById, findUserByPhone, listClients, requireOwnClient } from '../users/users.service.ts';
import * as repo from './teams.repository.ts';
import {
  ADJUSTMENT_KEY_INDEX,
  listAdjustments,
  listAdjustmentsForRecords,
  type AdjustmentRow,
} from './period-adjustments.repository.ts';
import { recordAdjustment } from './period-adjustments.ts';
import { parseShiftCsv, type ImportProblem } from './shift-import.ts';
import { HOURS_WINDOW_MS, splitTeamTip, type SplitMember, type SplitResult, type SplitRule } from './team-split.ts';
import { deadlineSoon, monthOfInstant, OBJECTION_WINDOW_MS, periodSpan, recentMonths } from './team-periods.ts';
import {
  recordsOfAdjustment,
  recordsOfSplit,
  renderTipRecordsPdf,
  tipRecordsCsv,
  type AdjustmentRecord,
  type TipRecord,
} from './tip-records.ts';

export { describeVenueForOps, searchVenues, type OpsVenueCardPart, type VenueHit } from './venue-view.ts';

type WorkplaceInput = z.output<typeof workplaceBody>;
type WorkplacePatch = z.output<typeof workplacePatchBody>;
type RulePreviewInput = z.output<typeof rulePreviewBody>;
type ShiftInput = z.output<typeof shiftBody>;
type ShiftPatch = z.output<typeof shiftPatchBody>;
type TipRecordsQuery = z.output<typeof tipRecordsQuery>;
type AdjustmentInput = z.output<typeof periodAdjustmentBody>;

/** A download of allocation records, ready to send. */
export interface TipRecordsFile {
  contentType: string;
  fileName: string;
  body: string | Buffer;
}

/** The user's current team for the back office's user screen: which, since when, and whether they run it. */
export async function currentTeamOfUser(db: Executor, userId: string) {
  const membership = await repo.findOpenMembership(db, userId);
  if (!membership) return null;
  const { team, workplace } = (await repo.findTeam(db, membership.teamId))!;
  const members = await repo.listOpenMemberships(db, team.id);
  return {
    id: team.id,
    title: team.title,
    workplace: workplace.name,
    workplace_id: workplace.id,
    card_id: team.cardId,
    admin: team.adminUserId === userId,
    members: members.length,
    joined_at: membership.joinedAt.toISOString(),
  };
}

/** Whether the user is the admin of a team: they must hand admin over before leaving (or deleting their account). */
export async function isTeamAdmin(db: Executor, userId: string): Promise<boolean> {
  return (await repo.findTeamAdministeredBy(db, userId)) !== undefined;
}

type PaymentRow = Parameters<PurposeHandler['allocate']>[1];

/** A rule row as the pure split takes it; no row is the default even rule. */
const ruleOf = (row: repo.SplitRuleRow | undefined): SplitRule =>
  !row || row.kind === 'even'
    ? { kind: 'even' }
    : row.kind === 'hours'
      ? { kind: 'hours' }
      : { kind: 'points', points: row.points };

const splitMemberOf = (m: repo.MembershipRow): SplitMember => ({
  userId: m.userId,
  joinedAt: m.joinedAt,
  membershipId: m.id,
  role: m.role,
});

/** The shifts the hours rule may count for a tip at `at`: those overlapping the window before it, `at` included. */
const shiftsAround = (db: Executor, teamId: string, from: Date, to: Date) =>
  repo.listShifts(db, teamId, new Date(from.getTime() - HOURS_WINDOW_MS), new Date(to.getTime() + 1));

const snapshotOf = (result: SplitResult<SplitMember>): repo.TipSplitShare[] =>
  result.shares.map((share) => ({
    userId: share.member.userId,
    membershipId: share.member.membershipId,
    joinedAt: share.member.joinedAt.toISOString(),
    role: share.member.role,
    minutes: share.minutes,
    points: share.points,
    weight: share.weight,
    netCents: share.netCents,
    feeCents: share.feeCents,
  }));

/**
 * An amount split among a team's members of the moment `at` by the team's rule in force then (decision 0045): what a
 * tip to the team card and a team's part of a venue tip (decision 0058) both are. The caller holds the team row under
 * a share lock. Null when the team has no member; otherwise the shares and the record to keep with the credit.
 */
export async function splitForTeam(
  tx: Executor,
  teamId: string,
  amount: { paymentId: string; totalCents: number; feeCents: number; venuePart?: repo.TipSplitInsert['venuePart'] },
  at: Date,
): Promise<{ result: SplitResult<SplitMember>; record: repo.TipSplitInsert } | null> {
  const members = await repo.listOpenMemberships(tx, teamId);
  if (members.length === 0) return null;
  const ruleRow = await repo.findSplitRuleAt(tx, teamId, at);
  const rule = ruleOf(ruleRow);
  const shifts = rule.kind === 'hours' ? await shiftsAround(tx, teamId, at, at) : [];
  const result = splitTeamTip(rule, {
    members: members.map(splitMemberOf),
    shifts,
    at,
    totalCents: amount.totalCents,
    feeCents: amount.feeCents,
  });
  const record: repo.TipSplitInsert = {
    paymentId: amount.paymentId,
    teamId,
    ruleId: ruleRow?.id ?? null,
    ruleKind: rule.kind,
    basis: result.basis,
    at,
    totalCents: amount.totalCents,
    feeCents: amount.feeCents,
    shares: snapshotOf(result),
    venuePart: amount.venuePart ?? null,
  };
  return { result, record };
}

/** Keeps a team's split with the credit (the venue tip's handler, for each team that got a part). */
export const recordTeamSplit = (tx: Transaction, record: repo.TipSplitInsert) => repo.insertTipSplit(tx, record);

/** The venue's teams, oldest first; `share` while a venue tip is split among them (see `listTeamsOfWorkplace`). */
export const teamsOfVenue = (db: Executor, workplaceId: string, lock?: 'share') =>
  repo.listTeamsOfWorkplace(db, workplaceId, lock);

/** The team's members now (user ids), longest-standing first. */
export const memberIdsOfTeam = async (db: Executor, teamId: string) =>
  (await repo.listOpenMemberships(db, teamId)).map((membership) => membership.userId);

/** The venue (workplace) row; `share` while a venue tip is split, `update` while its percentages change. */
export const findVenue = (db: Executor, workplaceId: string, lock?: 'update' | 'share') =>
  repo.findWorkplace(db, workplaceId, lock);

export type VenueRow = repo.WorkplaceRow;
export type VenueTeamRow = repo.TeamRow;
export type { SplitMember, MemberShare } from './team-split.ts';
export { splitTeamTip, weightedSplit } from './team-split.ts';

/**
 * The venue when the user is one of its admins (decisions 0057, 0058): the admin of their own team of it, or an admin
 * of the venue (`workplace_admins`); 404 for anyone else, who learns nothing of it. The one place that rule lives.
 */
export async function requireVenueAdmin(db: Executor, userId: string, workplaceId: string, lock?: 'update') {
  const venue = await requireVenueMember(db, userId, workplaceId, lock);
  if (!(await isVenueAdmin(db, userId, venue))) throw new AppError('not_found');
  return venue;
}

/** Whether a member of the venue runs it: the admin of their own team of it, or an admin of the venue (decision 0057). */
export async function isVenueAdmin(
  db: Executor,
  userId: string,
  venue: { workplace: repo.WorkplaceRow; team: repo.TeamRow },
): Promise<boolean> {
  return venue.team.adminUserId === userId || repo.isWorkplaceAdmin(db, venue.workplace.id, userId);
}

/** The venue when the user is a member of one of its teams now; 404 otherwise. */
export async function requireVenueMember(db: Executor, userId: string, workplaceId: string, lock?: 'update') {
  if (!isUuid(workplaceId)) throw new AppError('not_found');
  const membership = await repo.findOpenMembership(db, userId);
  const found = membership ? await repo.findTeam(db, membership.teamId) : undefined;
  if (found?.workplace.id !== workplaceId) throw new AppError('not_found');
  const workplace = lock ? (await repo.findWorkplace(db, workplaceId, lock))! : found.workplace;
  return { workplace, team: found.team };
}

/**
 * What a tip to a team card means to the money (the `team_tip` purpose, DESIGN "Teams and workplaces", decision 0045):
 * it is split by the team's rule in force at the moment of payment, among the members and shifts of that moment. The
 * team row is share-locked while they are read, and every change of membership, role, shift or rule locks it for
 * update, so the split sees one consistent moment. The inputs and shares are recorded with the credit (onSucceeded,
 * same transaction), so the maths shown later is the one used; a payment given back records none.
 */
export function createTeamTipHandler(): PurposeHandler {
  // allocate and onSucceeded run in one transaction on the same payment row: the split travels between them here.
  const pending = new WeakMap<PaymentRow, repo.TipSplitInsert>();
  return {
    purpose: 'team_tip',
    async allocate(tx, payment, now) {
      const team = await repo.findTeamByCard(tx, payment.subjectId, 'share');
      if (!team) throw new Error(`Team tip ${payment.id} has no team to credit`);
      const split = await splitForTeam(
        tx,
        team.id,
        { paymentId: payment.id, totalCents: payment.totalCents, feeCents: payment.feeCents },
        now,
      );
      // The last member deleted the account: nobody receives it, and payments gives it back.
      if (!split) return [];
      const { result, record } = split;
      pending.set(payment, record);
      const note = await findTipNote(tx, payment.id);
      // A member outside the rule's basis (off shift, no points) receives nothing, so gets no history row either.
      return result.shares
        .filter((share) => share.netCents + share.feeCents > 0)
        .map((share) => ({
          userId: share.member.userId,
          netCents: share.netCents,
          feeCents: share.feeCents,
          history: {
            detail: { kind: 'team_tip', team: team.title },
            message: note?.message ?? null,
            rating: note?.rating ?? null,
          },
        }));
    },
    async onSucceeded(tx, payment, _allocations, _now, plans) {
      const split = pending.get(payment);
      if (split) {
        pending.delete(payment);
        await repo.insertTipSplit(tx, split);
      }
      const rating = payerRatingOf(plans);
      if (rating != null) await addCardRating(tx, payment.subjectId, rating);
    },
  };
}

/** How many of the member's latest team tips their page explains. */
const TIP_SHARES_SHOWN = 20;

/**
 * The months whose adjustments records of [from, to) list (decision 0059): every month the span touches, as an
 * adjustment belongs to its period, not to the day it was made.
 */
const monthsOfRecords = (query: TipRecordsQuery) => ({
  first: monthOfInstant(new Date(query.from)),
  last: monthOfInstant(new Date(new Date(query.to).getTime() - 1)),
});

/** The rule of a team that never set one. */
const DEFAULT_RULE: SplitRuleVersion = { id: null, kind: 'even', points: {}, created_at: null };

const toRuleVersion = (row: repo.SplitRuleRow): SplitRuleVersion => ({
  id: row.id,
  kind: row.kind,
  points: row.points,
  created_at: row.createdAt.toISOString(),
});

/** The public name and photo of a member: those of their own card, null before they have one. */
async function profileOf(db: Executor, userId: string) {
  const card = await findPrivateCardOfUser(db, userId);
  return { public_name: card?.public_name ?? null, image_url: card?.image_url ?? null };
}

export type TeamsService = ReturnType<typeof createTeamsService>;

/** Workplaces and their teams: membership, join requests, admin hand-over, work history and statistics. */
export function createTeamsService(deps: {
  db: Database;
  clock: Clock;
  publicUrl: string;
  payments: Pick<PaymentsService, 'voidPendingCheckouts'>;
  /**
   * Hands the venue card to the successor's client when the admin whose role ends holds it (`venue-tips`, which
   * imports this module, so it is given here: decision 0061).
   */
  passVenueCard: (tx: Executor, workplaceId: string, fromUserId: string, toClientId: string) => Promise<void>;
}) {
  const { db, clock, publicUrl } = deps;

  /** The team when the user is a member of it now; 404 otherwise, so a non-member learns nothing. */
  async function requireMember(tx: Executor, userId: string, teamId: string, lock?: 'update') {
    const found = await repo.findTeam(tx, teamId, lock);
    const membership = await repo.findOpenMembership(tx, userId);
    if (!found || membership?.teamId !== teamId) throw new AppError('not_found');
    return { ...found, membership };
  }

  /**
   * What the admin decided about a member (approval, decline, removal), texted to them in their language through the
   * outbox, in the decision's transaction. The team is named as "Label: value", where every language takes the name as
   * it is. The same decision is stored as the member's in-app notice and shown live in their open app (issue 29).
   */
  async function tellMember(
    tx: Executor,
    userId: string,
    notice: NoticeKind,
    { team, workplace }: { team: repo.TeamRow; workplace: repo.WorkplaceRow },
    now: Date,
    about: { rule?: SplitRule['kind']; month?: string; amountCents?: number } = {},
  ) {
    const user = await findUserById(tx, userId);
    if (!user || user.deletedAt || user.erasedAt) return;
    const vars = {
      team: team.title,
      workplace: workplace.name,
      ...(about.rule && { rule: t(`teams:rules.kind.${about.rule}`, {}, user.language) }),
      ...(about.month && {
        month: formatDate(periodSpan(about.month).from, 'month', user.language, { timeZone: 'UTC' }),
      }),
      ...(about.amountCents !== undefined && { amount: formatMoney(about.amountCents, user.language) }),
    };
    const body = t(`sms.${notice}`, vars, user.language);
    await enqueueSmsAt(tx, { to: user.phone, body }, now);
    const named = {
      team: team.title,
      workplace: workplace.name,
      rule: about.rule ?? null,
      month: about.month ?? null,
      amount_cents: about.amountCents ?? null,
    };
    await notifyUser(tx, userId, { kind: notice, ...named }, now);
  }

  /**
   * The team when the user administers it: its own admin, a member of it, or an admin of its venue, who need not be a
   * member (decision 0057; `membership` is then undefined). A venue admin's right is read after the team row's lock, so
   * it is the one of the moment. 404 to anyone outside the team and its venue's admins.
   */
  async function requireAdmin(tx: Executor, userId: string, teamId: string, lock?: 'update'): Promise<Found> {
    const found = await repo.findTeam(tx, teamId, lock);
    if (!found) throw new AppError('not_found');
    const membership = await repo.findOpenMembership(tx, userId);
    const member = membership?.teamId === teamId ? membership : undefined;
    if (member && found.team.adminUserId === userId) return { ...found, membership: member };
    if (await repo.isWorkplaceAdmin(tx, found.workplace.id, userId)) return { ...found, membership: member };
    throw new AppError(member ? 'team_admin_only' : 'not_found');
  }

  /** The team for reading: its members and its venue's admins see it; 404 to anyone else. */
  async function requireMemberOrAdmin(tx: Executor, userId: string, teamId: string, lock?: 'update'): Promise<Found> {
    const found = await repo.findTeam(tx, teamId, lock);
    if (!found) throw new AppError('not_found');
    const membership = await repo.findOpenMembership(tx, userId);
    if (membership?.teamId === teamId) return { ...found, membership };
    if (await repo.isWorkplaceAdmin(tx, found.workplace.id, userId)) return { ...found, membership: undefined };
    throw new AppError('not_found');
  }

  /** Whether the user administers the team: its admin, or an admin of its venue. */
  async function administers(tx: Executor, userId: string, { team, workplace }: Pick<Found, 'team' | 'workplace'>) {
    return team.adminUserId === userId || (await repo.isWorkplaceAdmin(tx, workplace.id, userId));
  }

  /** The venue, when the user is one of its admins (`venue_admin_only` to its other members, 404 to anyone else). */
  async function requireAdminOfVenue(tx: Executor, userId: string, workplaceId: string, lock?: 'update') {
    const workplace = await repo.findWorkplace(tx, workplaceId, lock);
    if (!workplace) throw new AppError('not_found');
    if (await repo.isWorkplaceAdmin(tx, workplaceId, userId)) return workplace;
    const membership = await repo.findOpenMembership(tx, userId);
    const own = membership && (await repo.findTeam(tx, membership.teamId));
    throw new AppError(own?.workplace.id === workplaceId ? 'venue_admin_only' : 'not_found');
  }

  /**
   * A venue admin's role ends with their membership in the venue (decision 0057): refused for its last admin, unless
   * `evenLast` (the account's deletion, which nothing refuses). Teams they held without being a member pass to `heir`,
   * or to the earliest admin left, the team card moving to their client, and so does the venue card when they held it
   * (decision 0061). The venue row is locked for the count.
   */
  async function endVenueAdmin(
    tx: Executor,
    workplaceId: string,
    userId: string,
    { heir, evenLast = false }: { heir?: string; evenLast?: boolean } = {},
  ): Promise<void> {
    await repo.findWorkplace(tx, workplaceId, 'update');
    const admins = await repo.listWorkplaceAdmins(tx, workplaceId);
    if (!admins.some((admin) => admin.userId === userId)) return;
    const others = admins.filter((admin) => admin.userId !== userId);
    if (others.length === 0 && !evenLast) throw new AppError('venue_last_admin');
    await repo.deleteWorkplaceAdmin(tx, workplaceId, userId);
    const successor = heir ?? others[0]?.userId;
    if (!successor) return;
    const [client] = await listClients(tx, successor);
    for (const held of await repo.listTeamsHeldWithoutMembership(tx, workplaceId, userId)) {
      await repo.updateTeam(tx, held.id, { adminUserId: successor });
      await updateTeamCard(tx, held.cardId, { clientId: client!.id });
    }
    await deps.passVenueCard(tx, workplaceId, userId, client!.id);
  }

  /** The venue's admins as the API answers them, with the team of the venue each is a member of. */
  async function venueAdmins(tx: Executor, workplaceId: string): Promise<VenueAdmin[]> {
    const admins: VenueAdmin[] = [];
    for (const admin of await repo.listWorkplaceAdmins(tx, workplaceId)) {
      const membership = await repo.findOpenMembership(tx, admin.userId);
      admins.push({ user_id: admin.userId, ...(await profileOf(tx, admin.userId)), team_id: membership?.teamId ?? null });
    }
    return admins;
  }

  async function toJoinRequest(tx: Executor, row: repo.JoinRequestRow): Promise<JoinRequest> {
    return {
      id: row.id,
      team_id: row.teamId,
      user_id: row.userId,
      ...(await profileOf(tx, row.userId)),
      status: row.status,
      created_at: row.createdAt.toISOString(),
    };
  }

  async function toTeam(tx: Executor, userId: string, team: repo.TeamRow, workplace: repo.WorkplaceRow): Promise<Team> {
    const isAdmin = await administers(tx, userId, { team, workplace });
    const memberships = await repo.listOpenMemberships(tx, team.id);
    const members = [];
    for (const m of memberships) {
      members.push({
        user_id: m.userId,
        ...(await profileOf(tx, m.userId)),
        is_admin: m.userId === team.adminUserId,
        since: m.joinedAt.toISOString(),
        role: m.role,
      });
    }
    const requests = [];
    if (isAdmin) for (const row of await repo.listPendingRequests(tx, team.id)) requests.push(await toJoinRequest(tx, row));
    return {
      id: team.id,
      title: team.title,
      workplace: { id: workplace.id, name: workplace.name, country: workplace.country },
      card_id: team.cardId,
      payment_url: paymentUrlOf(publicUrl, team.cardId),
      invite_url: `${publicUrl}/teams/${team.id}/join`,
      admin_user_id: team.adminUserId,
      is_admin: isAdmin,
      members,
      requests,
    };
  }

  async function toWorkplace(tx: Executor, userId: string, team: repo.TeamRow, workplace: repo.WorkplaceRow): Promise<Workplace> {
    const teams = await repo.listTeamsWithMemberCounts(tx, workplace.id);
    return {
      id: workplace.id,
      name: workplace.name,
      country: workplace.country,
      team: await toTeam(tx, userId, team, workplace),
      is_admin: await repo.isWorkplaceAdmin(tx, workplace.id, userId),
      teams: teams.map((row) => ({
        id: row.team.id,
        title: row.team.title,
        card_id: row.team.cardId,
        member_count: row.memberCount,
      })),
      admins: await venueAdmins(tx, workplace.id),
    };
  }

  /** Runs a change of membership; a user who got into another team meanwhile is told so, and nothing changes. */
  async function changeMembership<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error, repo.ONE_OPEN_MEMBERSHIP_INDEX)) throw new AppError('already_in_team');
      throw error;
    }
  }

  /** Refuses a shift that overlaps another of the member's shifts in the team (`exceptId`: the one corrected). */
  async function refuseOverlap(
    tx: Executor,
    shift: { teamId: string; userId: string; startedAt: Date; endedAt: Date | null },
    exceptId?: string,
  ) {
    if (await repo.hasOverlappingShift(tx, shift, exceptId)) throw new AppError('shift_overlap');
  }

  /** Runs a clock-in; one that raced another of the same member's is told the member is already clocked in. */
  async function withOneOpenShift<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error, repo.ONE_OPEN_SHIFT_INDEX)) throw new AppError('shift_already_open');
      throw error;
    }
  }

  /** Shifts as the API answers them; inside a transaction, read with it (on PGlite another query would wait for it). */
  async function toShifts(executor: Executor, rows: repo.ShiftRow[]): Promise<Shift[]> {
    const shifts: Shift[] = [];
    for (const row of rows)
      shifts.push({
        id: row.id,
        user_id: row.userId,
        public_name: (await profileOf(executor, row.userId)).public_name,
        started_at: row.startedAt.toISOString(),
        ended_at: row.endedAt?.toISOString() ?? null,
        source: row.source,
      });
    return shifts;
  }

  /** Records as the file asked for: CSV, or a PDF in the reader's language naming whose they are. */
  async function recordsFile(
    query: TipRecordsQuery,
    records: TipRecord[],
    adjustments: AdjustmentRecord[],
    pdf: { subject: string; view: 'member' | 'team'; locale: Locale; fileName: string },
  ): Promise<TipRecordsFile> {
    const fileName = `${pdf.fileName}-${query.from.slice(0, 10)}`;
    if (query.format === 'csv')
      return { contentType: 'text/csv; charset=utf-8', fileName: `${fileName}.csv`, body: tipRecordsCsv(records, adjustments) };
    const body = await renderTipRecordsPdf({
      locale: pdf.locale,
      subject: pdf.subject,
      view: pdf.view,
      from: new Date(query.from),
      to: new Date(query.to),
      records,
      adjustments,
      now: clock.now(),
      timeZone: query.time_zone,
    });
    return { contentType: 'application/pdf', fileName: `${fileName}.pdf`, body };
  }

  /** Members' public names as records print them ("No name" before they have a card). */
  async function namesOf(userIds: string[], locale: Locale): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const id of new Set(userIds))
      names.set(id, (await profileOf(db, id)).public_name ?? t('teams:page.no_name', {}, locale));
    return names;
  }

  /** A team as a check found it, with the user's membership of it (none for a venue admin of another team). */
  type Found = { team: repo.TeamRow; workplace: repo.WorkplaceRow; membership: repo.MembershipRow | undefined };

  /**
   * The periods `months` (newest first) as `userId` sees them (decision 0055): state, tips, confirmations, the
   * objections (the admin's view every one, a member's their own), the legal deadline, and what the reader may do.
   */
  async function describePeriods(tx: Executor, userId: string, found: Found, months: string[], now: Date): Promise<TeamPeriod[]> {
    const { team, membership } = found;
    const isAdmin = await administers(tx, userId, found);
    const oldest = months.at(-1)!;
    const from = periodSpan(oldest).from;
    const to = periodSpan(months[0]!).to;
    const rows = new Map((await repo.listPeriods(tx, team.id, oldest)).map((row) => [row.month, row]));
    const totals = new Map((await repo.tipTotalsPerMonth(tx, team.id, from, to)).map((row) => [row.month, row]));
    const sharers = await repo.sharersPerMonth(tx, team.id, from, to);
    const confirmations = await repo.confirmationsPerMonth(tx, team.id, oldest);
    const objections = await repo.listPeriodObjections(tx, team.id, oldest, isAdmin ? undefined : userId);
    const adjustments = await listAdjustments(tx, team.id, oldest, isAdmin ? undefined : userId);
    const current = new Set((await repo.listOpenMemberships(tx, team.id)).map((m) => m.userId));
    const names = new Map<string, string | null>();
    const person = async (id: string) => {
      if (!names.has(id)) names.set(id, (await profileOf(tx, id)).public_name);
      return { user_id: id, public_name: names.get(id)! };
    };
    const toAdjustment = async (row: AdjustmentRow): Promise<PeriodAdjustment> => ({
      id: row.id,
      from: await person(row.fromUserId),
      to: await person(row.toUserId),
      amount_cents: row.amountCents,
      reason: row.reason,
      created_at: row.createdAt.toISOString(),
      created_by: await person(row.createdByUserId),
    });
    const periods: TeamPeriod[] = [];
    for (const month of months) {
      const span = periodSpan(month);
      const row = rows.get(month);
      const state = !row ? 'open' : row.lockedAt ? 'locked' : 'closed';
      const monthSharers = [...(sharers.get(month) ?? [])].filter((id) => current.has(id));
      const confirmedBy = confirmations.get(month) ?? new Set<string>();
      const ofMonth = objections.filter((objection) => objection.month === month);
      const unanswered = ofMonth.filter((objection) => !objection.answeredAt).length;
      const involved = sharers.get(month)?.has(userId) === true || (membership !== undefined && membership.joinedAt < span.to);
      const inWindow = state === 'closed' && now < row!.objectionsUntil;
      const ownOpen = ofMonth.some((objection) => objection.userId === userId && !objection.answeredAt);
      const tipCount = totals.get(month)?.count ?? 0;
      const described: TeamPeriod['objections'] = [];
      for (const objection of ofMonth)
        described.push({
          id: objection.id,
          ...(await person(objection.userId)),
          text: objection.text,
          created_at: objection.createdAt.toISOString(),
          answer: objection.answer,
          answered_at: objection.answeredAt?.toISOString() ?? null,
        });
      const adjusted: PeriodAdjustment[] = [];
      for (const row of adjustments) if (row.month === month) adjusted.push(await toAdjustment(row));
      periods.push({
        month,
        from: span.from.toISOString(),
        to: span.to.toISOString(),
        state,
        closed_at: row?.closedAt.toISOString() ?? null,
        closed_by: row ? await person(row.closedByUserId) : null,
        objections_until: row?.objectionsUntil.toISOString() ?? null,
        locked_at: row?.lockedAt?.toISOString() ?? null,
        locked_by: row?.lockedByUserId ? await person(row.lockedByUserId) : null,
        tip_count: tipCount,
        total_cents: Number(totals.get(month)?.netCents ?? 0),
        sharers: monthSharers.length,
        confirmed: monthSharers.filter((id) => confirmedBy.has(id)).length,
        confirmed_by_me: confirmedBy.has(userId),
        open_objections: unanswered,
        objections: described,
        adjustments: adjusted,
        deadline: span.deadline.toISOString(),
        deadline_soon: deadlineSoon(month, now, state === 'locked', tipCount),
        deadline_passed: state !== 'locked' && tipCount > 0 && now >= span.deadline,
        can_object: inWindow && involved && !ownOpen,
        can_confirm: state === 'closed' && involved && !ownOpen && !confirmedBy.has(userId),
        can_close: isAdmin && state === 'open' && now >= span.to,
        can_lock: isAdmin && state === 'closed' && lockRefusal(row!, unanswered, monthSharers, confirmedBy, now) === null,
        can_adjust: isAdmin && state === 'locked',
      });
    }
    return periods;
  }

  /**
   * Why a closed period cannot be locked yet, or null: an objection waits for its answer, or members may still object
   * (the 24 hours are not over and not every member with a share, still in the team, has confirmed).
   */
  function lockRefusal(row: repo.PeriodRow, unanswered: number, sharers: string[], confirmedBy: Set<string>, now: Date) {
    if (unanswered > 0) return 'team_period_unanswered_objections' as const;
    if (now < row.objectionsUntil && !sharers.every((id) => confirmedBy.has(id))) return 'team_period_window_open' as const;
    return null;
  }

  /** A period's state for a change by a member or the admin: closed and not locked, or refused. */
  async function requireClosedPeriod(tx: Executor, teamId: string, month: string) {
    const row = await repo.findPeriod(tx, teamId, month);
    if (!row) throw new AppError('team_period_not_closed');
    if (row.lockedAt) throw new AppError('team_period_locked');
    return row;
  }

  /** Whether the user may have a say on the month: they had a share in it, or their membership began before its end. */
  async function requireInvolved(tx: Executor, found: Found, userId: string, month: string) {
    const span = periodSpan(month);
    const shared = (await repo.sharersPerMonth(tx, found.team.id, span.from, span.to)).get(month)?.has(userId) === true;
    if (!shared && !(found.membership && found.membership.joinedAt < span.to)) throw new AppError('team_period_not_involved');
  }

  /** Runs a change of a period under the team row's update lock and answers the period as the user now sees it. */
  async function changePeriod(
    userId: string,
    teamId: string,
    month: string,
    who: 'member' | 'admin',
    work: (tx: Transaction, found: Found, now: Date) => Promise<void>,
  ): Promise<TeamPeriod> {
    try {
      return await db.transaction(async (tx) => {
        const found =
          who === 'admin' ? await requireAdmin(tx, userId, teamId, 'update') : await requireMember(tx, userId, teamId, 'update');
        if (month < monthOfInstant(found.team.createdAt)) throw new AppError('not_found');
        const now = clock.now();
        await work(tx, found, now);
        return (await describePeriods(tx, userId, found, [month], now))[0]!;
      });
    } catch (error) {
      if (isUniqueViolation(error, repo.ONE_OPEN_OBJECTION_INDEX)) throw new AppError('team_period_objection_pending');
      throw error;
    }
  }

  return {
    /**
     * The user's own tip allocation records in [from, to) from every team they had a place in, also one they left
     * (a worker may ask for their records): each tip's allocation as recorded with its credit.
     */
    async ownTipRecords(userId: string, clientId: string, query: TipRecordsQuery, locale: Locale): Promise<TipRecordsFile> {
      await requireOwnClient(db, userId, clientId);
      const name = (await profileOf(db, userId)).public_name ?? t('teams:page.no_name', {}, locale);
      const rows = await repo.listTipSplitsOfUserBetween(db, userId, new Date(query.from), new Date(query.to));
      const records = rows.flatMap(({ split, teamTitle, workplaceName }) =>
        recordsOfSplit(split, { team: teamTitle, workplace: workplaceName, nameOf: () => name }, userId),
      );
      const adjustmentRows = await listAdjustmentsForRecords(db, { userId }, monthsOfRecords(query));
      const names = await namesOf(
        adjustmentRows.flatMap(({ adjustment }) => [adjustment.fromUserId, adjustment.toUserId]),
        locale,
      );
      const adjustments = adjustmentRows.flatMap(({ adjustment, teamTitle, workplaceName }) =>
        recordsOfAdjustment(adjustment, { team: teamTitle, workplace: workplaceName, nameOf: (id) => names.get(id)! }, userId),
      );
      return recordsFile(query, records, adjustments, {
        subject: name,
        view: 'member',
        locale,
        fileName: 'tipcard-tip-records',
      });
    },

    /** Every member's allocation records of the team in [from, to), for its admin (an auditor's or a worker's request). */
    async teamTipRecords(userId: string, teamId: string, query: TipRecordsQuery, locale: Locale): Promise<TipRecordsFile> {
      const { team, workplace } = await requireAdmin(db, userId, teamId);
      const splits = await repo.listTipSplits(db, teamId, new Date(query.from), new Date(query.to));
      const adjustmentRows = await listAdjustmentsForRecords(db, { teamId }, monthsOfRecords(query));
      const names = await namesOf(
        [
          ...splits.flatMap((split) => split.shares.map((share) => share.userId)),
          ...adjustmentRows.flatMap(({ adjustment }) => [adjustment.fromUserId, adjustment.toUserId]),
        ],
        locale,
      );
      const context = { team: team.title, workplace: workplace.name, nameOf: (id: string) => names.get(id)! };
      const records = splits.flatMap((split) => recordsOfSplit(split, context));
      const adjustments = adjustmentRows.flatMap(({ adjustment }) => recordsOfAdjustment(adjustment, context));
      return recordsFile(query, records, adjustments, {
        subject: `${team.title} · ${workplace.name}`,
        view: 'team',
        locale,
        fileName: 'tipcard-team-tip-records',
      });
    },

    /**
     * The venue's tipping policy (decision 0054): the version in force and when the member confirmed reading it; the
     * admin also sees every member's confirmation. The template is in the reader's language, filled with the venue,
     * the team and the rule in force.
     */
    async policy(userId: string, teamId: string, locale: Locale): Promise<TippingPolicy> {
      const { team, workplace } = await requireMemberOrAdmin(db, userId, teamId);
      const current = await repo.findCurrentPolicy(db, workplace.id);
      const reads = new Map(
        (current ? await repo.listPolicyReads(db, current.id) : []).map((read) => [read.userId, read.readAt.toISOString()]),
      );
      const rule = ruleOf(await repo.findSplitRuleAt(db, teamId, clock.now())).kind;
      const template = t(
        'teams:policy.template',
        {
          workplace: workplace.name,
          team: team.title,
          rule: t(`teams:rules.kind.${rule}`, {}, locale),
          help: t(`teams:rules.help.${rule}`, {}, locale),
          leftover: t('teams:rules.leftover', {}, locale),
        },
        locale,
      );
      const readers = [];
      if (await administers(db, userId, { team, workplace }))
        for (const member of await repo.listOpenMemberships(db, teamId))
          readers.push({
            user_id: member.userId,
            public_name: (await profileOf(db, member.userId)).public_name,
            read_at: reads.get(member.userId) ?? null,
          });
      return {
        current: current
          ? {
              version: current.version,
              text: current.text,
              published_at: current.publishedAt.toISOString(),
              read_at: reads.get(userId) ?? null,
            }
          : null,
        template,
        readers,
      };
    },

    /**
     * The admin publishes a new version (never an edit of one): in force at once, read by its author, and texted to
     * every other member in their language in the same transaction.
     */
    async publishPolicy(userId: string, teamId: string, text: string, locale: Locale): Promise<TippingPolicy> {
      await db.transaction(async (tx) => {
        const found = await requireAdmin(tx, userId, teamId, 'update');
        const now = clock.now();
        const version = await repo.insertPolicyVersion(tx, {
          workplaceId: found.workplace.id,
          text,
          publishedByUserId: userId,
          publishedAt: now,
        });
        await repo.insertPolicyRead(tx, version.id, userId, now);
        for (const member of await repo.listOpenMemberships(tx, teamId))
          if (member.userId !== userId) await tellMember(tx, member.userId, 'tipping_policy_published', found, now);
      });
      return this.policy(userId, teamId, locale);
    },

    /** A member confirms reading the version in force; a version replaced meanwhile is refused, to be read anew. */
    async confirmPolicyRead(userId: string, teamId: string, version: number, locale: Locale): Promise<TippingPolicy> {
      await db.transaction(async (tx) => {
        const { workplace } = await requireMemberOrAdmin(tx, userId, teamId, 'update');
        const current = await repo.findCurrentPolicy(tx, workplace.id);
        if (!current) throw new AppError('not_found');
        if (current.version !== version) throw new AppError('tipping_policy_changed');
        await repo.insertPolicyRead(tx, current.id, userId, clock.now());
      });
      return this.policy(userId, teamId, locale);
    },

    /** The workplace of the user's current team; null when the user is in no team. */
    async workplace(userId: string, clientId: string): Promise<Workplace | null> {
      await requireOwnClient(db, userId, clientId);
      const membership = await repo.findOpenMembership(db, userId);
      if (!membership) return null;
      const found = (await repo.findTeam(db, membership.teamId))!;
      return toWorkplace(db, userId, found.team, found.workplace);
    },

    /** Creates the workplace, its team with the user as admin and first member, and the team card. */
    async createWorkplace(userId: string, clientId: string, body: WorkplaceInput): Promise<Workplace> {
      await requireOwnClient(db, userId, clientId);
      return changeMembership(async (tx) => {
        if (await repo.findOpenMembership(tx, userId)) throw new AppError('already_in_team');
        const now = clock.now();
        const workplace = await repo.insertWorkplace(tx, {
          name: body.name,
          country: body.country,
          createdByUserId: userId,
          createdAt: now,
        });
        const card = await createTeamCard(tx, clientId, { title: body.name, workplaceName: body.name, country: body.country });
        const team = await repo.insertTeam(tx, {
          workplaceId: workplace.id,
          title: body.name,
          adminUserId: userId,
          cardId: card.id,
          createdAt: now,
        });
        await repo.insertMembership(tx, { teamId: team.id, userId, joinedAt: now });
        await repo.insertWorkplaceAdmin(tx, { workplaceId: workplace.id, userId, addedByUserId: userId, createdAt: now });
        return toWorkplace(tx, userId, team, workplace);
      });
    },

    /** The admin changes the workplace's name or country (the team card's public name follows). */
    async updateWorkplace(userId: string, clientId: string, patch: WorkplacePatch): Promise<Workplace> {
      await requireOwnClient(db, userId, clientId);
      return db.transaction(async (tx) => {
        const membership = await repo.findOpenMembership(tx, userId);
        if (!membership) throw new AppError('not_found');
        const { team, workplace } = await requireAdmin(tx, userId, membership.teamId, 'update');
        const changes = { ...(patch.name ? { name: patch.name } : {}), ...(patch.country ? { country: patch.country } : {}) };
        await repo.updateWorkplace(tx, workplace.id, changes);
        for (const venueTeam of await repo.listTeamsOfWorkplace(tx, workplace.id))
          await updateTeamCard(tx, venueTeam.cardId, {
            ...(changes.name ? { publicName: changes.name } : {}),
            ...(changes.country ? { country: changes.country } : {}),
          });
        return toWorkplace(tx, userId, team, { ...workplace, ...changes });
      });
    },

    /**
     * A venue admin adds a team to the venue: its own team card (made as the first team's, held by the adding admin's
     * client) and no member yet; the adding admin is its admin until they hand it to one of its members (decision 0057).
     */
    async addVenueTeam(userId: string, workplaceId: string, title: string): Promise<Team> {
      return db.transaction(async (tx) => {
        const workplace = await requireAdminOfVenue(tx, userId, workplaceId, 'update');
        const [client] = await listClients(tx, userId);
        const card = await createTeamCard(tx, client!.id, {
          title,
          workplaceName: workplace.name,
          country: workplace.country,
        });
        const team = await repo.insertTeam(tx, {
          workplaceId,
          title,
          adminUserId: userId,
          cardId: card.id,
          createdAt: clock.now(),
        });
        return toTeam(tx, userId, team, workplace);
      });
    },

    /** A venue admin adds another: a member of one of the venue's teams now; adding an admin again changes nothing. */
    async addVenueAdmin(userId: string, workplaceId: string, newAdminUserId: string): Promise<VenueAdmin[]> {
      return db.transaction(async (tx) => {
        await requireAdminOfVenue(tx, userId, workplaceId, 'update');
        const membership = await repo.findOpenMembership(tx, newAdminUserId);
        const team = membership && (await repo.findTeam(tx, membership.teamId));
        if (team?.workplace.id !== workplaceId) throw new AppError('not_venue_member');
        await repo.insertWorkplaceAdmin(tx, {
          workplaceId,
          userId: newAdminUserId,
          addedByUserId: userId,
          createdAt: clock.now(),
        });
        return venueAdmins(tx, workplaceId);
      });
    },

    /**
     * A venue admin removes one (themselves included), never the last; teams the removed one held without being a
     * member pass to the remover, or to the earliest admin left when one removes themselves.
     */
    async removeVenueAdmin(userId: string, workplaceId: string, adminUserId: string): Promise<VenueAdmin[]> {
      return db.transaction(async (tx) => {
        await requireAdminOfVenue(tx, userId, workplaceId, 'update');
        if (!(await repo.isWorkplaceAdmin(tx, workplaceId, adminUserId))) throw new AppError('not_found');
        await endVenueAdmin(tx, workplaceId, adminUserId, adminUserId === userId ? {} : { heir: userId });
        return venueAdmins(tx, workplaceId);
      });
    },

    async team(userId: string, teamId: string): Promise<Team> {
      const { team, workplace } = await requireMemberOrAdmin(db, userId, teamId);
      return toTeam(db, userId, team, workplace);
    },

    /** The admin renames the team (and its card's title). */
    async renameTeam(userId: string, teamId: string, title: string): Promise<Team> {
      return db.transaction(async (tx) => {
        const { team, workplace } = await requireAdmin(tx, userId, teamId, 'update');
        await repo.updateTeam(tx, team.id, { title });
        await updateTeamCard(tx, team.cardId, { title });
        return toTeam(tx, userId, { ...team, title }, workplace);
      });
    },

    /** What the invite link shows anyone: the team, its workplace and members; 'Team not found' otherwise. */
    async publicTeam(teamId: string): Promise<PublicTeam> {
      const found = await repo.findTeam(db, teamId);
      if (!found) throw new AppError('team_not_found');
      return describeTeam(db, found.team, found.workplace);
    },

    /** The team of a team card, as its public page shows it; null for any other card. */
    async teamOfCard(cardId: string): Promise<PublicTeam | null> {
      const team = await repo.findTeamByCard(db, cardId);
      if (!team) return null;
      const found = (await repo.findTeam(db, team.id))!;
      return describeTeam(db, found.team, found.workplace);
    },

    /** A signed-in user asks to join; asking again answers the pending request. One team per user at a time. */
    async requestToJoin(userId: string, teamId: string): Promise<JoinRequest> {
      return db.transaction(async (tx) => {
        const found = await repo.findTeam(tx, teamId);
        if (!found) throw new AppError('team_not_found');
        if (await repo.findOpenMembership(tx, userId)) throw new AppError('already_in_team');
        const row = await repo.insertJoinRequestOnce(tx, { teamId, userId, createdAt: clock.now() });
        return toJoinRequest(tx, row);
      });
    },

    /** The admin lets the requester in: a new membership period from now. */
    async approve(userId: string, teamId: string, requestId: string): Promise<JoinRequest> {
      return changeMembership(async (tx) => {
        const found = await requireAdmin(tx, userId, teamId, 'update');
        const request = await repo.findJoinRequest(tx, requestId, 'update');
        if (!request || request.teamId !== teamId) throw new AppError('not_found');
        if (request.status !== 'pending') throw new AppError('join_request_closed');
        if (await repo.findOpenMembership(tx, request.userId)) throw new AppError('already_in_team');
        const now = clock.now();
        await repo.insertMembership(tx, { teamId, userId: request.userId, joinedAt: now });
        await tellMember(tx, request.userId, 'team_request_approved', found, now);
        // Requests the new member left with other teams stay as they are (answering them here could deadlock with
        // their admins' approvals); those teams no longer list them, and approving one answers already_in_team.
        return toJoinRequest(tx, await repo.decideJoinRequest(tx, request.id, 'approved', now));
      });
    },

    async decline(userId: string, teamId: string, requestId: string): Promise<JoinRequest> {
      return db.transaction(async (tx) => {
        const found = await requireAdmin(tx, userId, teamId, 'update');
        const request = await repo.findJoinRequest(tx, requestId, 'update');
        if (!request || request.teamId !== teamId) throw new AppError('not_found');
        if (request.status !== 'pending') throw new AppError('join_request_closed');
        const now = clock.now();
        await tellMember(tx, request.userId, 'team_request_declined', found, now);
        return toJoinRequest(tx, await repo.decideJoinRequest(tx, request.id, 'declined', now));
      });
    },

    /** The one who asked takes a pending request back; another user's request is a 404, a decided one closed. */
    async withdraw(userId: string, teamId: string, requestId: string): Promise<JoinRequest> {
      return db.transaction(async (tx) => {
        const request = await repo.findJoinRequest(tx, requestId, 'update');
        if (!request || request.teamId !== teamId || request.userId !== userId) throw new AppError('not_found');
        if (request.status !== 'pending') throw new AppError('join_request_closed');
        return toJoinRequest(tx, await repo.decideJoinRequest(tx, request.id, 'withdrawn', clock.now()));
      });
    },

    /** The user's requests still waiting for an admin (the Workplace page shows them while the user is in no team). */
    async ownRequests(userId: string, clientId: string): Promise<OwnJoinRequest[]> {
      await requireOwnClient(db, userId, clientId);
      const rows = await repo.listOwnPendingRequests(db, userId);
      return rows.map(({ request, teamTitle, workplaceName }) => ({
        id: request.id,
        team_id: request.teamId,
        team_title: teamTitle,
        workplace_name: workplaceName,
        created_at: request.createdAt.toISOString(),
      }));
    },

    /** The admin ends another member's membership; what was already split stays theirs. */
    async removeMember(userId: string, teamId: string, memberUserId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const found = await requireAdmin(tx, userId, teamId, 'update');
        if (memberUserId === found.team.adminUserId) throw new AppError('team_admin_cannot_leave');
        const membership = await repo.findOpenMembership(tx, memberUserId);
        if (membership?.teamId !== teamId) throw new AppError('not_team_member');
        // A team's own admin may not demote a venue admin by removing them: only another venue admin may.
        if (await repo.isWorkplaceAdmin(tx, found.workplace.id, memberUserId)) {
          if (!(await repo.isWorkplaceAdmin(tx, found.workplace.id, userId))) throw new AppError('venue_admin_only');
          await endVenueAdmin(tx, found.workplace.id, memberUserId, { heir: userId });
        }
        const now = clock.now();
        await repo.closeMembership(tx, membership.id, now);
        await repo.closeOpenShift(tx, memberUserId, now);
        await tellMember(tx, memberUserId, 'team_member_removed', found, now);
      });
    },

    /** A member leaves; the admin only after handing admin over. */
    async leave(userId: string, teamId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const { team, workplace, membership } = await requireMember(tx, userId, teamId, 'update');
        if (team.adminUserId === userId) throw new AppError('team_admin_cannot_leave');
        await endVenueAdmin(tx, workplace.id, userId);
        await repo.closeMembership(tx, membership.id, clock.now());
        await repo.closeOpenShift(tx, userId, clock.now());
      });
    },

    /** Hands admin access over to another member: there is one admin, and the team card moves to their client. */
    async grantAdmin(userId: string, teamId: string, newAdminUserId: string): Promise<Team> {
      return db.transaction(async (tx) => {
        const { team, workplace, membership: own } = await requireAdmin(tx, userId, teamId, 'update');
        if (newAdminUserId === userId) return toTeam(tx, userId, team, workplace);
        const membership = await repo.findOpenMembership(tx, newAdminUserId);
        if (membership?.teamId !== teamId) throw new AppError('not_team_member');
        const [client] = await listClients(tx, newAdminUserId);
        await repo.updateTeam(tx, team.id, { adminUserId: newAdminUserId });
        await updateTeamCard(tx, team.cardId, { clientId: client!.id });
        // Handing one's own team over hands one's venue role over with it, so the one who hands over becomes a regular
        // member as they are told (decision 0057); a venue admin handing over another team keeps running the venue.
        if (own && team.adminUserId === userId && (await repo.isWorkplaceAdmin(tx, workplace.id, userId))) {
          await repo.insertWorkplaceAdmin(tx, {
            workplaceId: workplace.id,
            userId: newAdminUserId,
            addedByUserId: userId,
            createdAt: clock.now(),
          });
          await endVenueAdmin(tx, workplace.id, userId, { heir: newAdminUserId });
        }
        return toTeam(tx, userId, { ...team, adminUserId: newAdminUserId }, workplace);
      });
    },

    /**
     * The deletion of the user's account (inside its transaction) ends their place in teams: requests still pending
     * are declined, the membership ends, and an admin's role passes to the longest-serving member, the team card moving
     * to their client (docs/decisions/0024). With no other member the team closes: its card is the deleted admin's and
     * takes no payment, its pending tips are voided, and one paid anyway has nobody to be split among and is given back.
     * The closing card's payments are locked before the team row, in the order a provider's event takes them.
     */
    async leaveOnDeletion(tx: Transaction, userId: string, now: Date): Promise<void> {
      await repo.declinePendingRequestsOf(tx, userId, now);
      const membership = await repo.findOpenMembership(tx, userId);
      if (!membership) return;
      const seen = (await repo.findTeam(tx, membership.teamId))!.team;
      const others = async () => (await repo.listOpenMemberships(tx, seen.id)).filter((m) => m.userId !== userId);
      if (seen.adminUserId === userId && (await others()).length === 0)
        await deps.payments.voidPendingCheckouts(tx, 'team_tip', [seen.cardId]);
      const { team, workplace } = (await repo.findTeam(tx, seen.id, 'update'))!;
      const [successor] = await others();
      if (team.adminUserId === userId && successor) {
        const [client] = await listClients(tx, successor.userId);
        await repo.updateTeam(tx, team.id, { adminUserId: successor.userId });
        await updateTeamCard(tx, team.cardId, { clientId: client!.id });
      }
      // The venue's last admin leaving with the account hands the venue to who takes their team over, if anyone.
      if (
        successor &&
        (await repo.isWorkplaceAdmin(tx, workplace.id, userId)) &&
        (await repo.listWorkplaceAdmins(tx, workplace.id)).length === 1
      )
        await repo.insertWorkplaceAdmin(tx, {
          workplaceId: workplace.id,
          userId: successor.userId,
          addedByUserId: userId,
          createdAt: now,
        });
      await endVenueAdmin(tx, workplace.id, userId, { evenLast: true });
      await repo.closeMembership(tx, membership.id, now);
      await repo.closeOpenShift(tx, userId, now);
    },

    /** The team's recent periods, newest first, as the member sees them (decision 0055). */
    async periods(userId: string, teamId: string): Promise<TeamPeriod[]> {
      const found = await requireMemberOrAdmin(db, userId, teamId);
      const now = clock.now();
      return describePeriods(db, userId, found, recentMonths(found.team.createdAt, now), now);
    },

    /**
     * The admin closes a month once it has ended: members have 24 hours to object, and those who had a share in it or
     * were members during it are told in their language.
     */
    async closePeriod(userId: string, teamId: string, month: string): Promise<TeamPeriod> {
      return changePeriod(userId, teamId, month, 'admin', async (tx, found, now) => {
        if (now < periodSpan(month).to) throw new AppError('team_period_not_ended');
        const existing = await repo.findPeriod(tx, teamId, month);
        if (existing) throw new AppError(existing.lockedAt ? 'team_period_locked' : 'team_period_closed');
        await repo.insertPeriod(tx, {
          teamId,
          month,
          closedAt: now,
          closedByUserId: userId,
          objectionsUntil: new Date(now.getTime() + OBJECTION_WINDOW_MS),
        });
        await repo.insertPeriodEvent(tx, { teamId, month, kind: 'closed', userId, at: now });
        const span = periodSpan(month);
        const sharers = (await repo.sharersPerMonth(tx, teamId, span.from, span.to)).get(month);
        for (const member of await repo.listOpenMemberships(tx, teamId))
          if (member.userId !== userId && (member.joinedAt < span.to || sharers?.has(member.userId)))
            await tellMember(tx, member.userId, 'team_period_closed', found, now, { month });
      });
    },

    /**
     * A member objects to a closed period within its 24 hours; one objection waiting for an answer at a time. The
     * team's admin and the venue's admins are told.
     */
    async objectToPeriod(userId: string, teamId: string, month: string, text: string): Promise<TeamPeriod> {
      return changePeriod(userId, teamId, month, 'member', async (tx, found, now) => {
        const row = await requireClosedPeriod(tx, teamId, month);
        if (now >= row.objectionsUntil) throw new AppError('team_period_objections_over');
        await requireInvolved(tx, found, userId, month);
        const own = await repo.listPeriodObjections(tx, teamId, month, userId);
        if (own.some((objection) => objection.month === month && !objection.answeredAt))
          throw new AppError('team_period_objection_pending');
        const objection = await repo.insertPeriodObjection(tx, { teamId, month, userId, text, createdAt: now });
        await repo.insertPeriodEvent(tx, { teamId, month, kind: 'objected', userId, at: now, objectionId: objection.id });
        // Whoever may answer it is told, each once: the team's admin and every admin of its venue (decision 0061).
        const admins = (await repo.listWorkplaceAdmins(tx, found.workplace.id)).map((admin) => admin.userId);
        for (const adminId of new Set([found.team.adminUserId, ...admins]))
          if (adminId !== userId) await tellMember(tx, adminId, 'team_period_objection', found, now, { month });
      });
    },

    /** The admin answers an objection (once); its author is told. */
    async answerObjection(
      userId: string,
      teamId: string,
      month: string,
      objectionId: string,
      answer: string,
    ): Promise<TeamPeriod> {
      return changePeriod(userId, teamId, month, 'admin', async (tx, found, now) => {
        const objection = await repo.findPeriodObjection(tx, teamId, objectionId);
        if (objection?.month !== month) throw new AppError('not_found');
        await requireClosedPeriod(tx, teamId, month);
        if (objection.answeredAt) throw new AppError('team_period_objection_answered');
        await repo.answerPeriodObjection(tx, objection.id, { answer, answeredAt: now, answeredByUserId: userId });
        await repo.insertPeriodEvent(tx, { teamId, month, kind: 'answered', userId, at: now, objectionId: objection.id });
        await tellMember(tx, objection.userId, 'team_period_answered', found, now, { month });
      });
    },

    /** A member confirms a closed period (once; again answers it as it is): when all with a share have, it may lock. */
    async confirmPeriod(userId: string, teamId: string, month: string): Promise<TeamPeriod> {
      return changePeriod(userId, teamId, month, 'member', async (tx, found, now) => {
        await requireClosedPeriod(tx, teamId, month);
        await requireInvolved(tx, found, userId, month);
        const own = await repo.listPeriodObjections(tx, teamId, month, userId);
        if (own.some((objection) => objection.month === month && !objection.answeredAt))
          throw new AppError('team_period_objection_pending');
        if ((await repo.confirmationsPerMonth(tx, teamId, month)).get(month)?.has(userId)) return;
        await repo.insertPeriodEvent(tx, { teamId, month, kind: 'confirmed', userId, at: now });
      });
    },

    /**
     * The admin approves a closed period and locks it: every objection answered, and the 24 hours over or every member
     * with a share (still in the team) has confirmed. A locked period never changes.
     */
    async lockPeriod(userId: string, teamId: string, month: string): Promise<TeamPeriod> {
      return changePeriod(userId, teamId, month, 'admin', async (tx, _found, now) => {
        const row = await requireClosedPeriod(tx, teamId, month);
        const unanswered = (await repo.listPeriodObjections(tx, teamId, month)).filter(
          (objection) => objection.month === month && !objection.answeredAt,
        ).length;
        const span = periodSpan(month);
        const current = new Set((await repo.listOpenMemberships(tx, teamId)).map((m) => m.userId));
        const sharers = [...((await repo.sharersPerMonth(tx, teamId, span.from, span.to)).get(month) ?? [])].filter((id) =>
          current.has(id),
        );
        const confirmedBy = (await repo.confirmationsPerMonth(tx, teamId, month)).get(month) ?? new Set<string>();
        const refusal = lockRefusal(row, unanswered, sharers, confirmedBy, now);
        if (refusal) throw new AppError(refusal);
        await repo.lockPeriod(tx, teamId, month, userId, now);
        await repo.insertPeriodEvent(tx, { teamId, month, kind: 'locked', userId, at: now });
      });
    },

    /**
     * The admin moves cents from one member to another after the period was locked (decision 0059): a new, audited
     * adjustment, never an edit. Others, members who are not the admin included, get a 404. Both members (but the admin)
     * are texted in their language; a retry with the same Idempotency-Key answers the same adjustment and texts nobody
     * again.
     */
    async adjustPeriod(
      userId: string,
      teamId: string,
      month: string,
      body: AdjustmentInput,
      idempotencyKey: string,
    ): Promise<PeriodAdjustmentResult> {
      const attempt = () =>
        db.transaction(async (tx) => {
          const found = await requireAdmin(tx, userId, teamId, 'update').catch((error: unknown) => {
            throw error instanceof AppError && error.code === 'team_admin_only' ? new AppError('not_found') : error;
          });
          if (month < monthOfInstant(found.team.createdAt)) throw new AppError('not_found');
          const now = clock.now();
          const { row, created } = await recordAdjustment(tx, {
            team: found.team,
            month,
            adminUserId: userId,
            body,
            idempotencyKey,
            now,
          });
          if (created) {
            // The admin is not texted about their own adjustment when it moves their own money, as other notices skip them.
            const about = { month, amountCents: row.amountCents };
            if (row.fromUserId !== userId) await tellMember(tx, row.fromUserId, 'team_period_adjusted_given', found, now, about);
            if (row.toUserId !== userId) await tellMember(tx, row.toUserId, 'team_period_adjusted_received', found, now, about);
          }
          const period = (await describePeriods(tx, userId, found, [month], now))[0]!;
          return { adjustment: period.adjustments.find((each) => each.id === row.id)!, period };
        });
      try {
        return await attempt();
      } catch (error) {
        // A twin with the same key (for another of the admin's teams) committed first: answer it, or refuse another body.
        if (isUniqueViolation(error, ADJUSTMENT_KEY_INDEX)) return attempt();
        throw error;
      }
    },

    /** The rule in force and its earlier versions; every member may read them (the tipping rule is no secret). */
    async rules(userId: string, teamId: string): Promise<SplitRules> {
      await requireMemberOrAdmin(db, userId, teamId);
      const versions = (await repo.listSplitRules(db, teamId)).map(toRuleVersion);
      return { current: versions[0] ?? DEFAULT_RULE, versions };
    },

    /**
     * The admin saves a rule: a new version in force from now; earlier versions stay as they were. Every other member
     * is told in their language, in the change's transaction.
     */
    async setRule(userId: string, teamId: string, body: SplitRuleInput): Promise<SplitRules> {
      await db.transaction(async (tx) => {
        const found = await requireAdmin(tx, userId, teamId, 'update');
        const now = clock.now();
        await repo.insertSplitRule(tx, {
          teamId,
          kind: body.kind,
          points: body.kind === 'points' ? body.points : {},
          createdByUserId: userId,
          createdAt: now,
        });
        for (const member of await repo.listOpenMemberships(tx, teamId))
          if (member.userId !== userId) await tellMember(tx, member.userId, 'team_rule_changed', found, now, { rule: body.kind });
      });
      return this.rules(userId, teamId);
    },

    /**
     * What each member received of the team's tips in [from, to) and would have received under a candidate rule: the
     * credit's own function on the inputs recorded with each tip (members, roles, instant, amounts) and the shifts as
     * they stand now (a corrected shift changes the preview, never the credited money). Tips credited before splits
     * were recorded are not in it.
     */
    async previewRule(userId: string, teamId: string, body: RulePreviewInput): Promise<RulePreview> {
      await requireAdmin(db, userId, teamId);
      const from = new Date(body.from);
      const to = new Date(body.to);
      const rule: SplitRule = body.rule.kind === 'points' ? { kind: 'points', points: body.rule.points } : body.rule;
      const splits = await repo.listTipSplits(db, teamId, from, to);
      const shifts = rule.kind === 'hours' ? await shiftsAround(db, teamId, from, to) : [];
      const totals = new Map<string, { received: number; candidate: number }>();
      const add = (id: string, key: 'received' | 'candidate', cents: number) => {
        const row = totals.get(id) ?? { received: 0, candidate: 0 };
        row[key] += cents;
        totals.set(id, row);
      };
      let totalCents = 0;
      for (const split of splits) {
        const members = split.shares.map((s) => ({
          userId: s.userId,
          membershipId: s.membershipId,
          joinedAt: new Date(s.joinedAt),
          role: s.role,
        }));
        const candidate = splitTeamTip(rule, {
          members,
          shifts,
          at: split.at,
          totalCents: split.totalCents,
          feeCents: split.feeCents,
        });
        for (const share of split.shares) add(share.userId, 'received', share.netCents);
        for (const share of candidate.shares) add(share.member.userId, 'candidate', share.netCents);
        totalCents += split.totalCents - split.feeCents;
      }
      const members = [];
      for (const [id, row] of totals)
        members.push({
          user_id: id,
          public_name: (await profileOf(db, id)).public_name,
          received_cents: row.received,
          candidate_cents: row.candidate,
        });
      return { from: from.toISOString(), to: to.toISOString(), tip_count: splits.length, total_cents: totalCents, members };
    },

    /** The admin gives a member a role (null: none), which the points rule prices from the next tip on. */
    async setRole(userId: string, teamId: string, memberUserId: string, role: string | null): Promise<Team> {
      return db.transaction(async (tx) => {
        const { team, workplace } = await requireAdmin(tx, userId, teamId, 'update');
        const membership = await repo.findOpenMembership(tx, memberUserId);
        if (membership?.teamId !== teamId) throw new AppError('not_team_member');
        await repo.setMembershipRole(tx, membership.id, role);
        return toTeam(tx, userId, team, workplace);
      });
    },

    /** Shifts overlapping [from, to): everyone's for the admin, the member's own otherwise. */
    async shifts(userId: string, teamId: string, from: Date, to: Date): Promise<Shift[]> {
      const found = await requireMemberOrAdmin(db, userId, teamId);
      const rows = await repo.listShifts(db, teamId, from, to, (await administers(db, userId, found)) ? undefined : userId);
      return toShifts(db, rows);
    },

    /** The member starts a shift now. */
    async clockIn(userId: string, teamId: string): Promise<Shift> {
      return withOneOpenShift(async (tx) => {
        await requireMember(tx, userId, teamId, 'update');
        const now = clock.now();
        if (await repo.findOpenShift(tx, userId)) throw new AppError('shift_already_open');
        await refuseOverlap(tx, { teamId, userId, startedAt: now, endedAt: null });
        const [row] = await repo.insertShifts(tx, [{ teamId, userId, startedAt: now, endedAt: null, source: 'clock' }]);
        return (await toShifts(tx, [row!]))[0]!;
      });
    },

    /** The member ends their open shift now. */
    async clockOut(userId: string, teamId: string): Promise<Shift> {
      return db.transaction(async (tx) => {
        await requireMember(tx, userId, teamId, 'update');
        const open = await repo.findOpenShift(tx, userId);
        const now = clock.now();
        if (open?.teamId !== teamId || now <= open.startedAt) throw new AppError('shift_not_open');
        return (await toShifts(tx, [await repo.updateShift(tx, open.id, { endedAt: now })]))[0]!;
      });
    },

    /** The admin enters a member's past shift. */
    async addShift(userId: string, teamId: string, body: ShiftInput): Promise<Shift> {
      return db.transaction(async (tx) => {
        await requireAdmin(tx, userId, teamId, 'update');
        const membership = await repo.findOpenMembership(tx, body.user_id);
        if (membership?.teamId !== teamId) throw new AppError('not_team_member');
        const shift = { teamId, userId: body.user_id, startedAt: new Date(body.started_at), endedAt: new Date(body.ended_at) };
        await refuseOverlap(tx, shift);
        const [row] = await repo.insertShifts(tx, [{ ...shift, source: 'admin' }]);
        return (await toShifts(tx, [row!]))[0]!;
      });
    },

    /**
     * The admin corrects a shift (or ends an open one). Tips already credited keep their shares: their split was
     * recorded with them, and credited money moves only by the ledger.
     */
    async correctShift(userId: string, teamId: string, shiftId: string, body: ShiftPatch): Promise<Shift> {
      return db.transaction(async (tx) => {
        await requireAdmin(tx, userId, teamId, 'update');
        const shift = await repo.findShift(tx, teamId, shiftId);
        if (!shift) throw new AppError('not_found');
        const changes = { startedAt: new Date(body.started_at), endedAt: new Date(body.ended_at) };
        await refuseOverlap(tx, { teamId, userId: shift.userId, ...changes }, shift.id);
        return (await toShifts(tx, [await repo.updateShift(tx, shift.id, changes)]))[0]!;
      });
    },

    /**
     * The admin imports shifts from CSV (`member,start,end`; the member by phone or user id): every row is checked
     * (a member of the team now, instants with their offset, an end after the start, no overlap with the member's
     * other shifts or other rows), and either all rows go in or none, with every problem named by its line.
     */
    async importShifts(userId: string, teamId: string, csv: string): Promise<{ imported: number }> {
      return db.transaction(async (tx) => {
        await requireAdmin(tx, userId, teamId, 'update');
        const { rows, problems } = parseShiftCsv(csv);
        const report = (line: number, problem: ImportProblem) => problems.set(line, [...(problems.get(line) ?? []), problem]);
        const members = new Map((await repo.listOpenMemberships(tx, teamId)).map((m) => [m.userId, m]));
        const accepted: { line: number; userId: string; startedAt: Date; endedAt: Date }[] = [];
        for (const row of rows) {
          const phone = isUuid(row.member) ? null : normalizePhone(row.member);
          const memberId = isUuid(row.member) ? row.member : phone ? (await findUserByPhone(tx, phone))?.id : undefined;
          if (!memberId || !members.has(memberId)) {
            report(row.line, 'member');
            continue;
          }
          const shift = { teamId, userId: memberId, startedAt: row.startedAt, endedAt: row.endedAt };
          const clash = accepted.some(
            (other) => other.userId === memberId && other.startedAt < row.endedAt && row.startedAt < other.endedAt,
          );
          if (clash || (await repo.hasOverlappingShift(tx, shift))) report(row.line, 'overlap');
          else accepted.push({ line: row.line, ...shift });
        }
        if (rows.length === 0 && problems.size === 0) report(1, 'columns');
        if (problems.size > 0) {
          const validationErrors = Object.fromEntries(
            [...problems].sort(([a], [b]) => a - b).map(([line, found]) => [`rows.${line}`, found]),
          );
          throw new AppError('shift_import_invalid', { validationErrors });
        }
        await repo.insertShifts(
          tx,
          accepted.map(({ userId: member, startedAt, endedAt }) => ({
            teamId,
            userId: member,
            startedAt,
            endedAt,
            source: 'import' as const,
          })),
        );
        return { imported: accepted.length };
      });
    },

    /**
     * The member's shares of the team's latest tips with their maths (their "tips receipt"): the rule and basis used,
     * their minutes or points against the team's total, as recorded at the credit.
     */
    async tipShares(userId: string, teamId: string): Promise<TipShare[]> {
      await requireMember(db, userId, teamId);
      return (await repo.listTipSplitsOf(db, teamId, userId, TIP_SHARES_SHOWN)).map((split) => {
        const own = split.shares.find((share) => share.userId === userId)!;
        return {
          payment_id: split.paymentId,
          at: split.at.toISOString(),
          rule: split.ruleKind,
          basis: split.basis,
          total_cents: split.totalCents,
          fee_cents: split.feeCents,
          sharing: split.shares.filter((share) => share.weight > 0).length,
          total_weight: split.shares.reduce((sum, share) => sum + share.weight, 0),
          role: own.role,
          minutes: own.minutes,
          points: own.points,
          weight: own.weight,
          net_cents: own.netCents,
          share_fee_cents: own.feeCents,
          venue: split.venuePart
            ? {
                total_cents: split.venuePart.venueTotalCents,
                fee_cents: split.venuePart.venueFeeCents,
                basis_points: split.venuePart.basisPoints,
                weight: split.venuePart.weight,
                total_weight: split.venuePart.totalWeight,
              }
            : null,
        };
      });
    },

    /** Work history: every membership period of the team, newest first. */
    async history(userId: string, teamId: string): Promise<MembershipPeriod[]> {
      await requireMemberOrAdmin(db, userId, teamId);
      const periods: MembershipPeriod[] = [];
      for (const m of await repo.listMemberships(db, teamId)) {
        periods.push({
          user_id: m.userId,
          public_name: (await profileOf(db, m.userId)).public_name,
          joined_at: m.joinedAt.toISOString(),
          left_at: m.leftAt?.toISOString() ?? null,
        });
      }
      return periods;
    },

    /**
     * Tips received in [from, to) through the team card and as the team's part of venue tips (decision 0061), per
     * member: every current member, and anyone else paid then. A share counts once, net of what was taken back.
     */
    async statistics(userId: string, teamId: string, from: Date, to: Date): Promise<TeamStatistics> {
      const { team } = await requireMemberOrAdmin(db, userId, teamId);
      const byUser = new Map<string, { count: number; sumCents: number }>();
      for (const row of [
        ...(await sharesReceivedPerUser(db, { purpose: 'team_tip', subjectId: team.cardId, from, to })),
        ...(await sharesOfPairsPerUser(db, await repo.venueSharesOf(db, teamId, from, to))),
      ]) {
        const seen = byUser.get(row.userId) ?? { count: 0, sumCents: 0 };
        byUser.set(row.userId, { count: seen.count + row.count, sumCents: seen.sumCents + Number(row.sumCents) });
      }
      const userIds = [...new Set([...(await repo.listOpenMemberships(db, teamId)).map((m) => m.userId), ...byUser.keys()])];
      const members = [];
      for (const id of userIds) {
        const row = byUser.get(id);
        members.push({
          user_id: id,
          public_name: (await profileOf(db, id)).public_name,
          count: row?.count ?? 0,
          sum_cents: row?.sumCents ?? 0,
        });
      }
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        total_count: members.reduce((sum, m) => sum + m.count, 0),
        total_cents: members.reduce((sum, m) => sum + m.sum_cents, 0),
        members,
      };
    },
  };
}

async function describeTeam(db: Executor, team: repo.TeamRow, workplace: repo.WorkplaceRow): Promise<PublicTeam> {
  const memberships = await repo.listOpenMemberships(db, team.id);
  const members = [];
  for (const m of memberships) members.push(await profileOf(db, m.userId));
  return { id: team.id, title: team.title, workplace_name: workplace.name, member_count: memberships.length, members };
}

export { createVenuePages, type VenuePages } from './venue-page.ts';
