import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { auditQuery, auditRecordSchema } from '@tipcard/shared/ops/schemas';
import { ScrollText } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { formatTime, opsGet } from '../ops-api.ts';
import { BESIDE_FIELDS, loadErrorText, Page, Table } from '../ui.tsx';

/** A filter field as typed: blank means "any", anything else must pass the API's own rule for it. */
const typed = <T extends z.ZodType<string | undefined, string | undefined>>(rule: T) =>
  z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(rule);
const filterForm = z.object({
  action: typed(auditQuery.shape.action),
  subject_type: typed(auditQuery.shape.subject_type),
  subject_id: typed(auditQuery.shape.subject_id),
  operator_id: typed(auditQuery.shape.operator_id),
});
type Filter = z.output<typeof filterForm>;

const FIELDS = [
  ['action', 'Action'],
  ['subject_type', 'Subject type'],
  ['subject_id', 'Subject id'],
  ['operator_id', 'Operator id'],
] as const;

const changes = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value) : '—');

export default function AuditPage() {
  const [filter, setFilter] = useState<Filter>({});
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof filterForm>, unknown, Filter>({
    resolver: zodResolver(filterForm),
    defaultValues: { action: '', subject_type: '', subject_id: '', operator_id: '' },
  });
  const records = useQuery({
    queryKey: ['ops', 'audit', filter],
    queryFn: () => opsGet(z.array(auditRecordSchema), '/audit', filter),
  });
  return (
    <Page title="Audit log">
      <form onSubmit={handleSubmit(setFilter)} className="grid grid-cols-2 items-start gap-3 xl:grid-cols-5" noValidate>
        {FIELDS.map(([name, label]) => (
          <TextField key={name} label={label} error={errors[name]?.message} {...register(name)} />
        ))}
        <Button type="submit" className={BESIDE_FIELDS.md}>
          Filter
        </Button>
      </form>
      <ListState
        query={records}
        loadingLabel="Loading audit records…"
        errorText={loadErrorText(records.error)}
        empty={{ icon: <ScrollText className="size-7" />, title: 'No record matches.' }}
      >
        {(rows) => (
          <Table
            caption="Audit records, newest first"
            columns={['When', 'Operator', 'Action', 'Subject', 'Before', 'After', 'IP']}
            rows={rows.map((record) => ({
              key: record.id,
              cells: [
                formatTime(record.created_at),
                record.actor,
                <code key="action">{record.action}</code>,
                <span key="subject" className="text-xs">
                  {record.subject_type} <code className="block">{record.subject_id}</code>
                </span>,
                <code key="before" className="block max-w-xs break-all text-xs">
                  {changes(record.before)}
                </code>,
                <code key="after" className="block max-w-xs break-all text-xs">
                  {changes(record.after)}
                </code>,
                record.ip ?? '—',
              ],
            }))}
          />
        )}
      </ListState>
    </Page>
  );
}
