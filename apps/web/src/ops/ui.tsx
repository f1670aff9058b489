import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { useSearchParams } from 'react-router';
import { cn } from '../components/ui/cn.ts';
import { Spinner } from '../components/ui/spinner.tsx';

/** The back office's small widgets: desktop tables and forms, no translation (operators work in English). */

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby="page-title" className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="page-title" className="text-2xl font-semibold text-slate-900">
          {title}
        </h1>
        {actions}
      </header>
      {children}
    </section>
  );
}

export function Card({ title, children, className }: { title?: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('rounded-xl border border-slate-200 bg-white p-5 shadow-sm', className)}>
      {title && <h2 className="mb-3 text-base font-semibold text-slate-900">{title}</h2>}
      {children}
    </div>
  );
}

export function TextField({
  label,
  error,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | undefined }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-primary-600 focus:outline-none focus:ring-2 focus:ring-primary-200"
        {...input}
      />
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

export function SelectField({ label, children, ...select }: SelectHTMLAttributes<HTMLSelectElement> & { label: string }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900" {...select}>
        {children}
      </select>
    </div>
  );
}

/**
 * A queue's status filter kept in the URL (`?status=`): the chosen status (`undefined` for "All"; `fallback` when
 * none or an unknown one is asked for) and the select that changes it.
 */
export function useStatusFilter<S extends string>(statuses: readonly S[], fallback: S, labelOf: (status: S) => string) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status = raw === 'all' ? undefined : (statuses as readonly string[]).includes(raw ?? '') ? (raw as S) : fallback;
  const filter = (
    <div className="w-56">
      <SelectField
        label="Status"
        name="status"
        value={status ?? 'all'}
        onChange={(event) => setParams({ status: event.target.value }, { replace: true })}
      >
        {statuses.map((value) => (
          <option key={value} value={value}>
            {labelOf(value)}
          </option>
        ))}
        <option value="all">All</option>
      </SelectField>
    </div>
  );
  return { status, filter };
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {error instanceof Error ? error.message : 'Something went wrong'}
    </p>
  );
}

export function Loading() {
  return (
    <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
      <Spinner /> Loading…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600">{children}</p>
  );
}

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
