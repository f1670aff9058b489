import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { referralFriendSchema, referralSummarySchema } from '@tipcard/shared/referrals/schemas';
import { api } from '../../../lib/api-client.ts';

export function useReferralSummary(clientId: string | undefined) {
  return useQuery({
    queryKey: ['referrals', clientId],
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/referrals`, referralSummarySchema, { signal }),
    enabled: Boolean(clientId),
  });
}

export function useReferralFriends(clientId: string | undefined) {
  return useQuery({
    queryKey: ['referrals', clientId, 'list'],
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/referrals/list`, z.array(referralFriendSchema), { signal }),
    enabled: Boolean(clientId),
  });
}
