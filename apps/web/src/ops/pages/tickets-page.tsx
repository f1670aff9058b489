import { useQuery } from '@tanstack/react-query';
import { opsTicketRow } from '@tipcard/shared/ops/schemas';
import { TICKET_STATUSES, type TicketStatus } from '@tipcard/shared/support/schemas';
import { Inbox } from 'lucide-react';
import { Link } from 'react-router';
import { z } from 'zod';
import { ListState } from '../../components/ui/list-state.tsx';
import { formatTime, opsGet } from '../ops-api.ts';
import { loadErrorText, Page, Table, useStatusFilter } from '../ui.tsx';
import { formatAge, TicketStatusBadge } from './ticket-status.tsx';

const LABELS: Record<TicketStatus, string> = { open: 'Open', waiting_for_user: 'Waiting for the user', closed: 'Closed' };

/** The support inbox: tickets of one status, the longest without activity first. */
export default function TicketsPage() {
  const { status, filter } = useStatusFilter(TICKET_STATUSES, 'open', (value) => LABELS[value]);
  const tickets = useQuery({
    queryKey: ['ops', 'tickets', status ?? 'all'],
    queryFn: () => opsGet(z.array(opsTicketRow), '/tickets', { status }),
  });
  return (
    <Page title="Support inbox" actions={filter}>
      <ListState
        query={tickets}
        loadingLabel="Loading tickets…"
        errorText={loadErrorText(tickets.error)}
        empty={{ icon: <Inbox className="size-7" />, title: 'No tickets with this status.' }}
      >
        {(rows) => (
          <Table
            caption="Tickets, the longest without activity first"
            columns={['Idle for', 'Title', 'From', 'Status', 'Opened', 'Last activity']}
            rows={rows.map((ticket) => ({
              key: ticket.id,
              cells: [
                <span key="age" className="font-medium">
                  {formatAge(ticket.updated_at)}
                </span>,
                <Link key="open" to={`/tickets/${ticket.id}`} className="font-medium text-primary-800 underline">
                  {ticket.title}
                </Link>,
                ticket.phone ?? `${ticket.contact?.name ?? ''} (contact page)`,
                <TicketStatusBadge key="status" status={ticket.status} />,
                formatTime(ticket.created_at),
                formatTime(ticket.updated_at),
              ],
            }))}
          />
        )}
      </ListState>
    </Page>
  );
}
