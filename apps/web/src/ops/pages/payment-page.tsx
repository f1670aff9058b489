import { useQuery } from '@tanstack/react-query';
import { opsPaymentSchema, type OpsPayment } from '@tipcard/shared/ops/schemas';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { formatCents, formatTime, opsGet, session } from '../ops-api.ts';
import { RefundForm } from '../refund-form.tsx';
import { Badge, IdLink, Page, RecordState, Table, TitledPanel } from '../ui.tsx';

const REFUND_TONES = {
  pending: 'amber',
  refunding: 'blue',
  refunded: 'green',
  approved: 'green',
  failed: 'red',
  rejected: 'slate',
} as const;

/** A list's panel that says so when it has nothing, rather than an empty table. */
function Section({ title, empty, children }: { title: string; empty: string | null; children: ReactNode }) {
  return <TitledPanel title={title}>{empty === null ? children : <p className="text-sm text-slate-600">{empty}</p>}</TitledPanel>;
}

export default function PaymentPage() {
  const id = useParams().id ?? '';
  const detail = useQuery({ queryKey: ['ops', 'payment', id], queryFn: () => opsGet(opsPaymentSchema, `/payments/${id}`) });
  return (
    <RecordState query={detail} loadingLabel="Loading the payment…">
      {(payment) => <PaymentStory payment={payment} />}
    </RecordState>
  );
}

function PaymentStory({ payment }: { payment: OpsPayment }) {
  const role = session.operator()?.role;
  const mayRefund = role === 'finance' || role === 'admin';
  const disputes = payment.events.filter((event) => event.type.includes('dispute'));
  return (
    <Page title={`Payment ${payment.reference}`} actions={<Badge tone="blue">{payment.status}</Badge>}>
      <div className="grid gap-4 lg:grid-cols-3">
        <TitledPanel title="Paid" className="lg:col-span-2">
          <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
            <dt className="text-slate-500">Amount</dt>
            <dd>{formatCents(payment.amount_cents)}</dd>
            <dt className="text-slate-500">Fee</dt>
            <dd>
              {formatCents(payment.fee_cents)} {payment.cover_fee ? '(covered by the payer)' : ''}
            </dd>
            <dt className="text-slate-500">Total charged</dt>
            <dd>{formatCents(payment.total_cents)}</dd>
            <dt className="text-slate-500">Purpose</dt>
            <dd>{payment.purpose}</dd>
            <dt className="text-slate-500">Refunded</dt>
            <dd>{formatCents(payment.refunded_cents)}</dd>
            <dt className="text-slate-500">Disputed</dt>
            <dd>{formatCents(payment.disputed_cents)}</dd>
            <dt className="text-slate-500">When</dt>
            <dd>{formatTime(payment.created_at)}</dd>
            <dt className="text-slate-500">Provider</dt>
            <dd>
              {payment.provider} <code className="text-xs">{payment.provider_ref ?? '—'}</code>
            </dd>
          </dl>
          <p className="mt-3 text-sm text-slate-700">{payment.description}</p>
          <p className="mt-1 text-xs text-slate-500">
            Payment id <code>{payment.id}</code>
          </p>
        </TitledPanel>
        <TitledPanel title="For">
          {payment.card ? (
            <p className="text-sm">
              Card of <strong>{payment.card.public_name}</strong>:{' '}
              <Link to={`/users/${payment.card.user_id}`} className="font-medium text-primary-800 underline">
                its owner
              </Link>
              <code className="mt-1 block text-xs text-slate-500">{payment.card.id}</code>
            </p>
          ) : (
            <p className="text-sm">
              {payment.purpose} <code className="block text-xs text-slate-500">{payment.subject_id}</code>
            </p>
          )}
        </TitledPanel>
      </div>
      <Section title="Shares" empty={payment.shares.length === 0 ? 'No shares: the payment has not succeeded.' : null}>
        <Table
          caption="Who received what"
          columns={['Recipient', 'Net', 'Fee', 'Taken back', 'Released']}
          rows={payment.shares.map((share, index) => ({
            key: `${index}`,
            cells: [
              share.user_id ? (
                <IdLink key="user" to={`/users/${share.user_id}`}>
                  {share.user_id}
                </IdLink>
              ) : (
                (share.platform_account ?? 'platform')
              ),
              formatCents(share.net_cents),
              formatCents(share.fee_cents),
              formatCents(share.reversed_net_cents + share.reversed_fee_cents),
              formatTime(share.released_at),
            ],
          }))}
        />
      </Section>
      <TitledPanel title="Refunds">
        {payment.refunds.length === 0 ? (
          <p className="text-sm text-slate-600">No refund was asked for.</p>
        ) : (
          <Table
            caption="Refunds asked for and made"
            columns={['Asked', 'Amount', 'Reason', 'Asked by', 'Decided by', 'Status']}
            rows={payment.refunds.map((refund) => ({
              key: refund.id,
              cells: [
                formatTime(refund.created_at),
                formatCents(refund.amount_cents),
                refund.reason,
                refund.requested_by,
                refund.decided_by ? `${refund.decided_by}, ${formatTime(refund.decided_at)}` : '—',
                <span key="status">
                  <Badge tone={REFUND_TONES[refund.status]}>{refund.status}</Badge>
                  {refund.decline_reason && <span className="block text-xs text-slate-600">{refund.decline_reason}</span>}
                  {refund.failure && <span className="block text-xs text-red-800">{refund.failure}</span>}
                </span>,
              ],
            }))}
          />
        )}
        {mayRefund && (
          <div className="mt-4 border-t border-slate-100 pt-4">
            {payment.refundable_cents > 0 ? (
              <RefundForm key={payment.id} payment={payment} />
            ) : (
              <p className="text-sm text-slate-600">Nothing of this payment can be refunded.</p>
            )}
          </div>
        )}
      </TitledPanel>
      <Section title="Disputes" empty={disputes.length === 0 && payment.disputed_cents === 0 ? 'No dispute.' : null}>
        <p className="mb-2 text-sm">Held by open disputes: {formatCents(payment.disputed_cents)}</p>
        <ul className="text-sm">
          {disputes.map((event) => (
            <li key={event.event_id}>
              {formatTime(event.received_at)} · {event.type}
            </li>
          ))}
        </ul>
      </Section>
      <div className="grid gap-4 xl:grid-cols-2">
        <Section title="Provider events" empty={payment.events.length === 0 ? 'The provider has told us nothing yet.' : null}>
          <Table
            caption="What the provider told us"
            columns={['Received', 'Event', 'Outcome']}
            rows={payment.events.map((event) => ({
              key: event.event_id,
              cells: [formatTime(event.received_at), event.type, event.outcome],
            }))}
          />
        </Section>
        <Section title="Messages" empty={payment.messages.length === 0 ? 'No message names this payment.' : null}>
          <Table
            caption="Messages sent about it"
            columns={['Queued', 'To', 'Subject', 'Status']}
            rows={payment.messages.map((message) => ({
              key: message.id,
              cells: [
                formatTime(message.created_at),
                `${message.channel}: ${message.recipient}`,
                message.subject ?? '—',
                message.status,
              ],
            }))}
          />
        </Section>
      </div>
      <Section title="Audit" empty={payment.audit.length === 0 ? 'No operator has acted on this payment.' : null}>
        <Table
          caption="Operators' actions on this payment"
          columns={['When', 'Who', 'Action', 'Details']}
          rows={payment.audit.map((record) => ({
            key: record.id,
            cells: [
              formatTime(record.created_at),
              record.actor,
              <code key="action">{record.action}</code>,
              <code key="after" className="block max-w-md break-all text-xs">
                {JSON.stringify(record.after)}
              </code>,
            ],
          }))}
        />
      </Section>
    </Page>
  );
}
