import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createBatchAnswer, opsBatchSchema, opsPayoutSchema } from '@tipcard/shared/ops/schemas';
import { Banknote, FileText } from 'lucide-react';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { formatCents, formatTime, opsGet, opsPost } from '../ops-api.ts';
import { BatchActions, batchStatusBadge, PAYOUT_STATUS_LABELS, PAYOUT_STATUSES, PayoutsTable } from '../payout-controls.tsx';
import { ErrorNote, loadErrorText, Page, Table, TitledPanel, useStatusFilter } from '../ui.tsx';

function CreateBatchResult({ answer }: { answer: z.output<typeof createBatchAnswer> }) {
  if (answer.invariant_problems.length > 0)
    return (
      <div role="alert" className="text-sm text-red-800">
        <p className="font-semibold">The invariant check failed: no batch was made.</p>
        <ul className="mt-2 list-disc pl-5">
          {answer.invariant_problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </div>
    );
  return (
    <p className="text-sm text-green-800" role="status">
      The books balance.{' '}
      {answer.batch
        ? `Batch ${answer.batch.file_name} created with ${answer.batch.payout_count} payouts (${formatCents(answer.batch.total_cents)}).`
        : 'No confirmed payout was waiting: no file made.'}
    </p>
  );
}

export default function PayoutsPage() {
  const queryClient = useQueryClient();
  const { status, filter } = useStatusFilter(PAYOUT_STATUSES, 'in_flight', (value) => PAYOUT_STATUS_LABELS[value]);
  const payouts = useQuery({
    queryKey: ['ops', 'payouts', status ?? 'all'],
    queryFn: () => opsGet(z.array(opsPayoutSchema), '/payouts', { status }),
  });
  const batches = useQuery({
    queryKey: ['ops', 'payouts', 'batches'],
    queryFn: () => opsGet(z.array(opsBatchSchema), '/payout-batches'),
  });
  const create = useMutation({
    mutationFn: (kind: 'sepa' | 'uk') => opsPost(createBatchAnswer, '/payout-batches', { kind }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['ops', 'payouts'] }),
  });

  return (
    <Page
      title="Payouts"
      actions={
        <>
          <Button onClick={() => create.mutate('sepa')} loading={create.isPending && create.variables === 'sepa'}>
            Create SEPA batch
          </Button>
          <Button variant="secondary" onClick={() => create.mutate('uk')} loading={create.isPending && create.variables === 'uk'}>
            Create UK batch
          </Button>
        </>
      }
    >
      <ErrorNote error={create.error} />
      {create.data && (
        <TitledPanel title="New bank file">
          <CreateBatchResult answer={create.data} />
        </TitledPanel>
      )}
      <TitledPanel title="Bank files">
        <ListState
          query={batches}
          loadingLabel="Loading bank files…"
          errorText={loadErrorText(batches.error)}
          empty={{ icon: <FileText className="size-7" />, title: 'No bank file yet.' }}
        >
          {(rows) => (
            <Table
              caption="Bank files"
              columns={['Created', 'File', 'Payouts', 'Total', 'Status', '']}
              rows={rows.map((batch) => ({
                key: batch.id,
                cells: [
                  formatTime(batch.created_at),
                  <Link key="file" to={`/payouts/batches/${batch.id}`} className="text-blue-700 underline">
                    {batch.file_name}
                  </Link>,
                  batch.payout_count,
                  formatCents(batch.total_cents),
                  batchStatusBadge(batch),
                  <BatchActions key="actions" batch={batch} />,
                ],
              }))}
            />
          )}
        </ListState>
      </TitledPanel>
      <TitledPanel title="Payouts by status">
        <div className="mb-4">{filter}</div>
        <ListState
          query={payouts}
          loadingLabel="Loading payouts…"
          errorText={loadErrorText(payouts.error)}
          empty={{ icon: <Banknote className="size-7" />, title: 'No payout in this status.' }}
        >
          {(rows) => <PayoutsTable payouts={rows} showFile />}
        </ListState>
      </TitledPanel>
    </Page>
  );
}
