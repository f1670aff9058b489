import { useQuery } from '@tanstack/react-query';
import { ledgerHealthSchema } from '@tipcard/shared/ops/schemas';
import { Button } from '../../components/ui/button-base.tsx';
import { formatCents, formatTime, opsGet } from '../ops-api.ts';
import { IdLink, Page, RecordState, Table, TitledPanel } from '../ui.tsx';

/** A day's count: red when something is wrong; "no data" for a day without snapshots (none taken, not zero). */
function Count({ value }: { value: number | null }) {
  if (value === null) return <span className="text-slate-500">no data</span>;
  return <span className={value > 0 ? 'font-semibold text-red-800' : 'text-slate-800'}>{value}</span>;
}

export default function LedgerPage() {
  const health = useQuery({
    queryKey: ['ops', 'ledger-health'],
    queryFn: () => opsGet(ledgerHealthSchema, '/ledger-health'),
  });
  return (
    <Page
      title="Ledger health"
      actions={
        <Button variant="secondary" onClick={() => void health.refetch()} loading={health.isFetching}>
          Check again
        </Button>
      }
    >
      <RecordState query={health} loadingLabel="Loading the ledger’s health…">
        {(data) => (
          <>
            <TitledPanel title={`Invariant check (${formatTime(data.checked_at)})`}>
              {data.invariant_problems.length === 0 ? (
                <p className="text-sm font-medium text-green-800">
                  Every invariant holds: entries balance, kept balances match their postings, no user account below zero.
                </p>
              ) : (
                <ul role="alert" className="list-disc pl-5 text-sm text-red-800">
                  {data.invariant_problems.map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
              )}
            </TitledPanel>
            <div className="grid gap-4 lg:grid-cols-2">
              <TitledPanel title="Platform accounts">
                <dl className="grid grid-cols-2 gap-1 text-sm">
                  {Object.entries(data.platform_balances).map(([kind, cents]) => (
                    <div key={kind} className="contents">
                      <dt className="text-slate-600">{kind.replaceAll('_', ' ')}</dt>
                      <dd className="text-right font-mono">{formatCents(cents)}</dd>
                    </div>
                  ))}
                </dl>
              </TitledPanel>
              <TitledPanel title="Messages">
                <dl className="grid grid-cols-2 gap-1 text-sm">
                  {Object.entries(data.messages).map(([state, count]) => (
                    <div key={state} className="contents">
                      <dt className="text-slate-600">{state}</dt>
                      <dd className={state === 'dead' && count > 0 ? 'text-right font-semibold text-red-800' : 'text-right'}>
                        {count}
                      </dd>
                    </div>
                  ))}
                </dl>
              </TitledPanel>
            </div>
            <TitledPanel title="The last 14 days (worst hourly snapshot of each day)">
              <Table
                caption="Ledger health per day, oldest first"
                columns={['Day (UTC)', 'Snapshots', 'Invariant problems', 'Pending past reconciliation', 'Dead messages']}
                rows={data.history.map((day) => ({
                  key: day.day,
                  cells: [
                    day.day,
                    day.snapshots,
                    <Count key="invariants" value={day.invariant_problems} />,
                    <Count key="pending" value={day.pending_payments} />,
                    <Count key="dead" value={day.dead_messages} />,
                  ],
                }))}
              />
            </TitledPanel>
            <TitledPanel title="Payments pending past reconciliation">
              {data.pending_payments.length === 0 ? (
                <p className="text-sm text-slate-600">None: every payment older than the reconciliation delay has an answer.</p>
              ) : (
                <Table
                  caption="Pending payments"
                  columns={['Opened', 'Payment', 'Purpose', 'Amount']}
                  rows={data.pending_payments.map((payment) => ({
                    key: payment.id,
                    cells: [
                      formatTime(payment.created_at),
                      <IdLink key="id" to={`/payments/${payment.id}`}>
                        {payment.id}
                      </IdLink>,
                      payment.purpose,
                      formatCents(payment.total_cents),
                    ],
                  }))}
                />
              )}
            </TitledPanel>
          </>
        )}
      </RecordState>
    </Page>
  );
}
