import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button.tsx';
import { SkeletonRows } from './skeleton.tsx';

/** What a list says when it has nothing yet: an icon, a title, a line of help and, when there is one, the next step. */
export interface EmptyStateProps {
  icon: ReactNode;
  title: string;
  text?: string;
  action?: ReactNode;
  testId?: string;
}

export function EmptyState({ icon, title, text, action, testId }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center px-6 py-12 text-center" data-testid={testId}>
      <span className="grid size-14 place-items-center rounded-2xl bg-primary-50 text-primary-700" aria-hidden="true">
        {icon}
      </span>
      <h2 className="mt-4 text-lg font-semibold text-primary-950">{title}</h2>
      {text ? <p className="mt-1 max-w-sm text-sm text-slate-600">{text}</p> : null}
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}

/** A list that failed to load: what happened, and a way to try again. */
export function LoadError({ text, onRetry }: { text?: string; onRetry: () => unknown }) {
  const { t } = useTranslation('common');
  return (
    <div role="alert" className="flex flex-col items-center py-10 text-center">
      <p className="text-sm text-slate-600">{text ?? t('load_error')}</p>
      <Button variant="secondary" className="mt-3" onClick={() => void onRetry()}>
        {t('actions.retry')}
      </Button>
    </div>
  );
}

/** The part of a TanStack query a list reads. */
export interface ListQuery<T> {
  isPending: boolean;
  isError: boolean;
  data: readonly T[] | undefined;
  refetch: () => unknown;
}

interface ListStateProps<T> {
  query: ListQuery<T>;
  /** What loads, for screen readers ("Loading donations…"). */
  loadingLabel: string;
  /** The load error's text; "could not be loaded" by default. */
  errorText?: string;
  empty: EmptyStateProps;
  /** How many skeleton rows stand in while loading. */
  rows?: number;
  children: (items: readonly T[]) => ReactNode;
}

/** Every list's four states in one place: skeleton rows, an error with retry, the empty state, or the items. */
export function ListState<T>({ query, loadingLabel, errorText, empty, rows, children }: ListStateProps<T>) {
  if (query.isPending) return <SkeletonRows label={loadingLabel} rows={rows} />;
  if (query.isError || !query.data) return <LoadError text={errorText} onRetry={query.refetch} />;
  if (query.data.length === 0) return <EmptyState {...empty} />;
  return children(query.data);
}
