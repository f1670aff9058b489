import { useQuery } from '@tanstack/react-query';
import { opsTicketRow } from '@tipcard/shared/ops/schemas';
import { TICKET_STATUSES, type TicketStatus } from '@tipcard/shared/support/schemas';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { formatTime, opsCall } from '../ops-api.ts';
import { Empty, ErrorNote, Loading, Page, SelectField, Table } from '../ui.tsx';
import { formatAge, TicketStatusBadge } from './ticket-status.tsx';

const LABELS: Record<TicketStatus, string> = { open: 'Open', waiting_for_user: 'Waiting for the user', closed: 'Closed' };

/** The support inbox: tickets of one status, the longest without activity first. */
export default function TicketsPage() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status = raw === 'all' ? undefined : ((TICKET_STATUSES as readonly string[]).includes(raw ?? '') ? (raw as TicketStatus) : 'open');
  const tickets = useQuery({
    queryKey: ['ops', 'tickets', status ?? 'all'],
    queryFn: () => opsCall(z.array(opsTicketRow), 'GET', `/tickets${status ? `?status=${status}` : ''}`),
  });
  return (
    <Page
      title="Support inbox"
      actions={
        <div className="w-56">
          <SelectField
            label="Status"
            name="status"
            value={status ?? 'all'}
            onChange={(event) => setParams({ status: event.target.value }, { replace: true })}
          >
            {TICKET_STATUSES.map((value) => (
              <option key={value} value={value}>
                {LABELS[value]}
              </option>
            ))}
            <option value="all">All</option>
          </SelectField>
        </div>
      }
    >
      {tickets.isPending && <Loading />}
      <ErrorNote error={tickets.error} />
      {tickets.data && tickets.data.length === 0 && <Empty>No tickets with this status.</Empty>}
      {tickets.data && tickets.data.length > 0 && (
        <Table
          caption="Tickets, the longest without activity first"
          columns={['Idle for', 'Title', 'User', 'Status', 'Opened', 'Last activity']}
          rows={tickets.data.map((ticket) => ({
            key: ticket.id,
            cells: [
              <span key="age" className="font-medium">
                {formatAge(ticket.updated_at)}
              </span>,
              <Link key="open" to={`/tickets/${ticket.id}`} className="font-medium text-primary-800 underline">
                {ticket.title}
              </Link>,
              ticket.phone,
              <TicketStatusBadge key="status" status={ticket.status} />,
              formatTime(ticket.created_at),
              formatTime(ticket.updated_at),
            ],
          }))}
        />
      )}
    </Page>
  );
}
