import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { opsUserDetail, opsUserSchema, reasonBody, type OpsUser, type OpsUserDetail } from '@tipcard/shared/ops/schemas';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { showServerErrors } from '../forms.ts';
import { formatCents, formatTime, opsGet, opsPost, session } from '../ops-api.ts';
import { paymentReference } from '@tipcard/shared/payments/guest-form';
import { Badge, BESIDE_FIELDS, ErrorNote, IdLink, Page, RecordState, Table, TitledPanel } from '../ui.tsx';
import { TicketStatusBadge } from './ticket-status.tsx';

type Reason = z.output<typeof reasonBody>;

/** Block or unblock, with the reason the audit log keeps. */
function BlockForm({ user }: { user: OpsUser }) {
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof reasonBody>, unknown, Reason>({
    resolver: zodResolver(reasonBody),
    defaultValues: { reason: '' },
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = form;
  const block = useMutation({
    mutationFn: (body: Reason) => opsPost(opsUserSchema, `/users/${user.id}/${user.blocked ? 'unblock' : 'block'}`, body),
    onSuccess: () => {
      reset();
      void queryClient.invalidateQueries({ queryKey: ['ops', 'user', user.id] });
    },
    onError: (error) => showServerErrors(error, form),
  });
  return (
    <TitledPanel title={user.blocked ? 'Unblock this user' : 'Block this user'}>
      <form onSubmit={handleSubmit((body) => block.mutate(body))} className="flex max-w-2xl items-start gap-3" noValidate>
        <TextField
          label="Reason (kept in the audit log)"
          className="flex-1"
          maxLength={500}
          error={errors.reason?.message}
          {...register('reason')}
        />
        <Button
          type="submit"
          className={BESIDE_FIELDS.md}
          variant={user.blocked ? 'secondary' : 'danger'}
          loading={block.isPending}
        >
          {user.blocked ? 'Unblock' : 'Block'}
        </Button>
      </form>
      <div className="mt-3 empty:hidden">
        <ErrorNote error={errors.root?.server?.message} />
      </div>
    </TitledPanel>
  );
}

export default function UserPage() {
  const id = useParams().id ?? '';
  const detail = useQuery({ queryKey: ['ops', 'user', id], queryFn: () => opsGet(opsUserDetail, `/users/${id}`) });
  return (
    <RecordState query={detail} loadingLabel="Loading the user…">
      {(data) => <UserDetail detail={data} />}
    </RecordState>
  );
}

function UserDetail({ detail }: { detail: OpsUserDetail }) {
  const role = session.operator()?.role;
  const mayBlock = role === 'compliance' || role === 'admin';
  const maySupport = role === 'support' || role === 'admin';
  const { user, cards, balances, history, payouts, verification, team, invoices, donations, tickets } = detail;
  return (
    <Page
      title={user.phone}
      actions={user.blocked ? <Badge tone="red">Blocked: {user.blocked_reason}</Badge> : <Badge tone="green">Active</Badge>}
    >
      <div className="grid gap-4 lg:grid-cols-3">
        <TitledPanel title="Profile">
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
        </TitledPanel>
        <TitledPanel title="Balances">
          <dl className="grid grid-cols-2 gap-1 text-sm">
            <dt className="text-slate-500">Main</dt>
            <dd data-testid="balance-main">{formatCents(balances.main_cents)}</dd>
            <dt className="text-slate-500">On hold</dt>
            <dd>{formatCents(balances.hold_cents)}</dd>
            <dt className="text-slate-500">Debt</dt>
            <dd>{formatCents(balances.debt_cents)}</dd>
          </dl>
        </TitledPanel>
        <TitledPanel title="Cards">
          {cards.length === 0 ? (
            <p className="text-sm text-slate-600">No cards.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {cards.map((card) => (
                <li key={card.id}>
                  {card.public_name} · {card.title}{' '}
                  <span className="block">
                    <IdLink to={`/search?q=${card.id}`}>{card.id}</IdLink>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </TitledPanel>
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <TitledPanel title="Team">
          {team ? (
            <dl className="space-y-1 text-sm">
              <dt className="text-slate-500">Team</dt>
              <dd className="font-medium">
                {team.title} {team.admin && <Badge tone="blue">admin</Badge>}
              </dd>
              <dt className="text-slate-500">Workplace</dt>
              <dd>
                <Link to={`/venues/${team.workplace_id}`} className="font-medium text-primary-800 underline">
                  {team.workplace}
                </Link>
              </dd>
              <dt className="text-slate-500">Members</dt>
              <dd>{team.members}</dd>
              <dt className="text-slate-500">Joined</dt>
              <dd>{formatTime(team.joined_at)}</dd>
            </dl>
          ) : (
            <p className="text-sm text-slate-600">In no team.</p>
          )}
        </TitledPanel>
        <TitledPanel title="Tickets" className="lg:col-span-2">
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
        </TitledPanel>
      </div>
      {mayBlock && <BlockForm user={user} />}
      <TitledPanel title="History (latest 50)">
        {history.length === 0 ? (
          <p className="text-sm text-slate-600">No transactions yet.</p>
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
                row.payment_id ? (
                  <IdLink key="payment" to={`/payments/${row.payment_id}`}>
                    {paymentReference(row.payment_id)}
                  </IdLink>
                ) : (
                  '—'
                ),
              ],
            }))}
          />
        )}
      </TitledPanel>
      <div className="grid gap-4 xl:grid-cols-2">
        <TitledPanel title="Invoices">
          {invoices.length === 0 ? (
            <p className="text-sm text-slate-600">No invoices.</p>
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
        </TitledPanel>
        <TitledPanel title="Donations received">
          {donations.length === 0 ? (
            <p className="text-sm text-slate-600">No donations.</p>
          ) : (
            <Table
              caption="Donations received, newest first"
              columns={['When', 'Donor', 'Amount', 'Status', 'Payment']}
              rows={donations.map((donation) => ({
                key: donation.id,
                cells: [
                  formatTime(donation.created_at),
                  donation.donor_name,
                  formatCents(donation.amount_cents),
                  donation.status,
                  <IdLink key="payment" to={`/payments/${donation.id}`}>
                    {paymentReference(donation.id)}
                  </IdLink>,
                ],
              }))}
            />
          )}
        </TitledPanel>
      </div>
      <TitledPanel title="Payouts">
        {payouts.length === 0 ? (
          <p className="text-sm text-slate-600">No payouts.</p>
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
      </TitledPanel>
    </Page>
  );
}
