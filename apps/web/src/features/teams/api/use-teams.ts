import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  joinRequestSchema,
  membershipPeriodSchema,
  publicTeamSchema,
  teamSchema,
  teamStatisticsSchema,
  workplaceSchema,
} from '@tipcard/shared/teams/schemas';
import { api } from '../../../lib/api-client.ts';

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
function useTeamMutation<T>(
  clientId: string | undefined,
  mutationFn: (input: T) => Promise<unknown>,
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

export function useRequestToJoin(teamId: string) {
  return useMutation({
    mutationFn: () => api.post(`/teams/${teamId}/requests`, undefined, joinRequestSchema, { errorHandling: 'none' }),
  });
}
