import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  joinRequestSchema,
  membershipPeriodSchema,
  ownJoinRequestSchema,
  publicTeamSchema,
  rulePreviewSchema,
  shiftImportSchema,
  shiftSchema,
  splitRulesSchema,
  teamSchema,
  periodAdjustmentResultSchema,
  teamPeriodSchema,
  type PeriodAdjustmentBody,
  teamStatisticsSchema,
  tipShareSchema,
  tippingPolicySchema,
  venueAdminSchema,
  workplaceSchema,
  type SplitRuleInput,
} from '@tipcard/shared/teams/schemas';
import { api } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/download-file.ts';

export const workplaceKey = (clientId: string | undefined) => ['workplace', clientId] as const;
const teamKey = (teamId: string | undefined) => ['team', teamId] as const;
const done = z.object({ done: z.literal(true) });

/** The workplace of the user's team; null when the user is in no team. */
export function useWorkplace(clientId: string | undefined) {
  return useQuery({
    queryKey: workplaceKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/workplace`, workplaceSchema.nullable(), { signal }),
    enabled: Boolean(clientId),
  });
}

/**
 * Every team change shows on the workplace page (members, requests, admin), and on the history and statistics.
 * After leaving, the page shows "no team" at once and the team's own queries are dropped rather than refetched: the
 * team now answers 404 to its former member, which would otherwise open the error page.
 */
function useTeamMutation<T, R>(
  clientId: string | undefined,
  mutationFn: (input: T) => Promise<R>,
  options: { leavesTeam?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      if (options.leavesTeam) {
        queryClient.setQueryData(workplaceKey(clientId), null);
        queryClient.removeQueries({ queryKey: ['team'] });
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: workplaceKey(clientId) }),
        options.leavesTeam ? undefined : queryClient.invalidateQueries({ queryKey: ['team'] }),
        // The team card moves with admin access.
        queryClient.invalidateQueries({ queryKey: ['cards'] }),
      ]);
    },
  });
}

export function useCreateWorkplace(clientId: string | undefined) {
  return useTeamMutation(clientId, (body: { name: string; country: string }) =>
    api.post(`/clients/${clientId}/workplace`, body, workplaceSchema),
  );
}

export function useTeamActions(clientId: string | undefined, teamId: string) {
  return {
    rename: useTeamMutation(clientId, (title: string) => api.patch(`/teams/${teamId}`, { title }, teamSchema)),
    approve: useTeamMutation(clientId, (requestId: string) =>
      api.post(`/teams/${teamId}/requests/${requestId}/approve`, undefined, joinRequestSchema),
    ),
    decline: useTeamMutation(clientId, (requestId: string) =>
      api.post(`/teams/${teamId}/requests/${requestId}/decline`, undefined, joinRequestSchema),
    ),
    remove: useTeamMutation(clientId, (userId: string) => api.delete(`/teams/${teamId}/members/${userId}`, done)),
    grantAdmin: useTeamMutation(clientId, (userId: string) =>
      api.post(`/teams/${teamId}/admin`, { user_id: userId }, teamSchema),
    ),
    leave: useTeamMutation(clientId, () => api.post(`/teams/${teamId}/leave`, undefined, done), { leavesTeam: true }),
  };
}

/** Another team of the venue, for its venue admin to manage (their own team comes with the workplace). */
export function useTeam(teamId: string | undefined) {
  return useQuery({
    queryKey: teamKey(teamId),
    queryFn: ({ signal }) => api.get(`/teams/${teamId}`, teamSchema, { signal }),
    enabled: Boolean(teamId),
  });
}

/** The venue admin's changes to the venue: a team, an admin added or removed (decision 0057). */
export function useVenueActions(clientId: string | undefined, workplaceId: string) {
  return {
    addTeam: useTeamMutation(clientId, (title: string) => api.post(`/workplaces/${workplaceId}/teams`, { title }, teamSchema)),
    addAdmin: useTeamMutation(clientId, (userId: string) =>
      api.post(`/workplaces/${workplaceId}/admins`, { user_id: userId }, z.array(venueAdminSchema)),
    ),
    removeAdmin: useTeamMutation(clientId, (userId: string) =>
      api.delete(`/workplaces/${workplaceId}/admins/${userId}`, z.array(venueAdminSchema)),
    ),
  };
}

export function useTeamHistory(teamId: string) {
  return useQuery({
    queryKey: [...teamKey(teamId), 'history'],
    queryFn: ({ signal }) => api.get(`/teams/${teamId}/history`, z.array(membershipPeriodSchema), { signal }),
  });
}

export function useTeamStatistics(teamId: string, range: { from: string; to: string } | null) {
  return useQuery({
    queryKey: [...teamKey(teamId), 'statistics', range?.from, range?.to],
    queryFn: ({ signal }) =>
      api.get(`/teams/${teamId}/statistics`, teamStatisticsSchema, { signal, query: { from: range!.from, to: range!.to } }),
    enabled: range !== null,
  });
}

/** What the invite link shows; 404 is an answer here ('Team not found'), not an error page. */
export function usePublicTeam(teamId: string) {
  return useQuery({
    queryKey: ['public-team', teamId],
    queryFn: ({ signal }) => api.get(`/public/teams/${teamId}`, publicTeamSchema, { signal, auth: false, errorHandling: 'none' }),
    retry: false,
  });
}

const ownRequestsKey = (clientId: string | undefined) => ['team-requests', clientId] as const;

/** The user's join requests still waiting for an admin (shown while the user is in no team). */
export function useOwnJoinRequests(clientId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ownRequestsKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/team-requests`, z.array(ownJoinRequestSchema), { signal }),
    enabled: Boolean(clientId) && enabled,
  });
}

export function useWithdrawJoinRequest(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, requestId }: { teamId: string; requestId: string }) =>
      api.delete(`/teams/${teamId}/requests/${requestId}`, joinRequestSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ownRequestsKey(clientId) }),
  });
}

export function useRequestToJoin(teamId: string) {
  return useMutation({
    mutationFn: () => api.post(`/teams/${teamId}/requests`, undefined, joinRequestSchema, { errorHandling: 'none' }),
  });
}

/** The team's split rule in force and its earlier versions. */
export function useSplitRules(teamId: string) {
  return useQuery({
    queryKey: [...teamKey(teamId), 'rules'],
    queryFn: ({ signal }) => api.get(`/teams/${teamId}/rules`, splitRulesSchema, { signal }),
  });
}

/** The member's shifts (the admin's: everyone's) overlapping the range. */
export function useShifts(teamId: string, range: { from: string; to: string }) {
  return useQuery({
    queryKey: [...teamKey(teamId), 'shifts', range.from, range.to],
    queryFn: ({ signal }) => api.get(`/teams/${teamId}/shifts`, z.array(shiftSchema), { signal, query: range }),
  });
}

/** The member's shares of the latest team tips, with their maths. */
export function useTipShares(teamId: string) {
  return useQuery({
    queryKey: [...teamKey(teamId), 'tip-shares'],
    queryFn: ({ signal }) => api.get(`/teams/${teamId}/tip-shares`, z.array(tipShareSchema), { signal }),
  });
}

/**
 * Downloads tip allocation records (the user's own, or every member's of a team for its admin) for [from, to) as CSV
 * or PDF, the PDF with days and times in the browser's time zone. Fetched as a blob: the call needs the bearer header.
 */
export function useTipRecordsDownload(path: `/clients/${string}/tip-records` | `/teams/${string}/tip-records`) {
  return useMutation({
    mutationFn: async ({ range, format }: { range: { from: string; to: string }; format: 'csv' | 'pdf' }) => {
      const blob = await api.getBlob(path, {
        query: { ...range, format, time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone },
      });
      const who = path.startsWith('/teams/') ? 'team-tip-records' : 'tip-records';
      saveBlob(blob, `tipcard-${who}-${range.from.slice(0, 10)}.${format}`);
    },
  });
}

/** A candidate rule on a past period: asked on demand, never cached as the team's state. */
export function useRulePreview(teamId: string) {
  return useMutation({
    mutationFn: (body: { rule: SplitRuleInput; from: string; to: string }) =>
      api.post(`/teams/${teamId}/rules/preview`, body, rulePreviewSchema, { errorHandling: 'none' }),
  });
}

export function useSplitActions(clientId: string | undefined, teamId: string) {
  return {
    saveRule: useTeamMutation(clientId, (rule: SplitRuleInput) => api.post(`/teams/${teamId}/rules`, rule, splitRulesSchema)),
    setRole: useTeamMutation(clientId, ({ userId, role }: { userId: string; role: string | null }) =>
      api.patch(`/teams/${teamId}/members/${userId}`, { role }, teamSchema),
    ),
    clockIn: useTeamMutation(clientId, () => api.post(`/teams/${teamId}/shifts/clock-in`, undefined, shiftSchema)),
    clockOut: useTeamMutation(clientId, () => api.post(`/teams/${teamId}/shifts/clock-out`, undefined, shiftSchema)),
    addShift: useTeamMutation(clientId, (body: { user_id: string; started_at: string; ended_at: string }) =>
      api.post(`/teams/${teamId}/shifts`, body, shiftSchema),
    ),
    importShifts: useTeamMutation(clientId, (csv: string) =>
      api.post(`/teams/${teamId}/shifts/import`, { csv }, shiftImportSchema, { errorHandling: 'none' }),
    ),
  };
}

/** The venue's tipping policy: the version in force, the user's confirmation, the template (decision 0054). */
export function useTippingPolicy(teamId: string) {
  return useQuery({
    queryKey: [...teamKey(teamId), 'policy'],
    queryFn: ({ signal }) => api.get(`/teams/${teamId}/policy`, tippingPolicySchema, { signal }),
  });
}

/** The admin publishes a version, or a member confirms reading one: the answer is the policy as it now stands. */
export function useTippingPolicyActions(teamId: string) {
  const queryClient = useQueryClient();
  const onSuccess = (policy: z.infer<typeof tippingPolicySchema>) =>
    queryClient.setQueryData([...teamKey(teamId), 'policy'], policy);
  return {
    publish: useMutation({
      mutationFn: (text: string) => api.post(`/teams/${teamId}/policy`, { text }, tippingPolicySchema),
      onSuccess,
    }),
    confirmRead: useMutation({
      mutationFn: (version: number) => api.post(`/teams/${teamId}/policy/${version}/read`, undefined, tippingPolicySchema),
      onSuccess,
      // A version replaced meanwhile: the new one is shown, to be read.
      onError: () => queryClient.invalidateQueries({ queryKey: [...teamKey(teamId), 'policy'] }),
    }),
  };
}

const periodsKey = (teamId: string) => [...teamKey(teamId), 'periods'] as const;

/** The team's recent periods (calendar months), newest first, with their state and the legal deadline (decision 0055). */
export function useTeamPeriods(teamId: string) {
  return useQuery({
    queryKey: periodsKey(teamId),
    queryFn: ({ signal }) => api.get(`/teams/${teamId}/periods`, z.array(teamPeriodSchema), { signal }),
  });
}

/**
 * A period's transitions: the admin closes, answers and locks; a member objects or confirms. Each answers the period
 * as it now stands; the list is read again either way (a refusal means it changed meanwhile).
 */
export function useTeamPeriodActions(teamId: string) {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: periodsKey(teamId) });
  return {
    close: useMutation({
      mutationFn: (month: string) => api.post(`/teams/${teamId}/periods/${month}/close`, undefined, teamPeriodSchema),
      onSettled,
    }),
    object: useMutation({
      mutationFn: ({ month, text }: { month: string; text: string }) =>
        api.post(`/teams/${teamId}/periods/${month}/objections`, { text }, teamPeriodSchema),
      onSettled,
    }),
    answer: useMutation({
      mutationFn: ({ month, objectionId, answer }: { month: string; objectionId: string; answer: string }) =>
        api.post(`/teams/${teamId}/periods/${month}/objections/${objectionId}/answer`, { answer }, teamPeriodSchema),
      onSettled,
    }),
    confirm: useMutation({
      mutationFn: (month: string) => api.post(`/teams/${teamId}/periods/${month}/confirm`, undefined, teamPeriodSchema),
      onSettled,
    }),
    lock: useMutation({
      mutationFn: (month: string) => api.post(`/teams/${teamId}/periods/${month}/lock`, undefined, teamPeriodSchema),
      onSettled,
    }),
  };
}

/**
 * The admin's adjustment of a locked period (decision 0059), sent with the Idempotency-Key the form keeps for one
 * intended adjustment; its errors are the form's to show inline (a 409 or 422 is not an error page or a snackbar).
 */
export function useAdjustPeriod(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ month, body, key }: { month: string; body: PeriodAdjustmentBody; key: string }) =>
      api.post(`/teams/${teamId}/periods/${month}/adjustments`, body, periodAdjustmentResultSchema, {
        headers: { 'idempotency-key': key },
        errorHandling: 'none',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: periodsKey(teamId) }),
  });
}
