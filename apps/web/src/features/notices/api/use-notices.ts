import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { noticesSchema, type Notices } from '@tipcard/shared/notices/schemas';
import { api } from '../../../lib/api-client.ts';

/** The key's first part is what a live notice makes stale (`app/session/use-live-events.ts`). */
const noticesKey = (clientId: string | undefined) => ['notices', clientId] as const;

/** The user's latest in-app notices and how many are unread (GET /clients/{id}/notices). */
export function useNotices(clientId: string | undefined) {
  return useQuery({
    queryKey: noticesKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/notices`, noticesSchema, { signal }),
    enabled: Boolean(clientId),
  });
}

/** Marks one notice read (`noticeId`), or every one (`'all'`); the answer is the list as it now is. */
export function useMarkNoticesRead(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (noticeId: string | 'all') =>
      noticeId === 'all'
        ? api.post(`/clients/${clientId}/notices/read`, undefined, noticesSchema)
        : api.post(`/clients/${clientId}/notices/${noticeId}/read`, undefined, noticesSchema),
    onSuccess: (notices: Notices) => queryClient.setQueryData(noticesKey(clientId), notices),
  });
}
