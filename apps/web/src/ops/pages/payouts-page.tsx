import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createBatchAnswer,
  opsBatchSchema,
  opsPayoutSchema,
  RETURN_REASONS,
  returnReasonCodes,
} from '@tipcard/shared/ops/schemas';
import { useState } from 'react';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { saveBlob } from '../../lib/download-file.ts';
import { formatCents, formatTime, opsBlob, opsGet, opsPost } from '../ops-api.ts';
import { Badge, Card, Empty, ErrorNote, Loading, Page, SelectField, Table } from '../ui.tsx';

type Status = z.infer<typeof opsPayoutSchema>['status'];
const STATUSES: Status[] = ['in_flight', 'awaiting_confirmation', 'paid', 'returned', 'expired'];

function OutcomeControls({ payoutId }: { payoutId: string }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState<(typeof returnReasonCodes)[number]>('AC04');
  const mark = useMutation({
    mutationFn: (body: object) => opsPost(z.object({ status: z.string() }), `/payouts/${payoutId}/outcome`, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['ops', 'payouts'] }),
  });
  return (
    <div className="flex flex-wrap items-end gap-2">
      <Button size="sm" variant="secondary" onClick={() => mark.mutate({ outcome: 'paid' })} loading={mark.isPending}>
        Mark paid
      </Button>
      <SelectField label="Return reason" value={reason} onChange={(event) => setReason(event.target.value as typeof reason)}>
        {returnReasonCodes.map((code) => (
          <option key={code} value={code}>
            {code} {RETURN_REASONS[code]}
          </option>
        ))}
      </SelectField>
      <Button
        size="sm"
        variant="danger"
        onClick={() => mark.mutate({ outcome: 'returned', reason_code: reason })}
        loading={mark.isPending}
      >
        Mark returned
      </Button>
      <ErrorNote error={mark.error} />
    </div>
  );
}

export default function PayoutsPage() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>('in_flight');
  const payouts = useQuery({
    queryKey: ['ops', 'payouts', status],
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
  const sent = useMutation({
    mutationFn: (id: string) => opsPost(opsBatchSchema, `/payout-batches/${id}/sent`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['ops', 'payouts'] }),
  });
  const download = async (id: string, fileName: string) => saveBlob(await opsBlob(`/payout-batches/${id}/file`), fileName);

  return (
    <Page
      title="Payouts"
      actions={
        <div className="flex gap-2">
          <Button onClick={() => create.mutate('sepa')} loading={create.isPending && create.variables === 'sepa'}>
            Create SEPA batch
          </Button>
          <Button variant="secondary" onClick={() => create.mutate('uk')} loading={create.isPending && create.variables === 'uk'}>
            Create UK batch
          </Button>
        </div>
      }
    >
      <ErrorNote error={create.error} />
      {create.data && (
        <Card title="Ledger invariant check">
          {create.data.invariant_problems.length === 0 ? (
            <p className="text-sm text-green-800" role="status">
              The books balance.{' '}
              {create.data.batch
                ? `Batch ${create.data.batch.file_name} created with ${create.data.batch.payout_count} payouts (${formatCents(create.data.batch.total_cents)}).`
                : 'No confirmed payout was waiting: no file made.'}
            </p>
          ) : (
            <div role="alert" className="text-sm text-red-800">
              <p className="font-semibold">The invariant check failed: no batch was made.</p>
              <ul className="mt-2 list-disc pl-5">
                {create.data.invariant_problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            </div>
          )}
        </Card>
      )}
      <Card title="Bank files">
        {batches.isPending && <Loading />}
        <ErrorNote error={batches.error ?? sent.error} />
        {batches.data && batches.data.length === 0 && <Empty>No bank file yet.</Empty>}
        {batches.data && batches.data.length > 0 && (
          <Table
            caption="Bank files"
            columns={['Created', 'File', 'Payouts', 'Total', 'Status', '']}
            rows={batches.data.map((batch) => ({
              key: batch.id,
              cells: [
                formatTime(batch.created_at),
                batch.file_name,
                batch.payout_count,
                formatCents(batch.total_cents),
                batch.status === 'sent' ? <Badge tone="blue">sent</Badge> : <Badge tone="amber">created</Badge>,
                <div key="actions" className="flex gap-2">
                  <Button size="sm" variant="secondary" onClick={() => void download(batch.id, batch.file_name)}>
                    Download
                  </Button>
                  {batch.status === 'created' && (
                    <Button
                      size="sm"
                      onClick={() => sent.mutate(batch.id)}
                      loading={sent.isPending && sent.variables === batch.id}
                    >
                      Mark sent
                    </Button>
                  )}
                </div>,
              ],
            }))}
          />
        )}
      </Card>
      <Card title="Payouts by status">
        <div className="mb-4 max-w-xs">
          <SelectField label="Status" value={status} onChange={(event) => setStatus(event.target.value as Status)}>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value.replaceAll('_', ' ')}
              </option>
            ))}
          </SelectField>
        </div>
        {payouts.isPending && <Loading />}
        <ErrorNote error={payouts.error} />
        {payouts.data && payouts.data.length === 0 && <Empty>No payout in this status.</Empty>}
        {payouts.data && payouts.data.length > 0 && (
          <Table
            caption="Payouts"
            columns={['Requested', 'Holder', 'Destination', 'Amount', 'Rail', 'Status', '']}
            rows={payouts.data.map((payout) => ({
              key: payout.id,
              cells: [
                formatTime(payout.created_at),
                payout.holder,
                payout.destination,
                formatCents(payout.amount_cents),
                payout.rail ?? '—',
                payout.return_reason ? `${payout.status}: ${payout.return_reason}` : payout.status,
                payout.status === 'in_flight' && payout.batch_id ? <OutcomeControls key="outcome" payoutId={payout.id} /> : null,
              ],
            }))}
          />
        )}
      </Card>
    </Page>
  );
}
