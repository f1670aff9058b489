import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { venueCardSchema, venuePercentagesSchema, type VenuePercentagesInput } from '@tipcard/shared/venue-tips/schemas';
import { api } from '../../../lib/api-client.ts';

const venueKey = (workplaceId: string) => ['venue', workplaceId] as const;

/** The venue's card (made on the admin's first visit, decision 0058). */
export function useVenueCard(workplaceId: string) {
  return useQuery({
    queryKey: [...venueKey(workplaceId), 'card'],
    queryFn: ({ signal }) => api.get(`/workplaces/${workplaceId}/venue-card`, venueCardSchema, { signal }),
  });
}

/** The percentages between the venue's teams in force. */
export function useVenuePercentages(workplaceId: string) {
  return useQuery({
    queryKey: [...venueKey(workplaceId), 'percentages'],
    queryFn: ({ signal }) => api.get(`/workplaces/${workplaceId}/percentages`, venuePercentagesSchema, { signal }),
  });
}

export function useSetVenuePercentages(workplaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: VenuePercentagesInput) => api.put(`/workplaces/${workplaceId}/percentages`, body, venuePercentagesSchema),
    onSuccess: (saved) => queryClient.setQueryData([...venueKey(workplaceId), 'percentages'], saved),
  });
}
