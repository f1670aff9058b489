import { z } from 'zod';
import { SERVED_COUNTRIES } from '../auth/phone.ts';
import { isoDateTime, requiredString, rule } from '../validation.ts';

const country = z.enum(SERVED_COUNTRIES as [string, ...string[]], { error: rule('country') });

/** POST /api/clients/{id}/workplace: creates the workplace, its team (the user is admin) and the team card. */
export const workplaceBody = z.object({ name: requiredString(60), country });
export const workplacePatchBody = workplaceBody.partial();
/** PATCH /api/teams/{teamId} */
export const teamPatchBody = z.object({ title: requiredString(60) });
/** POST /api/teams/{teamId}/admin: hands admin access (and the team card) over to another member. */
export const grantAdminBody = z.object({ user_id: z.uuid({ error: rule('valid') }) });

/** POST /api/workplaces/{workplaceId}/teams: a venue admin adds a team (with its own team card) to the venue. */
export const venueTeamBody = z.object({ title: requiredString(60) });
/** POST /api/workplaces/{workplaceId}/admins: a venue admin adds another, a member of one of the venue's teams. */
export const venueAdminBody = z.object({ user_id: z.uuid({ error: rule('valid') }) });

/** `public_name` and `image_url` come from the member's own card: null when they have none yet. */
export const teamMemberSchema = z.object({
  user_id: z.uuid(),
  public_name: z.string().nullable(),
  image_url: z.string().nullable(),
  is_admin: z.boolean(),
  /** When the current membership period began. */
  since: z.string(),
  /** The role the admin gave the member (the points rule prices it); null when none. */
  role: z.string().nullable(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const joinRequestSchema = z.object({
  id: z.uuid(),
  team_id: z.uuid(),
  user_id: z.uuid(),
  public_name: z.string().nullable(),
  image_url: z.string().nullable(),
  status: z.enum(['pending', 'approved', 'declined', 'withdrawn']),
  created_at: z.string(),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;

/** A request as the one who sent it sees it while it waits: which team, where, since when. */
export const ownJoinRequestSchema = z.object({
  id: z.uuid(),
  team_id: z.uuid(),
  team_title: z.string(),
  workplace_name: z.string(),
  created_at: z.string(),
});
export type OwnJoinRequest = z.infer<typeof ownJoinRequestSchema>;

/** A team as its members see it; `requests` is the admin's to answer (empty for other members). */
export const teamSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  workplace: z.object({ id: z.uuid(), name: z.string(), country: z.string() }),
  card_id: z.uuid(),
  payment_url: z.string(),
  invite_url: z.string(),
  admin_user_id: z.uuid(),
  is_admin: z.boolean(),
  members: z.array(teamMemberSchema),
  requests: z.array(joinRequestSchema),
});
export type Team = z.infer<typeof teamSchema>;

/** A team of the venue as the venue's list shows it (decision 0057). */
export const venueTeamSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  card_id: z.uuid(),
  member_count: z.number().int(),
});
export type VenueTeam = z.infer<typeof venueTeamSchema>;

/** An admin of the venue: they administer every team of it; `team_id` is the team of the venue they are a member of. */
export const venueAdminSchema = z.object({
  user_id: z.uuid(),
  public_name: z.string().nullable(),
  image_url: z.string().nullable(),
  team_id: z.uuid().nullable(),
});
export type VenueAdmin = z.infer<typeof venueAdminSchema>;

/**
 * The user's workplace, the venue (GET/POST/PATCH /api/clients/{id}/workplace): null when the user is in no team.
 * `team` is the user's own team; `teams` every team of the venue, `admins` its admins, `is_admin` whether the user is one.
 */
export const workplaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  country: z.string(),
  team: teamSchema,
  is_admin: z.boolean(),
  teams: z.array(venueTeamSchema),
  admins: z.array(venueAdminSchema),
});
export type Workplace = z.infer<typeof workplaceSchema>;

/** What the join page shows anyone holding the invite link. */
export const publicTeamSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  workplace_name: z.string(),
  member_count: z.number().int(),
  members: z.array(z.object({ public_name: z.string().nullable(), image_url: z.string().nullable() })),
});
export type PublicTeam = z.infer<typeof publicTeamSchema>;

/** Work history: every membership period of the team, newest first. */
export const membershipPeriodSchema = z.object({
  user_id: z.uuid(),
  public_name: z.string().nullable(),
  joined_at: z.string(),
  left_at: z.string().nullable(),
});
export type MembershipPeriod = z.infer<typeof membershipPeriodSchema>;

export const statisticsQuery = z
  .object({ from: isoDateTime(), to: isoDateTime() })
  .refine((q) => Date.parse(q.from) < Date.parse(q.to), { message: rule('valid'), path: ['to'] });

/** The longest period one download of allocation records covers. */
export const TIP_RECORDS_MAX_DAYS = 366;

/** An IANA time zone the runtime knows ("Europe/Paris"). */
const timeZone = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, rule('valid'));

/**
 * A download of tip allocation records (issue 29): [from, to), at most a year, as CSV or PDF; the PDF shows days and
 * times in the reader's time zone (the service's, Europe/Riga, when none is given).
 */
export const tipRecordsQuery = z
  .object({
    from: isoDateTime(),
    to: isoDateTime(),
    format: z.enum(['csv', 'pdf'], { error: rule('choice') }),
    time_zone: timeZone.optional(),
  })
  .refine((q) => Date.parse(q.from) < Date.parse(q.to), { message: rule('valid'), path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= TIP_RECORDS_MAX_DAYS * 86_400_000, {
    message: rule('valid'),
    path: ['to'],
  });

/** Tips received through the team card per member in [from, to): how many shares and their net sum. */
export const teamStatisticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  total_count: z.number().int(),
  total_cents: z.number().int(),
  members: z.array(
    z.object({ user_id: z.uuid(), public_name: z.string().nullable(), count: z.number().int(), sum_cents: z.number().int() }),
  ),
});
export type TeamStatistics = z.infer<typeof teamStatisticsSchema>;

/** The most a role is worth under the points rule, and how many roles a rule may price. */
export const ROLE_POINTS_MAX = 1_000;
export const ROLES_MAX = 30;
const roleName = requiredString(40);

/** A split rule (decision 0045): `points` prices each role (role name → whole points, 0 to ROLE_POINTS_MAX). */
export const splitRuleBody = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('even') }),
    z.object({ kind: z.literal('hours') }),
    z.object({
      kind: z.literal('points'),
      points: z
        .record(
          roleName,
          z
            .number({ error: rule('number') })
            .int(rule('number'))
            .min(0, rule('number'))
            .max(ROLE_POINTS_MAX, rule('number')),
        )
        .refine((points) => Object.keys(points).length >= 1 && Object.keys(points).length <= ROLES_MAX, rule('valid')),
    }),
  ],
  { error: rule('choice') },
);
export type SplitRuleInput = z.output<typeof splitRuleBody>;

/** A version of the team's rule; `id` null for the default even rule of a team that never set one. */
export const splitRuleSchema = z.object({
  id: z.uuid().nullable(),
  kind: z.enum(['even', 'hours', 'points']),
  points: z.record(z.string(), z.number().int()),
  created_at: z.string().nullable(),
});
export type SplitRule = z.infer<typeof splitRuleSchema>;

/** GET /api/teams/{teamId}/rules: the rule in force and every earlier version, newest first. */
export const splitRulesSchema = z.object({ current: splitRuleSchema, versions: z.array(splitRuleSchema) });
export type SplitRules = z.infer<typeof splitRulesSchema>;

/** PATCH /api/teams/{teamId}/members/{userId} (admin): the member's role. */
export const memberRoleBody = z.object({ role: roleName.nullable() });

const period = { from: isoDateTime(), to: isoDateTime() };
const fromBeforeTo = (q: { from: string; to: string }) => Date.parse(q.from) < Date.parse(q.to);

/** POST /api/teams/{teamId}/rules/preview: a candidate rule on the team's tips in [from, to). */
export const rulePreviewBody = z
  .object({ rule: splitRuleBody, ...period })
  .refine(fromBeforeTo, { message: rule('valid'), path: ['to'] });

/** What each member received of the period's tips and would have received under the candidate (net of fees). */
export const rulePreviewSchema = z.object({
  from: z.string(),
  to: z.string(),
  tip_count: z.number().int(),
  total_cents: z.number().int(),
  members: z.array(
    z.object({
      user_id: z.uuid(),
      public_name: z.string().nullable(),
      received_cents: z.number().int(),
      candidate_cents: z.number().int(),
    }),
  ),
});
export type RulePreview = z.infer<typeof rulePreviewSchema>;

export const shiftSchema = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  public_name: z.string().nullable(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  source: z.enum(['clock', 'admin', 'import']),
});
export type Shift = z.infer<typeof shiftSchema>;

/** GET /api/teams/{teamId}/shifts: the admin sees everyone's, a member their own; `from`/`to` bound the start. */
export const shiftsQuery = z.object(period).refine(fromBeforeTo, { message: rule('valid'), path: ['to'] });

/** POST /api/teams/{teamId}/shifts (admin): a worked period entered by hand; it must end after it starts. */
export const shiftBody = z
  .object({ user_id: z.uuid({ error: rule('valid') }), started_at: isoDateTime(), ended_at: isoDateTime() })
  .refine((s) => Date.parse(s.started_at) < Date.parse(s.ended_at), { message: rule('valid'), path: ['ended_at'] });

/** PATCH /api/teams/{teamId}/shifts/{shiftId} (admin): a correction; the shift must still end after it starts. */
export const shiftPatchBody = z
  .object({ started_at: isoDateTime(), ended_at: isoDateTime() })
  .refine((s) => Date.parse(s.started_at) < Date.parse(s.ended_at), { message: rule('valid'), path: ['ended_at'] });

/** The most rows one CSV import takes. */
export const SHIFT_IMPORT_ROWS_MAX = 2_000;

/** POST /api/teams/{teamId}/shifts/import (admin): CSV text `member,start,end` (phone or user id, ISO instants). */
export const shiftImportBody = z.object({
  csv: z
    .string({ error: rule('not_blank') })
    .min(1, rule('not_blank'))
    .max(200_000, rule('max_length')),
});
export const shiftImportSchema = z.object({ imported: z.number().int() });

/**
 * A member's share of one team tip and its maths (their "tips receipt"): the rule and basis used, their own minutes or
 * points and the team's total weight, and the tip's totals. Read from the snapshot recorded at the credit.
 */
export const tipShareSchema = z.object({
  payment_id: z.uuid(),
  at: z.string(),
  rule: z.enum(['even', 'hours', 'points']),
  basis: z.enum(['even', 'hours', 'points', 'even_nobody_on_shift', 'even_no_weight']),
  total_cents: z.number().int(),
  fee_cents: z.number().int(),
  sharing: z.number().int(),
  total_weight: z.number().int(),
  role: z.string().nullable(),
  minutes: z.number().int().nullable(),
  points: z.number().int().nullable(),
  weight: z.number().int(),
  net_cents: z.number().int(),
  share_fee_cents: z.number().int(),
  /**
   * For the team's part of a venue tip (decision 0058): the venue tip and the team's percentage of it, and the weight
   * its part was computed with against the teams that got one (a team with no member is left out); null for a tip to
   * the team card.
   */
  venue: z
    .object({
      total_cents: z.number().int(),
      fee_cents: z.number().int(),
      basis_points: z.number().int(),
      weight: z.number().int(),
      total_weight: z.number().int(),
    })
    .nullish(),
});
export type TipShare = z.infer<typeof tipShareSchema>;

/** The longest tipping policy a venue may publish. */
export const TIPPING_POLICY_MAX_LENGTH = 10_000;

/** The admin publishes a new version of the venue's tipping policy (decision 0054). */
export const tippingPolicyBody = z.object({ text: requiredString(TIPPING_POLICY_MAX_LENGTH) });

/**
 * The venue's tipping policy as a member sees it: the version in force (null before the first), when they confirmed
 * reading it, and for the admin every member's confirmation of it; `template` is the starting text in the reader's
 * language, filled with the venue and its rule.
 */
export const tippingPolicySchema = z.object({
  current: z
    .object({
      version: z.number().int(),
      text: z.string(),
      published_at: z.string(),
      read_at: z.string().nullable(),
    })
    .nullable(),
  template: z.string(),
  /** The admin's view: every current member and when they confirmed reading the version in force; [] for others. */
  readers: z.array(z.object({ user_id: z.uuid(), public_name: z.string().nullable(), read_at: z.string().nullable() })),
});
export type TippingPolicy = z.infer<typeof tippingPolicySchema>;

/** The longest objection to a period, and the longest answer to one. */
export const PERIOD_OBJECTION_MAX_LENGTH = 1_000;

/** A member objects to a closed period within 24 hours of its close (decision 0055). */
export const periodObjectionBody = z.object({ text: requiredString(PERIOD_OBJECTION_MAX_LENGTH) });

/** The admin answers an objection. */
export const periodAnswerBody = z.object({ answer: requiredString(PERIOD_OBJECTION_MAX_LENGTH) });

const person = z.object({ user_id: z.uuid(), public_name: z.string().nullable() });

/** An objection to a period and the admin's answer (null until answered). */
export const periodObjectionSchema = person.extend({
  id: z.uuid(),
  text: z.string(),
  created_at: z.string(),
  answer: z.string().nullable(),
  answered_at: z.string().nullable(),
});
export type PeriodObjection = z.infer<typeof periodObjectionSchema>;

/** The largest adjustment of a locked period: 500 EUR, far above a month's usual correction. */
export const PERIOD_ADJUSTMENT_MAX_CENTS = 50_000;
/** The longest reason of an adjustment. */
export const PERIOD_ADJUSTMENT_REASON_MAX_LENGTH = 500;

/**
 * POST /api/teams/{teamId}/periods/{month}/adjustments (admin, with an Idempotency-Key): cents moved from one member
 * to another after the period was locked (decision 0059).
 */
export const periodAdjustmentBody = z
  .object({
    from_user_id: z.uuid({ error: rule('valid') }),
    to_user_id: z.uuid({ error: rule('valid') }),
    amount_cents: z
      .number({ error: rule('wrong_amount') })
      .int(rule('wrong_amount'))
      .positive(rule('wrong_amount'))
      .max(PERIOD_ADJUSTMENT_MAX_CENTS, rule('wrong_amount')),
    reason: requiredString(PERIOD_ADJUSTMENT_REASON_MAX_LENGTH),
  })
  .refine((body) => body.from_user_id !== body.to_user_id, { message: rule('valid'), path: ['to_user_id'] });
export type PeriodAdjustmentBody = z.output<typeof periodAdjustmentBody>;

/** An adjustment of a locked period: who gave, who received, how much, why, who made it and when. */
export const periodAdjustmentSchema = z.object({
  id: z.uuid(),
  from: person,
  to: person,
  amount_cents: z.number().int(),
  reason: z.string(),
  created_at: z.string(),
  created_by: person,
});
export type PeriodAdjustment = z.infer<typeof periodAdjustmentSchema>;

/**
 * A team's period (its calendar month in UTC) as a member sees it: its state, the tips credited in it, the objections
 * (the member's own; the admin's view every one), who confirmed, and the legal deadline by which its tips must have
 * reached the workers (the end of the following month): `deadline_soon` when it is not locked, had tips, and the
 * deadline is 7 days away or less (`deadline_passed` once it is behind).
 */
export const teamPeriodSchema = z.object({
  month: z.string(),
  from: z.string(),
  to: z.string(),
  state: z.enum(['open', 'closed', 'locked']),
  closed_at: z.string().nullable(),
  closed_by: person.nullable(),
  objections_until: z.string().nullable(),
  locked_at: z.string().nullable(),
  locked_by: person.nullable(),
  tip_count: z.number().int(),
  total_cents: z.number().int(),
  /** The members with a share in the period who are still in the team, and how many of them confirmed it. */
  sharers: z.number().int(),
  confirmed: z.number().int(),
  confirmed_by_me: z.boolean(),
  open_objections: z.number().int(),
  objections: z.array(periodObjectionSchema),
  /** The adjustments after the lock: the admin's view every one, a member's those they gave or received. */
  adjustments: z.array(periodAdjustmentSchema),
  deadline: z.string(),
  deadline_soon: z.boolean(),
  deadline_passed: z.boolean(),
  /** What the reader may do now: object or confirm (a member in the 24 hours), close or lock (the admin). */
  can_object: z.boolean(),
  can_confirm: z.boolean(),
  can_close: z.boolean(),
  can_lock: z.boolean(),
  /** The admin may record an adjustment: the period is locked. */
  can_adjust: z.boolean(),
});
export type TeamPeriod = z.infer<typeof teamPeriodSchema>;

/** The answer to an adjustment: the adjustment (the same one again for a retry) and the period as it now stands. */
export const periodAdjustmentResultSchema = z.object({ adjustment: periodAdjustmentSchema, period: teamPeriodSchema });
export type PeriodAdjustmentResult = z.infer<typeof periodAdjustmentResultSchema>;

/** A period in a path: `yyyy-mm`. */
export const periodMonth = z.string().regex(/^(19|20)\d\d-(0[1-9]|1[0-2])$/, { error: rule('valid') });
