import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { opsUserDetail, opsUserSchema } from '@tipcard/shared/ops/schemas';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button-base.tsx';
import { formatCents, formatTime, opsGet, opsPost, session } from '../ops-api.ts';
import { Badge, Card, Empty, ErrorNote, Loading, Page, Table, TextField } from '../ui.tsx';
import { TicketStatusBadge } from './ticket-status.tsx';

export default function UserPage() {
  const id = useParams().id ?? '';
  const queryClient = useQueryClient();
  const detail = useQuery({ queryKey: ['ops', 'user', id], queryFn: () => opsGet(opsUserDetail, `/users/${id}`) });
  const role = session.operator()?.role;
  const mayBlock = role === 'compliance' || role === 'admin';
  const [reason, setReason] = useState('');
  const block = useMutation({
    mutationFn: (action: 'block' | 'unblock') => opsPost(opsUserSchema, `/users/${id}/${action}`, { reason }),
    onSuccess: () => {
      setReason('');
      void queryClient.invalidateQueries({ queryKey: ['ops', 'user', id] });
    },
  });
  if (detail.isPending) return <Loading />;
  if (detail.error) return <ErrorNote error={detail.error} />;
  const { user, cards, balances, history, payouts, verification, team, invoices, donations, tickets } = detail.data;
  const maySupport = role === 'support' || role === 'admin';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    block.mutate(user.blocked ? 'unblock' : 'block');
  };
  return (
    <Page
      title={user.phone}
      actions={user.blocked ? <Badge tone="red">Blocked: {user.blocked_reason}</Badge> : <Badge tone="green">Active</Badge>}
    >
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Profile">
          <dl className="space-y-1 text-sm">
            <dt className="text-slate-500">User id</dt>
            <dd>
              <code className="text-xs">{user.id}</code>
            </dd>
            <dt className="text-slate-500">Since</dt>
            <dd>{formatTime(user.created_at)}</dd>
            <dt className="text-slate-500">Verification</dt>
            <dd>{verification ? `${verification.status} (${verification.kind})` : 'not started'}</dd>
          </dl>
        </Card>
        <Card title="Balances">
          <dl className="grid grid-cols-2 gap-1 text-sm">
            <dt className="text-slate-500">Main</dt>
            <dd data-testid="balance-main">{formatCents(balances.main_cents)}</dd>
            <dt className="text-slate-500">On hold</dt>
            <dd>{formatCents(balances.hold_cents)}</dd>
            <dt className="text-slate-500">Debt</dt>
            <dd>{formatCents(balances.debt_cents)}</dd>
          </dl>
        </Card>
        <Card title="Cards">
          {cards.length === 0 ? (
            <p className="text-sm text-slate-600">No cards.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {cards.map((card) => (
                <li key={card.id}>
                  {card.public_name} · {card.title} <code className="block text-xs text-slate-500">{card.id}</code>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Team">
          {team ? (
            <dl className="space-y-1 text-sm">
              <dt className="text-slate-500">Team</dt>
              <dd className="font-medium">
                {team.title} {team.admin && <Badge tone="blue">admin</Badge>}
              </dd>
              <dt className="text-slate-500">Workplace</dt>
              <dd>{team.workplace}</dd>
              <dt className="text-slate-500">Members</dt>
              <dd>{team.members}</dd>
              <dt className="text-slate-500">Joined</dt>
              <dd>{formatTime(team.joined_at)}</dd>
            </dl>
          ) : (
            <p className="text-sm text-slate-600">In no team.</p>
          )}
        </Card>
        <Card title="Tickets" className="lg:col-span-2">
          {tickets.length === 0 ? (
            <p className="text-sm text-slate-600">No tickets.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm">
              {tickets.map((ticket) => (
                <li key={ticket.id} className="flex items-center justify-between gap-3 py-1.5">
                  {maySupport ? (
                    <Link to={`/tickets/${ticket.id}`} className="font-medium text-primary-800 underline">
                      {ticket.title}
                    </Link>
                  ) : (
                    <span className="font-medium">{ticket.title}</span>
                  )}
                  <span className="flex shrink-0 items-center gap-2 text-slate-600">
                    {formatTime(ticket.updated_at)} <TicketStatusBadge status={ticket.status} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
      {mayBlock && (
        <Card title={user.blocked ? 'Unblock this user' : 'Block this user'}>
          <form onSubmit={submit} className="flex max-w-2xl items-end gap-3">
            <div className="flex-1">
              <TextField
                label="Reason (kept in the audit log)"
                name="reason"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                required
                maxLength={500}
              />
            </div>
            <Button
              type="submit"
              variant={user.blocked ? 'secondary' : 'danger'}
              loading={block.isPending}
              disabled={reason.trim() === ''}
            >
              {user.blocked ? 'Unblock' : 'Block'}
            </Button>
          </form>
          <div className="mt-3">
            <ErrorNote error={block.error} />
          </div>
        </Card>
      )}
      <Card title="History (latest 50)">
        {history.length === 0 ? (
          <Empty>No transactions yet.</Empty>
        ) : (
          <Table
            caption="Transactions"
            columns={['When', 'Type', 'Status', 'Amount', 'Fee', 'Payment']}
            rows={history.map((row) => ({
              key: row.id,
              cells: [
                formatTime(row.created_at),
                row.type,
                row.status,
                formatCents(row.amount_cents),
                formatCents(row.fee_cents),
                row.payment_id ? <code className="text-xs">{row.payment_id}</code> : '—',
              ],
            }))}
          />
        )}
      </Card>
      <div className="grid gap-4 xl:grid-cols-2">
        <Card title="Invoices">
          {invoices.length === 0 ? (
            <Empty>No invoices.</Empty>
          ) : (
            <Table
              caption="Invoices, newest first"
              columns={['Created', 'Description', 'Amount', 'Status']}
              rows={invoices.map((invoice) => ({
                key: invoice.id,
                cells: [formatTime(invoice.created_at), invoice.description, formatCents(invoice.amount_cents), invoice.status],
              }))}
            />
          )}
        </Card>
        <Card title="Donations received">
          {donations.length === 0 ? (
            <Empty>No donations.</Empty>
          ) : (
            <Table
              caption="Donations received, newest first"
              columns={['When', 'Donor', 'Amount', 'Status']}
              rows={donations.map((donation) => ({
                key: donation.id,
                cells: [
                  formatTime(donation.created_at),
                  donation.donor_name,
                  formatCents(donation.amount_cents),
                  donation.status,
                ],
              }))}
            />
          )}
        </Card>
      </div>
      <Card title="Payouts">
        {payouts.length === 0 ? (
          <Empty>No payouts.</Empty>
        ) : (
          <Table
            caption="Payouts"
            columns={['Requested', 'Amount', 'Fee', 'Status', 'Destination', 'Return reason']}
            rows={payouts.map((payout) => ({
              key: payout.id,
              cells: [
                formatTime(payout.created_at),
                formatCents(payout.amount_cents),
                formatCents(payout.fee_cents),
                payout.status,
                payout.destination,
                payout.return_reason ?? '—',
              ],
            }))}
          />
        )}
      </Card>
    </Page>
  );
}
