import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEuro } from '../../../lib/format-euro.ts';
import { cn } from '../../../components/ui/cn.ts';

interface PayoutSummaryProps {
  amountCents: number;
  feeCents: number;
  /** The destination, already masked. */
  account?: ReactNode;
  /** The expected arrival, already formatted (or "next business day"). */
  arrival: ReactNode;
  /** On a short screen beside the amount already shown large: without its "you receive" line, rows a little tighter. */
  compact?: boolean;
  className?: string;
}

/** What the user receives, the fee, what leaves the balance, where to and when: shown before anything is confirmed. */
export function PayoutSummary({ amountCents, feeCents, account, arrival, compact = false, className }: PayoutSummaryProps) {
  const { t } = useTranslation('payouts');
  const row = cn('flex items-baseline justify-between gap-4', compact ? 'py-1.5' : 'py-2');
  return (
    <dl
      className={cn(
        'divide-y divide-slate-200/70 rounded-xl bg-slate-50 px-4 py-1 text-sm ring-1 ring-inset ring-slate-200/70',
        className,
      )}
      data-testid="payout-summary"
    >
      {compact ? null : (
        <div className={row}>
          <dt className="text-slate-600">{t('summary.receive')}</dt>
          <dd className="font-semibold tabular-nums text-slate-900" data-testid="summary-receive">
            {formatEuro(amountCents)}
          </dd>
        </div>
      )}
      <div className={row}>
        <dt className="text-slate-600">{t('summary.fee')}</dt>
        <dd className="tabular-nums text-slate-900" data-testid="summary-fee">
          {formatEuro(feeCents)}
        </dd>
      </div>
      <div className={row}>
        <dt className="font-medium text-slate-800">{t('summary.total')}</dt>
        <dd className="font-bold tabular-nums text-primary-950" data-testid="summary-total">
          {formatEuro(amountCents + feeCents)}
        </dd>
      </div>
      {account ? (
        <div className={row}>
          <dt className="text-slate-600">{t('summary.to')}</dt>
          <dd className="min-w-0 truncate text-right font-mono text-slate-900">{account}</dd>
        </div>
      ) : null}
      <div className={row}>
        <dt className="text-slate-600">{t('summary.arrival')}</dt>
        <dd className="text-right font-medium text-slate-900" data-testid="summary-arrival">
          {arrival}
        </dd>
      </div>
    </dl>
  );
}
