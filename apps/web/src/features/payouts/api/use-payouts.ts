import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  payeeCheckSchema,
  payoutMethodSchema,
  payoutSchema,
  payoutTermsSchema,
  type Payout,
  type PayoutMethodBody,
} from '@tipcard/shared/payouts/schemas';
import { api } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';

export const payoutMethodsKey = (clientId: string | undefined) => ['payout-methods', clientId] as const;
export const payoutsKey = (clientId: string | undefined) => ['payouts', clientId] as const;
export const payoutKey = (payoutId: string | undefined) => ['payout', payoutId] as const;

/** Every mutating call carries an Idempotency-Key (DESIGN "Payouts"); these are safe to repeat, so one per call. */
const idempotent = () => ({ 'Idempotency-Key': newIdempotencyKey(), ...language() });
/** The server writes SMS texts (the code, the method change notice) in the app's language, not the browser's. */
const language = () => ({ 'Accept-Language': currentLocale() });

/** A payout on its way settles by itself: the pages watch it more closely until it is paid or returned. */
const isMoving = (payout: Payout) => payout.status === 'in_flight' || payout.status === 'awaiting_confirmation';

/** The user's payout methods, default first. */
export function usePayoutMethods(clientId: string | undefined) {
  return useQuery({
    queryKey: payoutMethodsKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/payout-methods`, z.array(payoutMethodSchema), { signal }),
    enabled: Boolean(clientId),
    select: (methods) =>
      [...methods].sort((a, b) => Number(b.is_default) - Number(a.is_default) || a.created_at.localeCompare(b.created_at)),
  });
}

export function useAddPayoutMethod(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PayoutMethodBody) =>
      api.post(`/clients/${clientId}/payout-methods`, body, payoutMethodSchema, { headers: idempotent() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutMethodsKey(clientId) }),
  });
}

/** The bank's answer to the payee-name check, before saving (decision 0043); nothing is stored. */
export function useCheckPayee(clientId: string | undefined) {
  return useMutation({
    mutationFn: (body: PayoutMethodBody) =>
      api.post(`/clients/${clientId}/payout-methods/check`, body, payeeCheckSchema, { headers: language() }),
  });
}

export function useDeletePayoutMethod(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (methodId: string) => api.delete(`/payout-methods/${methodId}`, null, { headers: idempotent() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutMethodsKey(clientId) }),
  });
}

export function useSetDefaultPayoutMethod(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (methodId: string) => api.post(`/payout-methods/${methodId}/default`, undefined, null, { headers: idempotent() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutMethodsKey(clientId) }),
  });
}

/** The minimum, the fee, "withdraw all" and the expected arrival of a payout confirmed now (the form's terms). */
export function usePayoutTerms(clientId: string | undefined) {
  return useQuery({
    queryKey: ['payout-terms', clientId],
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/payouts/terms`, payoutTermsSchema, { signal, errorHandling: 'none' }),
    enabled: Boolean(clientId),
    retry: false,
    staleTime: 60_000,
  });
}

/** The history, newest first. */
export function usePayouts(clientId: string | undefined) {
  return useQuery({
    queryKey: payoutsKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/payouts`, z.array(payoutSchema), { signal }),
    enabled: Boolean(clientId),
    refetchInterval: (query) => (query.state.data?.some(isMoving) ? 3_000 : 60_000),
  });
}

export function usePayout(payoutId: string | undefined) {
  return useQuery({
    queryKey: payoutKey(payoutId),
    queryFn: ({ signal }) => api.get(`/payouts/${payoutId}`, payoutSchema, { signal }),
    enabled: Boolean(payoutId),
    refetchInterval: (query) => (query.state.data?.status === 'in_flight' ? 2_000 : false),
  });
}

/** Everything a payout changes: the balance, the history, the transactions and the overview. */
function useRefreshMoney(clientId: string | undefined) {
  const queryClient = useQueryClient();
  return () => {
    for (const key of [
      ['balances', clientId],
      payoutsKey(clientId),
      ['transactions', clientId],
      ['overview', clientId],
      ['payout-terms', clientId],
    ]) {
      void queryClient.invalidateQueries({ queryKey: key });
    }
  };
}

/**
 * Creates the payout (awaiting its SMS code). One Idempotency-Key per intended payout, kept by the caller: a double
 * slide or a retry after a lost answer makes one payout. 451 opens the verification modal (api-client), 422 shows
 * the server's reason in the snackbar.
 */
export function useCreatePayout(clientId: string | undefined) {
  const queryClient = useQueryClient();
  const refresh = useRefreshMoney(clientId);
  return useMutation({
    mutationFn: ({ key, ...body }: { amount_cents: number; method_id: string; instant: boolean; key: string }) =>
      api.post(`/clients/${clientId}/payouts`, body, payoutSchema, { headers: { 'Idempotency-Key': key, ...language() } }),
    onSuccess: (payout) => {
      queryClient.setQueryData(payoutKey(payout.id), payout);
      refresh();
    },
  });
}

/** The code form maps its own errors (wrong code, too many attempts), as the auth forms do (spec 8). */
export function useConfirmPayout(clientId: string | undefined, payoutId: string | undefined) {
  const queryClient = useQueryClient();
  const refresh = useRefreshMoney(clientId);
  return useMutation({
    mutationFn: (code: string) =>
      api.post(`/payouts/${payoutId}/confirm`, { code }, payoutSchema, { errorHandling: 'none', headers: idempotent() }),
    onSuccess: (payout) => {
      queryClient.setQueryData(payoutKey(payout.id), payout);
      refresh();
    },
    // A refused code may have been the last try, or the code may have run out: the page shows what the payout is now.
    onError: () => queryClient.invalidateQueries({ queryKey: payoutKey(payoutId) }),
  });
}

export function useResendPayoutCode(payoutId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post(`/payouts/${payoutId}/resend`, undefined, payoutSchema, { errorHandling: 'none', headers: idempotent() }),
    onSuccess: (payout) => {
      if (payout?.id) queryClient.setQueryData(payoutKey(payout.id), payout);
    },
  });
}
