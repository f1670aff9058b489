import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { auditQuery, auditRecordSchema, type AuditRecord } from '@tipcard/shared/ops/schemas';
import { Download, ScrollText } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { SelectField, TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { saveBlob } from '../../lib/download-file.ts';
import { formatTime, opsBlob, opsGet } from '../ops-api.ts';
import { BESIDE_FIELDS, ErrorNote, IdLink, loadErrorText, Page, Table } from '../ui.tsx';

/** A filter field as typed: blank means "any", anything else must pass the API's own rule for it. */
const typed = <T extends z.ZodType<string | undefined, string | undefined>>(rule: T) =>
  z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(rule);
/** A day typed in the date picker, as the instant the API filters by: the day's start, or its end for "to". */
const day = (edge: 'start' | 'end') =>
  z
    .string()
    .transform((value) =>
      value ? new Date(`${value}T${edge === 'start' ? '00:00:00' : '23:59:59.999'}`).toISOString() : undefined,
    );
const filterForm = z
  .object({
    actor: typed(auditQuery.shape.actor),
    action: typed(auditQuery.shape.action),
    subject_type: z.string().transform((value) => value || undefined),
    subject_id: typed(auditQuery.shape.subject_id),
    from: day('start'),
    to: day('end'),
  })
  .refine((filter) => !filter.from || !filter.to || filter.from <= filter.to, {
    message: 'The last day comes after the first',
    path: ['to'],
  });
type Filter = z.output<typeof filterForm>;

/** The objects the log names, with the screen that opens one (none for those without a screen of their own). */
const SUBJECTS: { type: string; label: string; screen?: (id: string) => string }[] = [
  { type: 'payment', label: 'Payment', screen: (id) => `/payments/${id}` },
  { type: 'user', label: 'User', screen: (id) => `/users/${id}` },
  { type: 'ticket', label: 'Ticket', screen: (id) => `/tickets/${id}` },
  { type: 'verification', label: 'Verification', screen: (id) => `/verifications/${id}` },
  { type: 'operator', label: 'Operator', screen: () => '/operators' },
  { type: 'payout', label: 'Payout' },
  { type: 'payout_batch', label: 'Payout batch' },
  { type: 'card_order', label: 'Card order' },
  { type: 'audit_log', label: 'Audit log' },
];
const SUBJECT_OPTIONS = [{ value: '', label: 'Any' }, ...SUBJECTS.map(({ type, label }) => ({ value: type, label }))];

function Subject({ record }: { record: AuditRecord }) {
  const subject = SUBJECTS.find((candidate) => candidate.type === record.subject_type);
  return (
    <span className="text-xs">
      <span className="block text-slate-600">{subject?.label ?? record.subject_type}</span>
      {subject?.screen ? (
        <IdLink to={subject.screen(record.subject_id)}>{record.subject_id}</IdLink>
      ) : (
        <code className="break-all">{record.subject_id}</code>
      )}
    </span>
  );
}

const shown = (value: unknown) => (value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** What the action changed, field by field: "status: pending → refunding"; a field only before or after shows alone. */
function Changes({ record }: { record: AuditRecord }) {
  const before = record.before ?? {};
  const after = record.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (fields.length === 0) return <span className="text-slate-500">—</span>;
  return (
    <dl className="space-y-0.5 text-xs">
      {fields.map((field) => (
        <div key={field} className="flex flex-wrap gap-x-1">
          <dt className="font-medium text-slate-700">{field}:</dt>
          <dd className="break-all text-slate-900">
            {field in before && field in after ? (
              <>
                <del className="text-slate-500">{shown(before[field])}</del>
                <span aria-label="changed to"> → </span>
                <ins className="no-underline">{shown(after[field])}</ins>
              </>
            ) : (
              shown(field in after ? after[field] : before[field])
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export default function AuditPage() {
  const [filter, setFilter] = useState<Partial<Filter>>({});
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof filterForm>, unknown, Filter>({
    resolver: zodResolver(filterForm),
    defaultValues: { actor: '', action: '', subject_type: '', subject_id: '', from: '', to: '' },
  });
  const records = useQuery({
    queryKey: ['ops', 'audit', filter],
    queryFn: () => opsGet(z.array(auditRecordSchema), '/audit', filter),
  });
  const exportFile = useMutation({
    mutationFn: () => opsBlob('/audit/export', filter),
    onSuccess: (blob) => saveBlob(blob, `tipcard-audit-${new Date().toISOString().slice(0, 10)}.csv`),
  });
  return (
    <Page
      title="Audit log"
      actions={
        <Button variant="secondary" onClick={() => exportFile.mutate()} loading={exportFile.isPending}>
          <Download className="size-4" aria-hidden /> Export CSV
        </Button>
      }
    >
      <form onSubmit={handleSubmit(setFilter)} className="grid grid-cols-2 items-start gap-3 xl:grid-cols-4" noValidate>
        <TextField label="Operator" hint="Part of the e-mail, or cli" error={errors.actor?.message} {...register('actor')} />
        <TextField label="Action" hint="e.g. refund, operator.update" error={errors.action?.message} {...register('action')} />
        <SelectField label="Object" options={SUBJECT_OPTIONS} {...register('subject_type')} />
        <TextField
          label="Object id"
          hint="Its start is enough, e.g. a reference"
          error={errors.subject_id?.message}
          {...register('subject_id')}
        />
        <TextField label="From" type="date" error={errors.from?.message} {...register('from')} />
        <TextField label="To" type="date" error={errors.to?.message} {...register('to')} />
        <Button type="submit" className={BESIDE_FIELDS.md}>
          Filter
        </Button>
      </form>
      <div className="empty:hidden">
        <ErrorNote error={exportFile.error ? loadErrorText(exportFile.error) : undefined} />
      </div>
      <ListState
        query={records}
        loadingLabel="Loading audit records…"
        errorText={loadErrorText(records.error)}
        empty={{ icon: <ScrollText className="size-7" />, title: 'No record matches.' }}
      >
        {(rows) => (
          <Table
            caption="Audit records, newest first (200 at most: narrow the filter, or export)"
            columns={['When', 'Operator', 'Action', 'Object', 'Changes', 'IP']}
            rows={rows.map((record) => ({
              key: record.id,
              cells: [
                formatTime(record.created_at),
                record.actor,
                <code key="action">{record.action}</code>,
                <Subject key="subject" record={record} />,
                <Changes key="changes" record={record} />,
                record.ip ?? '—',
              ],
            }))}
          />
        )}
      </ListState>
    </Page>
  );
}
