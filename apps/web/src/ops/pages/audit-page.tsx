import { useQuery } from '@tanstack/react-query';
import { auditRecordSchema } from '@tipcard/shared/ops/schemas';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { formatTime, opsGet } from '../ops-api.ts';
import { Empty, ErrorNote, Loading, Page, Table, TextField } from '../ui.tsx';

const FILTERS = [
  ['action', 'Action'],
  ['subject_type', 'Subject type'],
  ['subject_id', 'Subject id'],
  ['operator_id', 'Operator id'],
] as const;

const changes = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value) : '—');

export default function AuditPage() {
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [filter, setFilter] = useState<Record<string, string>>({});
  const records = useQuery({
    queryKey: ['ops', 'audit', filter],
    queryFn: () => opsGet(z.array(auditRecordSchema), '/audit', filter),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilter(draft);
  };
  return (
    <Page title="Audit log">
      <form onSubmit={submit} className="grid grid-cols-2 items-end gap-3 xl:grid-cols-5">
        {FILTERS.map(([name, label]) => (
          <TextField
            key={name}
            label={label}
            name={name}
            value={draft[name] ?? ''}
            onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
          />
        ))}
        <Button type="submit">Filter</Button>
      </form>
      {records.isPending && <Loading />}
      <ErrorNote error={records.error} />
      {records.data && records.data.length === 0 && <Empty>No record matches.</Empty>}
      {records.data && records.data.length > 0 && (
        <Table
          caption="Audit records, newest first"
          columns={['When', 'Operator', 'Action', 'Subject', 'Before', 'After', 'IP']}
          rows={records.data.map((record) => ({
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
    </Page>
  );
}
