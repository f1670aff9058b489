import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { payoutOutcomeBody } from '@tipcard/shared/ops/schemas';
import {
  createBatchAnswer,
  opsBatchSchema,
  opsPayoutSchema,
  RETURN_REASONS,
  returnReasonCodes,
  type OpsBatch,
  type OpsPayout,
  type ReturnReasonCode,
} from '@tipcard/shared/ops/schemas';
import { Banknote, FileText } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { SelectField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { saveBlob } from '../../lib/download-file.ts';
import { formatCents, formatTime, opsBlob, opsGet, opsPost } from '../ops-api.ts';
import { Badge, ConfirmDialog, ErrorNote, loadErrorText, Page, Table, TitledPanel, useStatusFilter } from '../ui.tsx';

const STATUSES = opsPayoutSchema.shape.status.options;
type PayoutStatus = (typeof STATUSES)[number];
/** What each state means to finance, instead of its code. */
const STATUS_LABELS: Record<PayoutStatus, string> = {
  awaiting_confirmation: 'Waiting for the user’s code',
  in_flight: 'Sent to the bank',
  paid: 'Paid',
  returned: 'Returned',
  expired: 'Expired',
};
const RAIL_LABELS: Record<NonNullable<z.output<typeof opsPayoutSchema>['rail']>, string> = {
  sandbox: 'Sandbox',
  sepa_file: 'SEPA file',
  uk_file: 'UK file',
};
const REASON_OPTIONS = returnReasonCodes.map((code) => ({ value: code, label: `${code} ${RETURN_REASONS[code]}` }));

/**
 * The bank's answer for one payout of a sent file: paid, or returned with the reason the bank gave. Either moves money
 * in the books (a return gives the amount and fee back to the user), so each is confirmed first, naming the amount
 * and the account.
 */
function OutcomeControls({ payout }: { payout: OpsPayout }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<z.input<typeof payoutOutcomeBody> | null>(null);
  const { register, handleSubmit } = useForm<{ reason_code: ReturnReasonCode }>({ defaultValues: { reason_code: 'AC04' } });
  const mark = useMutation({
    mutationFn: (body: z.input<typeof payoutOutcomeBody>) =>
      opsPost(z.object({ status: z.string() }), `/payouts/${payout.id}/outcome`, body),
    onSuccess: () => {
      setConfirming(null);
      void queryClient.invalidateQueries({ queryKey: ['ops'] });
    },
  });
  const amount = formatCents(payout.amount_cents);
  return (
    <form
      onSubmit={handleSubmit(({ reason_code }) => setConfirming({ outcome: 'returned', reason_code }))}
      className="flex flex-wrap items-end gap-2"
    >
      <Button size="sm" variant="secondary" onClick={() => setConfirming({ outcome: 'paid' })}>
        Mark paid…
      </Button>
      <SelectField label="Return reason" options={REASON_OPTIONS} {...register('reason_code')} />
      <Button type="submit" size="sm" variant="danger">
        Mark returned…
      </Button>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.outcome === 'returned' ? 'Mark the payout returned' : 'Mark the payout paid'}
        confirmLabel={confirming?.outcome === 'returned' ? `Mark ${amount} returned` : `Mark ${amount} paid`}
        tone={confirming?.outcome === 'returned' ? 'danger' : 'primary'}
        pending={mark.isPending}
        error={mark.error}
        onCancel={() => {
          mark.reset();
          setConfirming(null);
        }}
        onConfirm={() => confirming && mark.mutate(confirming)}
      >
        <p>
          {confirming?.outcome === 'returned'
            ? `The bank returned ${amount} sent to ${payout.holder}, ${payout.destination} (${confirming.reason_code} ${RETURN_REASONS[confirming.reason_code]}): the amount and its fee go back to the user's balance.`
            : `The bank paid ${amount} to ${payout.holder}, ${payout.destination}: the payout is done.`}
        </p>
      </ConfirmDialog>
    </form>
  );
}

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

/**
 * The bank paid a sent file: every payout of it still sent to the bank is marked paid at once (a line the bank returned
 * is marked returned first, on its own row). Confirmed first, naming the file; answers how many were marked.
 */
function MarkRestPaid({ batch }: { batch: OpsBatch }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const mark = useMutation({
    mutationFn: () => opsPost(z.object({ marked: z.number() }), `/payout-batches/${batch.id}/paid`),
    onSuccess: () => {
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: ['ops'] });
    },
  });
  return (
    <>
      <Button size="sm" onClick={() => setConfirming(true)}>
        Mark the rest paid…
      </Button>
      {mark.data && (
        <span role="status" className="self-center text-sm text-green-800">
          {mark.data.marked === 1 ? '1 payout marked paid.' : `${mark.data.marked} payouts marked paid.`}
        </span>
      )}
      <ConfirmDialog
        open={confirming}
        title="Mark the file paid"
        confirmLabel="Mark paid"
        pending={mark.isPending}
        error={mark.error}
        onCancel={() => {
          mark.reset();
          setConfirming(false);
        }}
        onConfirm={() => mark.mutate()}
      >
        <p>
          The bank paid {batch.file_name} ({batch.payout_count} payouts, {formatCents(batch.total_cents)}): every payout of it
          still sent to the bank is marked paid.
        </p>
        <p>Mark a payout the bank returned as returned first, on its own row below.</p>
      </ConfirmDialog>
    </>
  );
}

export default function PayoutsPage() {
  const queryClient = useQueryClient();
  const { status, filter } = useStatusFilter(STATUSES, 'in_flight', (value) => STATUS_LABELS[value]);
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
  const sent = useMutation({
    mutationFn: (id: string) => opsPost(opsBatchSchema, `/payout-batches/${id}/sent`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['ops', 'payouts'] }),
  });
  const download = useMutation({
    mutationFn: async ({ id, fileName }: { id: string; fileName: string }) =>
      saveBlob(await opsBlob(`/payout-batches/${id}/file`), fileName),
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
        <div className="mb-3 empty:hidden">
          <ErrorNote error={sent.error ?? download.error} />
        </div>
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
                  batch.file_name,
                  batch.payout_count,
                  formatCents(batch.total_cents),
                  batch.status === 'sent' ? <Badge tone="blue">sent</Badge> : <Badge tone="amber">created</Badge>,
                  <div key="actions" className="flex gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => download.mutate({ id: batch.id, fileName: batch.file_name })}
                    >
                      Download
                    </Button>
                    {batch.status === 'sent' && <MarkRestPaid batch={batch} />}
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
          {(rows) => (
            <Table
              caption="Payouts"
              columns={['Requested', 'Holder', 'Destination', 'Amount', 'Rail', 'Status', '']}
              rows={rows.map((payout) => ({
                key: payout.id,
                cells: [
                  formatTime(payout.created_at),
                  payout.holder,
                  payout.destination,
                  formatCents(payout.amount_cents),
                  payout.rail ? RAIL_LABELS[payout.rail] : '—',
                  payout.return_reason
                    ? `${STATUS_LABELS[payout.status]}: ${payout.return_reason}`
                    : STATUS_LABELS[payout.status],
                  payout.status === 'in_flight' && payout.batch_id ? <OutcomeControls key="outcome" payout={payout} /> : null,
                ],
              }))}
            />
          )}
        </ListState>
      </TitledPanel>
    </Page>
  );
}
