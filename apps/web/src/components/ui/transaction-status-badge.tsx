import { useTranslation } from 'react-i18next';
import type { Transaction } from '@tipcard/shared/transactions/schemas';
import { cn } from './cn.ts';

const TONES: Record<Transaction['status'], string> = {
  HOLD: 'bg-amber-50 text-amber-800 ring-amber-200',
  PAID: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  REFUNDED: 'bg-slate-100 text-slate-700 ring-slate-300',
};

/** HOLD / PAID / REFUNDED in the user's language; `data-status` keeps the spec's value for tests and styling. */
export function StatusBadge({ status }: { status: Transaction['status'] }) {
  const { t } = useTranslation('transactions');
  return (
    <span
      data-status={status}
      className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset', TONES[status])}
    >
      {t(`statuses.${status}`)}
    </span>
  );
}
