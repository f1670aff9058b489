import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDownLeft, ArrowUpRight, Gift, Star, type LucideIcon } from 'lucide-react';
import type { Transaction } from '@tipcard/shared/transactions/schemas';
import { describeTransaction } from '@tipcard/shared/transactions/detail';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { cn } from './cn.ts';
import { Skeleton } from './skeleton.tsx';
import { formatEuro } from '../../lib/format-euro.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { Dialog } from './dialog.tsx';
import { StatusBadge } from './transaction-status-badge.tsx';

const ICONS: Record<Transaction['type'], { icon: LucideIcon; tone: string }> = {
  PAYIN: { icon: ArrowDownLeft, tone: 'bg-emerald-50 text-emerald-700' },
  PAYOUT: { icon: ArrowUpRight, tone: 'bg-primary-50 text-primary-700' },
  REFERRAL_PAYIN: { icon: Gift, tone: 'bg-violet-50 text-violet-700' },
};

function Stars({ value }: { value: number }) {
  const { t } = useTranslation('transactions');
  return (
    <span className="inline-flex items-center gap-0.5" role="img" aria-label={t('rating', { value })}>
      {[1, 2, 3, 4, 5].map((star) => (
        <Star
          key={star}
          className={cn('size-3.5', star <= value ? 'fill-amber-400 text-amber-400' : 'text-slate-300')}
          aria-hidden="true"
        />
      ))}
    </span>
  );
}

/** Money in that is not a tip has its own name (an invoice paid, a donation, a closing gift); the rest, their type's. */
const NAMED_PAYIN_KINDS = new Set(['invoice', 'donation', 'monthly_donation', 'closing_gift']);

function typeLabel(transaction: Transaction, t: (key: string) => string): string {
  const kind = transaction.detail?.kind;
  // A team adjustment (decision 0059) is neither a guest's tip nor a withdrawal, on either side.
  if (kind === 'team_adjustment' || kind === 'team_adjustment_given') return t('adjustment');
  if (transaction.type === 'PAYIN' && kind && NAMED_PAYIN_KINDS.has(kind)) return t(`payin_kinds.${kind}`);
  return t(`types.${transaction.type}`);
}

/** One line of the history: what, when, the guest's stars and message, the amount with its fee, and the status. */
export function TransactionRow({ transaction }: { transaction: Transaction }) {
  const { t } = useTranslation('transactions');
  const { icon: Icon, tone } = ICONS[transaction.type];
  const incoming = transaction.type !== 'PAYOUT';
  const when = formatDate(transaction.created_at, 'dateTime', currentLocale());
  return (
    <div className="flex gap-3 py-4" data-testid="transaction" data-status={transaction.status} data-type={transaction.type}>
      <span className={cn('grid size-10 shrink-0 place-items-center rounded-full', tone)} aria-hidden="true">
        <Icon className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="line-clamp-2 break-words font-semibold text-slate-900">
              {describeTransaction(transaction, (key, vars) => t(key, vars)) || typeLabel(transaction, t)}
            </p>
            <p className="text-sm text-slate-500">
              {typeLabel(transaction, t)} · <time dateTime={transaction.created_at}>{when}</time>
            </p>
          </div>
          <div className="shrink-0 text-right">
            <p
              className={cn('font-semibold tabular-nums', incoming ? 'text-emerald-700' : 'text-slate-900')}
              data-testid="transaction-amount"
            >
              {incoming ? '+' : '−'}
              {formatEuro(Math.abs(transaction.amount_cents))}
            </p>
            {transaction.fee_cents > 0 ? (
              <p className="text-xs tabular-nums text-slate-500">{t('fee', { amount: formatEuro(transaction.fee_cents) })}</p>
            ) : null}
          </div>
        </div>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <StatusBadge status={transaction.status} />
          {transaction.rating ? <Stars value={transaction.rating} /> : null}
        </div>
        {transaction.message ? (
          <p className="mt-2 break-words rounded-xl bg-slate-50 px-3 py-2 text-sm italic text-slate-700">
            “{transaction.message}”
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** A history line that opens its details: every fact of the line, its dates and its id for support. */
export function OpenableTransactionRow({
  transaction,
  actions,
}: {
  transaction: Transaction;
  /** What the page adds below the details, in the dialog (the transactions page: the answer to a guest's message). */
  actions?: (transaction: Transaction) => ReactNode;
}) {
  const { t } = useTranslation('transactions');
  const [open, setOpen] = useState(false);
  // The whole line opens it: a button laid over the line (a button may not hold the line's paragraphs).
  return (
    <div className="relative -mx-2 rounded-xl px-2 hover:bg-slate-50">
      <TransactionRow transaction={transaction} />
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label={t('details.open', {
          what: describeTransaction(transaction, (key, vars) => t(key, vars)) || typeLabel(transaction, t),
          date: formatDate(transaction.created_at, 'dateTime', currentLocale()),
        })}
        className="absolute inset-0 rounded-xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
      />
      <Dialog open={open} onClose={() => setOpen(false)} title={t('details.title')}>
        <TransactionDetails transaction={transaction} />
        {actions?.(transaction)}
      </Dialog>
    </div>
  );
}

function TransactionDetails({ transaction }: { transaction: Transaction }) {
  const { t } = useTranslation('transactions');
  const locale = currentLocale();
  const incoming = transaction.type !== 'PAYOUT';
  const rows: [string, string][] = [
    [t('details.what'), describeTransaction(transaction, (key, vars) => t(key, vars)) || typeLabel(transaction, t)],
    [t('details.type'), typeLabel(transaction, t)],
    [t('details.status'), t(`statuses.${transaction.status}`)],
    [t('details.date'), formatDate(transaction.created_at, 'dateTime', locale)],
    ...(transaction.settled_at
      ? ([[t('details.settled'), formatDate(transaction.settled_at, 'dateTime', locale)]] as [string, string][])
      : []),
    [
      incoming ? t('details.received') : t('details.sent'),
      `${incoming ? '+' : '−'}${formatEuro(Math.abs(transaction.amount_cents))}`,
    ],
    ...(transaction.fee_cents > 0 ? ([[t('details.fee'), formatEuro(transaction.fee_cents)]] as [string, string][]) : []),
    ...(transaction.rating ? ([[t('details.rating'), t('rating', { value: transaction.rating })]] as [string, string][]) : []),
    ...(transaction.message ? ([[t('details.message'), `“${transaction.message}”`]] as [string, string][]) : []),
    [t('details.id'), transaction.id],
  ];
  return (
    <dl className="divide-y divide-slate-100 text-sm" data-testid="transaction-details">
      {rows.map(([label, value]) => (
        <div key={label} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3 py-2.5">
          <dt className="text-slate-600">{label}</dt>
          <dd className="break-words font-medium text-slate-900 [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A placeholder line while the list loads, the same height as a real one. */
export function TransactionRowSkeleton() {
  return (
    <div className="flex gap-3 py-4" aria-hidden="true">
      <Skeleton className="size-10 shrink-0 rounded-full" />
      <div className="flex-1 space-y-2">
        <div className="flex justify-between gap-3">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-4 w-16" />
        </div>
        <Skeleton className="h-3 w-28" />
        <Skeleton className="h-5 w-16 rounded-full" />
      </div>
    </div>
  );
}
