import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { verificationSchema, type VerificationBody } from '@tipcard/shared/verification/schemas';
import { api } from '../../../lib/api-client.ts';
import { meQueryKey, privateClientId, useMe } from '../../../app/session/use-me.ts';

export const verificationQueryKey = (clientId: string | undefined) => ['verification', clientId] as const;

/** The user's verification status (GET /clients/{id}/verification); off until /me names the client, or when `enabled` is false. */
export function useVerification(enabled = true) {
  const me = useMe();
  const clientId = privateClientId(me.data);
  const query = useQuery({
    queryKey: verificationQueryKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/verification`, verificationSchema, { signal }),
    enabled: enabled && Boolean(clientId),
    staleTime: 30_000,
  });
  return { ...query, clientId, me: me.data };
}

/** Sends the person or company form; the answer (pending) replaces the cached status. */
export function useSubmitVerification(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: VerificationBody) => api.post(`/clients/${clientId}/verification`, body, verificationSchema),
    onSuccess: (verification) => {
      queryClient.setQueryData(verificationQueryKey(clientId), verification);
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}
