import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  bankReportAnswer,
  RETURN_REASONS,
  type BankReportAnswer,
  type BankReportLine,
  type OpsBatch,
} from '@tipcard/shared/ops/schemas';
import { FileText } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../components/ui/button-base.tsx';
import { FileDrop } from '../components/ui/file-drop.tsx';
import { formatCents, OpsApiError, opsPost } from './ops-api.ts';
import { PAYOUT_STATUS_LABELS } from './payout-controls.tsx';
import { ErrorNote, IdLink, Table } from './ui.tsx';

/** What the bank's report says of a payout, in finance's words. */
const REPORTED_LABELS: Record<BankReportLine['reported'], string> = {
  paid: 'Paid',
  returned: 'Returned',
  pending: 'Still in progress at the bank',
  not_reported: 'Not in this report',
};
const FORMAT_LABELS: Record<BankReportAnswer['format'], string> = {
  'pain.002.001.10': 'payment status report (pain.002.001.10)',
  'pain.002.001.03': 'payment status report (pain.002.001.03)',
  'camt.054.001.08': 'debit and credit notification (camt.054.001.08)',
  'camt.054.001.02': 'debit and credit notification (camt.054.001.02)',
};

const reasonText = (code: string | null) =>
  code === null ? '—' : code in RETURN_REASONS ? `${code} ${RETURN_REASONS[code as keyof typeof RETURN_REASONS]}` : code;
const changeText = (line: BankReportLine) =>
  line.change === null ? 'No change' : `${PAYOUT_STATUS_LABELS[line.status]} → ${PAYOUT_STATUS_LABELS[line.change]}`;
const count = (n: number, what: string) => `${n} ${what}`;

/** A refusal in the operator's words; a schema error also says the first thing libxml2 found wrong. */
function refusalText(error: unknown): unknown {
  if (!(error instanceof OpsApiError) || error.code !== 'bank_report_invalid') return error;
  return `This file does not follow its ISO 20022 schema. First error: ${error.fields.file?.[0] ?? 'unknown'}`;
}

/**
 * The bank's answer to a sent file (docs/decisions/0049): the operator picks the pain.002 or camt.054 file, reads what
 * it would do to each payout, then confirms or cancels. The import sends the same text the preview read; a second
 * import of one file changes nothing.
 */
export function BankReportImport({ batch }: { batch: OpsBatch }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const hintId = useId();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const preview = useMutation({
    mutationFn: (text: string) => opsPost(bankReportAnswer, `/payout-batches/${batch.id}/bank-report/preview`, { file: text }),
  });
  const apply = useMutation({
    mutationFn: (text: string) => opsPost(bankReportAnswer, `/payout-batches/${batch.id}/bank-report`, { file: text }),
    onSuccess: () => {
      setFile(null);
      preview.reset();
      void queryClient.invalidateQueries({ queryKey: ['ops'] });
    },
  });
  const cancel = () => {
    setFile(null);
    preview.reset();
    apply.reset();
  };
  const report = preview.data;
  const moves = report ? report.paid + report.returned : 0;

  return (
    <div className="space-y-3">
      <div className="max-w-xl space-y-1.5">
        <p id={`${inputId}-label`} className="text-sm font-medium text-slate-800">
          Bank’s status report
        </p>
        <FileDrop
          accept=".xml,application/xml,text/xml"
          labelledBy={`${inputId}-label`}
          describedBy={hintId}
          invalid={Boolean(preview.error)}
          onFiles={async ([chosen]) => {
            apply.reset();
            const text = await chosen!.text();
            setFile({ name: chosen!.name, text });
            preview.mutate(text);
          }}
        >
          <FileText className="size-5 shrink-0 text-slate-500" aria-hidden="true" />
          <span className="text-sm text-slate-700">{file ? file.name : 'Choose the XML file or drop it here'}</span>
        </FileDrop>
        <p id={hintId} className="text-xs text-slate-600">
          The pain.002 or camt.054 file the bank sent for {batch.file_name}. Nothing changes before you confirm.
        </p>
      </div>
      {preview.isPending && (
        <p role="status" className="text-sm text-slate-700">
          Reading {file?.name}…
        </p>
      )}
      <ErrorNote error={refusalText(preview.error)} />
      {apply.data && (
        <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-900">
          Imported {apply.data.message_id}: {count(apply.data.paid, 'marked paid')},{' '}
          {count(apply.data.returned, 'marked returned')}, {count(apply.data.unchanged, 'unchanged')}.
        </p>
      )}
      {report && file && (
        <div className="space-y-3">
          <p className="text-sm">
            {file.name} is the bank’s {FORMAT_LABELS[report.format]} <code className="text-xs">{report.message_id}</code>.
            Confirming marks {count(report.paid, 'paid')} and {count(report.returned, 'returned')};{' '}
            {count(report.unchanged, 'stay as they are')}.
          </p>
          <Table
            caption="What the bank’s report does to each payout"
            columns={['Holder', 'User', 'Amount', 'Bank says', 'Reason', 'Change']}
            rows={report.lines.map((line) => ({
              key: line.payout_id,
              cells: [
                line.holder,
                <IdLink key="user" to={`/users/${line.user_id}`}>
                  {line.user_id.slice(0, 8)}
                </IdLink>,
                formatCents(line.amount_cents),
                REPORTED_LABELS[line.reported],
                reasonText(line.reason_code),
                <span key="change" className={line.change ? 'font-semibold' : 'text-slate-600'}>
                  {changeText(line)}
                </span>,
              ],
            }))}
          />
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => apply.mutate(file.text)} loading={apply.isPending} disabled={moves === 0}>
              {moves === 0
                ? 'Nothing to change'
                : `Confirm: mark ${count(report.paid, 'paid')}, ${count(report.returned, 'returned')}`}
            </Button>
            <Button size="sm" variant="secondary" onClick={cancel} disabled={apply.isPending}>
              Cancel
            </Button>
          </div>
          <ErrorNote error={refusalText(apply.error)} />
        </div>
      )}
    </div>
  );
}
