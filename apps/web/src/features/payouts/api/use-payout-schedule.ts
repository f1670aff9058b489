import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  payoutScheduleStateSchema,
  type ConfirmPayoutScheduleBody,
  type PayoutScheduleBody,
  type PayoutScheduleState,
} from '@tipcard/shared/payouts/schedules';
import { api } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.ts';

export const payoutScheduleKey = (clientId: string | undefined) => ['payout-schedule', clientId] as const;

/** The schedule in force, a change waiting for its code, and the last run (docs/decisions/0044). */
export function usePayoutSchedule(clientId: string | undefined) {
  return useQuery({
    queryKey: payoutScheduleKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/payout-schedule`, payoutScheduleStateSchema, { signal }),
    enabled: Boolean(clientId),
  });
}

/** Each answer is the whole new state: it replaces the cached one. */
function useScheduleMutation<V>(clientId: string | undefined, call: (variables: V) => Promise<PayoutScheduleState>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (state) => queryClient.setQueryData(payoutScheduleKey(clientId), state),
  });
}

/** Asks for a new or changed schedule; the server texts the code (in the app's language) that puts it in force. */
export const useSetPayoutSchedule = (clientId: string | undefined) =>
  useScheduleMutation(clientId, (body: PayoutScheduleBody) =>
    api.put(`/clients/${clientId}/payout-schedule`, body, payoutScheduleStateSchema, {
      headers: { 'Accept-Language': currentLocale() },
    }),
  );

/** The code form maps its own errors (wrong code, too many attempts). */
export const useConfirmPayoutSchedule = (clientId: string | undefined) =>
  useScheduleMutation(clientId, (body: ConfirmPayoutScheduleBody) =>
    api.post(`/clients/${clientId}/payout-schedule/confirm`, body, payoutScheduleStateSchema, { errorHandling: 'none' }),
  );

export const useCancelPayoutSchedule = (clientId: string | undefined) =>
  useScheduleMutation(clientId, () => api.delete(`/clients/${clientId}/payout-schedule`, payoutScheduleStateSchema));
