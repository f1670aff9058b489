import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../components/ui/button-base.tsx';
import { cn } from '../components/ui/cn.ts';
import { Dialog } from '../components/ui/dialog.tsx';
import { SelectField, TextField } from '../components/ui/field.tsx';
import { LoadError } from '../components/ui/list-state.tsx';
import { PageHeader, Panel } from '../components/ui/page-header.tsx';
import { SkeletonRows } from '../components/ui/skeleton.tsx';
import { errorText } from './ops-api.ts';

/**
 * What the back office adds to the app's widget kit (components/ui): a page and its titled panels, a desktop table,
 * badges, the status filter of a queue, and the error of an action in the API's own words (operators work in
 * English; the API's messages are written for them).
 */

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-6">
      <PageHeader title={title} actions={actions} />
      {children}
    </div>
  );
}

export function TitledPanel({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <Panel className={className}>
      <h2 className="mb-3 text-base font-semibold text-primary-950">{title}</h2>
      {children}
    </Panel>
  );
}

/**
 * The top margin of a button in a row of fields (aligned at their top, so an error under one field moves nothing):
 * the height of a field's label line and its gap, so the button sits level with the inputs.
 */
export const BESIDE_FIELDS = { md: 'mt-6.5', sm: 'mt-7.5' } as const;

/**
 * A queue's status filter kept in the URL (`?status=`): the chosen status (`undefined` for "All"; `fallback` when
 * none or an unknown one is asked for) and the select that changes it.
 */
export function useStatusFilter<S extends string>(statuses: readonly S[], fallback: S, labelOf: (status: S) => string) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status = raw === 'all' ? undefined : (statuses as readonly string[]).includes(raw ?? '') ? (raw as S) : fallback;
  const filter = (
    <SelectField
      label="Status"
      name="status"
      className="w-56"
      value={status ?? 'all'}
      onChange={(event) => setParams({ status: event.target.value }, { replace: true })}
      options={[...statuses.map((value) => ({ value, label: labelOf(value) })), { value: 'all', label: 'All' }]}
    />
  );
  return { status, filter };
}

/** An action that failed, in the API's words; `error` is the failure, or a form's error text. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {typeof error === 'string' ? error : errorText(error)}
    </p>
  );
}

/** The part of a TanStack query one record's page reads. */
interface RecordQuery<T> {
  isPending: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
}

/** One record's page (a user, a ticket): skeleton rows while it loads, the error with "Try again", or the record. */
export function RecordState<T>({
  query,
  loadingLabel,
  children,
}: {
  query: RecordQuery<T>;
  loadingLabel: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <SkeletonRows label={loadingLabel} rows={4} />;
  if (query.data === undefined) return <LoadError text={errorText(query.error)} onRetry={query.refetch} />;
  return children(query.data);
}

/** A list's load error in the API's words (a 403 names the missing role); the kit's default for a network failure. */
export const loadErrorText = (error: unknown): string | undefined => (error ? errorText(error) : undefined);

/** A plain table; `rows` are arrays of cells in the column order. */
export function Table({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: string[];
  rows: { key: string; cells: ReactNode[] }[];
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-3 py-2 font-semibold">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.key} className="align-top">
              {row.cells.map((cell, index) => (
                <td key={index} className="px-3 py-2 text-slate-800">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Badge({
  children,
  tone = 'slate',
}: {
  children: ReactNode;
  tone?: 'slate' | 'green' | 'amber' | 'red' | 'blue';
}) {
  const tones = {
    slate: 'bg-slate-100 text-slate-800',
    green: 'bg-green-100 text-green-900',
    amber: 'bg-amber-100 text-amber-900',
    red: 'bg-red-100 text-red-900',
    blue: 'bg-blue-100 text-blue-900',
  };
  return <span className={cn('inline-block rounded-full px-2 py-0.5 text-xs font-semibold', tones[tone])}>{children}</span>;
}

/**
 * The step before money moves (a refund, a payout marked paid or returned): the dialog repeats what will happen, the
 * amount and who it goes to, and nothing is sent until the operator confirms. Cancel, Escape or the backdrop send
 * nothing. The error of a refused confirmation shows in the dialog, where the operator is looking.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  onConfirm,
  onCancel,
  pending = false,
  error,
  tone = 'primary',
  children,
}: {
  open: boolean;
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  pending?: boolean;
  error?: unknown;
  tone?: 'primary' | 'danger';
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button variant={tone} onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-800">
        {children}
        <ErrorNote error={error} />
      </div>
    </Dialog>
  );
}

/** An id that opens its object's screen: a payment by its short reference, a user, a ticket. */
export function IdLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="font-mono text-xs font-medium text-primary-800 underline">
      {children}
    </Link>
  );
}

/** The API searches from two characters on (a phone's prefix, a name's start); it takes at most 100. */
const searchForm = z.object({ q: z.string().trim().min(2, 'Type at least 2 characters.').max(100) });

/** A screen's search box: its text is the `q` of the address, so a search can be linked, reloaded and gone back to. */
export function useSearchQuery(): [string, (q: string) => void] {
  const [params, setParams] = useSearchParams();
  return [params.get('q') ?? '', (q) => setParams({ q })];
}

export function SearchForm({
  label,
  q,
  onSearch,
  className,
}: {
  label: string;
  q: string;
  onSearch: (q: string) => void;
  className?: string;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof searchForm>, unknown, z.output<typeof searchForm>>({
    resolver: zodResolver(searchForm),
    values: { q },
  });
  return (
    <form
      onSubmit={handleSubmit((values) => onSearch(values.q))}
      className={cn('flex items-start gap-3', className)}
      role="search"
      noValidate
    >
      <TextField label={label} className="flex-1" error={errors.q?.message} {...register('q')} />
      <Button type="submit" className={BESIDE_FIELDS.md}>
        Search
      </Button>
    </form>
  );
}
