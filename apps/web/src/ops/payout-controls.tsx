import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  opsBatchSchema,
  opsPayoutSchema,
  RETURN_REASONS,
  returnReasonCodes,
  type OpsBatch,
  type OpsPayout,
  type payoutOutcomeBody,
  type ReturnReasonCode,
} from '@tipcard/shared/ops/schemas';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../components/ui/button-base.tsx';
import { SelectField } from '../components/ui/field.tsx';
import { saveBlob } from '../lib/download-file.ts';
import { formatCents, formatTime, opsBlob, opsPost } from './ops-api.ts';
import { Badge, ConfirmDialog, ErrorNote, Table } from './ui.tsx';

/** What the payouts page and a bank file's page share: the states' words, a payout's row and a file's actions. */
export const PAYOUT_STATUSES = opsPayoutSchema.shape.status.options;
type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
/** What each state means to finance, instead of its code. */
export const PAYOUT_STATUS_LABELS: Record<PayoutStatus, string> = {
  awaiting_confirmation: 'Waiting for the user’s code',
  in_flight: 'Sent to the bank',
  paid: 'Paid',
  returned: 'Returned',
  expired: 'Expired',
};
export const RAIL_LABELS: Record<NonNullable<z.output<typeof opsPayoutSchema>['rail']>, string> = {
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
export function OutcomeControls({ payout }: { payout: OpsPayout }) {
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

/**
 * The bank paid a sent file: every payout of it still sent to the bank is marked paid at once (a line the bank returned
 * is marked returned first, on its own row). Confirmed first, naming the file; answers how many were marked.
 */
export function MarkRestPaid({ batch }: { batch: OpsBatch }) {
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
        <p>Mark a payout the bank returned as returned first, on its own row of the file.</p>
      </ConfirmDialog>
    </>
  );
}

/** A payout's state in words, with the bank's return reason when it gave one. */
export const payoutStatusText = (payout: OpsPayout) =>
  payout.return_reason ? `${PAYOUT_STATUS_LABELS[payout.status]}: ${payout.return_reason}` : PAYOUT_STATUS_LABELS[payout.status];

/** Payouts as finance reads them; a payout sent in a file gets the bank's answer on its row. */
export function PayoutsTable({ payouts, showFile }: { payouts: readonly OpsPayout[]; showFile: boolean }) {
  return (
    <Table
      caption="Payouts"
      columns={['Requested', 'Holder', 'Destination', 'Amount', 'Rail', ...(showFile ? ['File'] : []), 'Status', '']}
      rows={payouts.map((payout) => ({
        key: payout.id,
        cells: [
          formatTime(payout.created_at),
          payout.holder,
          payout.destination,
          formatCents(payout.amount_cents),
          payout.rail ? RAIL_LABELS[payout.rail] : '—',
          ...(showFile
            ? [
                payout.batch_id ? (
                  <Link key="file" to={`/payouts/batches/${payout.batch_id}`} className="text-blue-700 underline">
                    Open file
                  </Link>
                ) : (
                  '—'
                ),
              ]
            : []),
          payoutStatusText(payout),
          payout.status === 'in_flight' && payout.batch_id ? <OutcomeControls key="outcome" payout={payout} /> : null,
        ],
      }))}
    />
  );
}

export const batchStatusBadge = (batch: OpsBatch) =>
  batch.status === 'sent' ? <Badge tone="blue">sent</Badge> : <Badge tone="amber">created</Badge>;

/** A bank file's actions: download it, mark it uploaded to the bank, then mark what the bank paid. */
export function BatchActions({ batch }: { batch: OpsBatch }) {
  const queryClient = useQueryClient();
  const sent = useMutation({
    mutationFn: () => opsPost(opsBatchSchema, `/payout-batches/${batch.id}/sent`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
  const download = useMutation({
    mutationFn: async () => saveBlob(await opsBlob(`/payout-batches/${batch.id}/file`), batch.file_name),
  });
  return (
    <div className="flex flex-wrap gap-2">
      <Button size="sm" variant="secondary" onClick={() => download.mutate()}>
        Download
      </Button>
      {batch.status === 'sent' && <MarkRestPaid batch={batch} />}
      {batch.status === 'created' && (
        <Button size="sm" onClick={() => sent.mutate()} loading={sent.isPending}>
          Mark sent
        </Button>
      )}
      <ErrorNote error={sent.error ?? download.error} />
    </div>
  );
}
