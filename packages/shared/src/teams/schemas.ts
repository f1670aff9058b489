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

/** `public_name` and `image_url` come from the member's own card: null when they have none yet. */
export const teamMemberSchema = z.object({
  user_id: z.uuid(),
  public_name: z.string().nullable(),
  image_url: z.string().nullable(),
  is_admin: z.boolean(),
  /** When the current membership period began. */
  since: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const joinRequestSchema = z.object({
  id: z.uuid(),
  team_id: z.uuid(),
  user_id: z.uuid(),
  public_name: z.string().nullable(),
  image_url: z.string().nullable(),
  status: z.enum(['pending', 'approved', 'declined']),
  created_at: z.string(),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;

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

/** The user's workplace (GET/POST/PATCH /api/clients/{id}/workplace): null when the user is in no team. */
export const workplaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  country: z.string(),
  team: teamSchema,
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
