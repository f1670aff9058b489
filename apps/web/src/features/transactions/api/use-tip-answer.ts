import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { tipAnswerStateSchema, type TipAnswerState } from '@tipcard/shared/transactions/schemas';
import { api } from '../../../lib/api-client.ts';

const answerKey = (clientId: string | undefined, transactionId: string) => ['tip-answer', clientId, transactionId];

/** Whether the guest's message on a received tip can be answered, and the answer once given (decision 0047). */
export function useTipAnswer(clientId: string | undefined, transactionId: string) {
  return useQuery({
    queryKey: answerKey(clientId, transactionId),
    // The dialog shows its own error in place: a refusal here is no reason for the snackbar or the error page.
    queryFn: ({ signal }) =>
      api.get(`/clients/${clientId}/transactions/${transactionId}/answer`, tipAnswerStateSchema, {
        signal,
        errorHandling: 'none',
      }),
    enabled: Boolean(clientId),
  });
}

/** Sends the one answer; the dialog maps every refusal itself (a 409 when it was answered meanwhile). */
export function useSendTipAnswer(clientId: string | undefined, transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) =>
      api.post(`/clients/${clientId}/transactions/${transactionId}/answer`, { text }, tipAnswerStateSchema, {
        errorHandling: 'none',
      }),
    onSuccess: (state: TipAnswerState) => queryClient.setQueryData(answerKey(clientId, transactionId), state),
    onError: () => void queryClient.invalidateQueries({ queryKey: answerKey(clientId, transactionId) }),
  });
}
