import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountStateSchema, notificationChoicesSchema, type NotificationChoices } from '@tipcard/shared/account/schemas';
import { api } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/download-file.ts';
import { clearTokens, getRefreshToken } from '../../../lib/tokens.ts';
import { meQueryKey } from '../../../app/session/use-me.ts';

/** Leaves the signed-in app: cookies gone, the page reloaded at index (spec 4: "after success the page reloads"). */
export function reloadSignedOut(): void {
  clearTokens();
  window.location.hash = '#/';
  window.location.reload();
}

/** "Download my data": the ZIP the API builds, saved under its name. */
export function useDownloadData(clientId: string | undefined) {
  return useMutation({
    mutationFn: async () => {
      const blob = await api.getBlob(`/clients/${clientId}/export`, { headers: { Accept: 'application/zip' } });
      saveBlob(blob, `tipcard-data-${new Date().toISOString().slice(0, 10)}.zip`);
    },
  });
}

/** The deletion statement; a refusal's reason is the API client's snackbar. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: () => api.post('/user/deletion_statements', {}, accountStateSchema),
    onSuccess: reloadSignedOut,
  });
}

export function useRestoreAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/user/restore', {}, accountStateSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}

/** "No, sign out" on the restore question: the session this sign-in opened is ended on the server too. */
export function useLeaveDeleted() {
  return useMutation({
    mutationFn: async () => {
      const refreshToken = getRefreshToken();
      await api.post('/logout', refreshToken ? { refreshToken } : {}, null, { auth: false, errorHandling: 'none' }).catch(() => undefined);
    },
    onSettled: reloadSignedOut,
  });
}

const notificationsKey = (clientId: string | undefined) => ['notifications', clientId] as const;

export function useNotificationChoices(clientId: string | undefined) {
  return useQuery({
    queryKey: notificationsKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/notifications`, notificationChoicesSchema, { signal }),
    enabled: Boolean(clientId),
  });
}

export function useSaveNotificationChoices(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choices: NotificationChoices) => api.patch(`/clients/${clientId}/notifications`, choices, notificationChoicesSchema),
    onSuccess: (choices) => queryClient.setQueryData(notificationsKey(clientId), choices),
  });
}
