import { useQuery } from '@tanstack/react-query';
import { opsBatchSchema, opsPayoutSchema, type OpsBatch, type OpsPayout } from '@tipcard/shared/ops/schemas';
import { useParams } from 'react-router';
import { z } from 'zod';
import { BankReportImport } from '../bank-report-import.tsx';
import { formatCents, formatTime, opsGet } from '../ops-api.ts';
import { BatchActions, batchStatusBadge, PAYOUT_STATUS_LABELS, PayoutsTable } from '../payout-controls.tsx';
import { Page, RecordState, TitledPanel } from '../ui.tsx';

const batchDetailSchema = opsBatchSchema.extend({ payouts: z.array(opsPayoutSchema) });

/** One bank file: what it holds, where it stands, and each of its payouts with the bank's answer to mark on its row. */
export default function PayoutBatchPage() {
  const id = useParams().id ?? '';
  const detail = useQuery({
    queryKey: ['ops', 'payouts', 'batch', id],
    queryFn: () => opsGet(batchDetailSchema, `/payout-batches/${id}`),
  });
  return (
    <RecordState query={detail} loadingLabel="Loading the bank file…">
      {(batch) => <BatchFile batch={batch} payouts={batch.payouts} />}
    </RecordState>
  );
}

/** How many of the file's payouts are in each state, in the order finance works through them. */
function tally(payouts: readonly OpsPayout[]): string {
  const counts = new Map<OpsPayout['status'], number>();
  for (const payout of payouts) counts.set(payout.status, (counts.get(payout.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${PAYOUT_STATUS_LABELS[status]}: ${count}`).join(' · ');
}

function BatchFile({ batch, payouts }: { batch: OpsBatch; payouts: readonly OpsPayout[] }) {
  return (
    <Page title={`Bank file ${batch.file_name}`} actions={batchStatusBadge(batch)}>
      <TitledPanel title="File">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
          <dt className="text-slate-500">Kind</dt>
          <dd>{batch.kind === 'sepa' ? 'SEPA (pain.001)' : 'UK (CSV)'}</dd>
          <dt className="text-slate-500">Message id</dt>
          <dd>
            <code className="text-xs break-all">{batch.message_id}</code>
          </dd>
          <dt className="text-slate-500">Created</dt>
          <dd>{formatTime(batch.created_at)}</dd>
          <dt className="text-slate-500">Sent to the bank</dt>
          <dd>{batch.sent_at ? formatTime(batch.sent_at) : 'not yet'}</dd>
          <dt className="text-slate-500">Payouts</dt>
          <dd>{batch.payout_count}</dd>
          <dt className="text-slate-500">Total</dt>
          <dd>{formatCents(batch.total_cents)}</dd>
          <dt className="text-slate-500">Where they stand</dt>
          <dd className="col-span-3">{tally(payouts) || '—'}</dd>
        </dl>
        <div className="mt-4">
          <BatchActions batch={batch} />
        </div>
      </TitledPanel>
      {batch.kind === 'sepa' && batch.status === 'sent' && (
        <TitledPanel title="Import the bank’s status report">
          <BankReportImport batch={batch} />
        </TitledPanel>
      )}
      <TitledPanel title="Payouts in this file">
        <PayoutsTable payouts={payouts} showFile={false} />
      </TitledPanel>
    </Page>
  );
}
