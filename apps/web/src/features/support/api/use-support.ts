import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  createdTicketSchema,
  ticketAttachmentSchema,
  ticketSchema,
  ticketSummarySchema,
  type CreateTicketBody,
  type TicketAttachmentBody,
} from '@tipcard/shared/support/schemas';
import { api } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/download-file.ts';
import { privateClientId, useMe } from '../../../app/session/use-me.ts';

const ticketsKey = (clientId: string | undefined) => ['tickets', clientId] as const;
const ticketKey = (clientId: string | undefined, ticketId: string) => ['tickets', clientId, ticketId] as const;
/** How often the list (and so the side bar's badge) looks for an operator's answer while the app is open. */
const REFRESH_MS = 60_000;

function useClientId() {
  return privateClientId(useMe().data);
}

/** The user's tickets, most recently active first (GET /clients/{id}/tickets). */
export function useTickets() {
  const clientId = useClientId();
  return useQuery({
    queryKey: ticketsKey(clientId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/tickets`, z.array(ticketSummarySchema), { signal }),
    enabled: Boolean(clientId),
    refetchInterval: REFRESH_MS,
    staleTime: 15_000,
  });
}

/** The side bar's badge (spec 2): tickets waiting for the user's answer. */
export function useWaitingTicketCount(): number {
  return useTickets().data?.filter((ticket) => ticket.status === 'waiting_for_user').length ?? 0;
}

export function useTicket(ticketId: string) {
  const clientId = useClientId();
  return useQuery({
    queryKey: ticketKey(clientId, ticketId),
    queryFn: ({ signal }) => api.get(`/clients/${clientId}/tickets/${ticketId}`, ticketSchema, { signal, errorHandling: 'none' }),
    enabled: Boolean(clientId),
    refetchInterval: REFRESH_MS,
    retry: false,
  });
}

export function useCreateTicket() {
  const clientId = useClientId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTicketBody) => api.post(`/clients/${clientId}/tickets`, body, createdTicketSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketsKey(clientId) }),
  });
}

/** The user's reply; the answer is the ticket as it is now. */
export function useReply(ticketId: string) {
  const clientId = useClientId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string) => api.post(`/clients/${clientId}/tickets/${ticketId}/messages`, { message }, ticketSchema),
    onSuccess: (ticket) => {
      queryClient.setQueryData(ticketKey(clientId, ticketId), ticket);
      void queryClient.invalidateQueries({ queryKey: ticketsKey(clientId), exact: true });
    },
  });
}

/** Uploads files to a ticket one after the other; `after` refreshes the ticket and the list. */
export function useAttachmentUpload() {
  const clientId = useClientId();
  const queryClient = useQueryClient();
  return {
    upload: (ticketId: string, body: TicketAttachmentBody) =>
      api.post(`/clients/${clientId}/tickets/${ticketId}/attachments`, body, ticketAttachmentSchema),
    after: (ticketId: string) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ticketKey(clientId, ticketId) }),
        queryClient.invalidateQueries({ queryKey: ticketsKey(clientId), exact: true }),
      ]),
  };
}

/** Downloads an attachment through the API (the call needs the bearer header) and saves it under its name. */
export function useDownloadAttachment(ticketId: string) {
  const clientId = useClientId();
  return useMutation({
    mutationFn: async (attachment: { id: string; name: string; mime: string }) => {
      const blob = await api.getBlob(`/clients/${clientId}/tickets/${ticketId}/attachments/${attachment.id}`, {
        headers: { Accept: attachment.mime },
      });
      saveBlob(blob, attachment.name);
    },
  });
}
