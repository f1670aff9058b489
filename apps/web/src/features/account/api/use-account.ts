import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  accountStateSchema,
  deletionPreviewSchema,
  languageChoiceSchema,
  notificationChoicesSchema,
  type DeletionStatementBody,
  type NotificationChoices,
} from '@tipcard/shared/account/schemas';
import type { Locale } from '@tipcard/shared/constants';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { payoutMethodSchema, payoutSchema } from '@tipcard/shared/payouts/schemas';
import { usePublicCard } from '../../../app/session/use-public-card.ts';
import { api } from '../../../lib/api-client.ts';
import { currentLocale, i18n } from '../../../lib/i18n.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { noticeAfterReload } from '../../../lib/notice-after-reload.ts';
import { saveBlob } from '../../../lib/download-file.ts';
import { clearTokens, getRefreshToken } from '../../../lib/tokens.ts';
import { meQueryKey } from '../../../app/session/use-me.ts';

/** Leaves the signed-in app: cookies gone, the page reloaded at index (spec 4: "after success the page reloads"). */
export function reloadSignedOut(): void {
  clearTokens();
  window.location.hash = '#/';
  window.location.reload();
}

/**
 * Settings → language: the language of the texts, e-mails and documents the user is sent, stored before the app
 * reloads in it (docs/decisions/0032). A refusal shows its snackbar and the app stays as it is.
 */
export function useSaveLanguage(clientId: string | undefined) {
  return useMutation({
    mutationFn: (language: Locale) => api.patch(`/clients/${clientId}/language`, { language }, languageChoiceSchema),
  });
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

/** What "Yes, delete" would do now (delete, a closing payout first, or not yet and why), asked each time the dialog opens. */
export function useDeletionPreview(open: boolean) {
  return useQuery({
    queryKey: ['deletion-preview'],
    queryFn: ({ signal }) => api.get('/user/deletion_statements/preview', deletionPreviewSchema, { signal }),
    enabled: open,
    staleTime: 0,
    // Coming back from reading the SMS code must not re-ask it under the user's typing.
    refetchOnWindowFocus: false,
  });
}

/** The bank accounts a closing payout can go to (the payouts pages' cache key, so both see the same list). */
export function useClosingPayoutAccounts(clientId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['payout-methods', clientId],
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/payout-methods`, z.array(payoutMethodSchema), { signal }),
    enabled: enabled && Boolean(clientId),
  });
}

/** The closing payout of the whole balance: its code is texted (in the app's language) and given to the deletion statement. */
export function useAskClosingPayout(clientId: string | undefined) {
  return useMutation({
    mutationFn: (methodId: string) =>
      api.post(`/clients/${clientId}/closing-payouts`, { method_id: methodId }, payoutSchema, {
        headers: { 'Idempotency-Key': newIdempotencyKey(), 'Accept-Language': currentLocale() },
      }),
  });
}

/** The card a closing gift would go to, read as a guest reads it, so the dialog names the charity before "Yes, delete". */
export const useGiftCard = usePublicCard;

/** The deletion statement, with the closing payout's code or the gift when there is a balance; a refusal's reason is the API client's snackbar. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: DeletionStatementBody = {}) => api.post('/user/deletion_statements', body, accountStateSchema),
    onSuccess: (state) => {
      noticeAfterReload(
        i18n.t('settings:delete.done', {
          date: state.restore_until ? formatDate(state.restore_until, 'longDate', currentLocale()) : '',
        }),
        'success',
      );
      reloadSignedOut();
    },
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
      await api
        .post('/logout', refreshToken ? { refreshToken } : {}, null, { auth: false, errorHandling: 'none' })
        .catch(() => undefined);
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
    mutationFn: (choices: NotificationChoices) =>
      api.patch(`/clients/${clientId}/notifications`, choices, notificationChoicesSchema),
    onSuccess: (choices) => queryClient.setQueryData(notificationsKey(clientId), choices),
  });
}
