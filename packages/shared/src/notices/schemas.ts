import { z } from 'zod';
import { splitRuleSchema } from '../teams/schemas.ts';

/** What a team's admin decided that a member is told of in the app, besides the text message (issue 29). */
export const noticeKinds = [
  'team_request_approved',
  'team_request_declined',
  'team_member_removed',
  'team_rule_changed',
  'tipping_policy_published',
  'team_period_closed',
  'team_period_objection',
  'team_period_answered',
  'team_period_adjusted_given',
  'team_period_adjusted_received',
] as const;
export type NoticeKind = (typeof noticeKinds)[number];

/**
 * A notice as it is stored and sent live: its kind and what its sentence names (the team and workplace as they were
 * called then, the rule's kind, the period's month `yyyy-mm`, an adjustment's amount). The app writes the sentence in the reader's language.
 */
export const noticeBodySchema = z.object({
  kind: z.enum(noticeKinds),
  team: z.string(),
  workplace: z.string(),
  rule: splitRuleSchema.shape.kind.nullable(),
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .nullable(),
  /** The cents an adjustment of a locked period moved; null for the other kinds. */
  amount_cents: z.number().int().nullable().default(null),
});
export type NoticeBody = z.infer<typeof noticeBodySchema>;

export const noticeSchema = noticeBodySchema.extend({
  id: z.uuid(),
  created_at: z.string(),
  /** null until the user marks it read: until then it stays in the app. */
  read_at: z.string().nullable(),
});
export type Notice = z.infer<typeof noticeSchema>;

/** GET /api/clients/{clientId}/notices: the unread count and the latest notices, newest first. */
export const noticesSchema = z.object({ unread: z.number().int(), notices: z.array(noticeSchema) });
export type Notices = z.infer<typeof noticesSchema>;
