import { useTranslation } from 'react-i18next';
import { ArrowUpRight, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import type { Payout } from '@tipcard/shared/payouts/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { cn } from '../../../components/ui/cn.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { formatEuro } from '../../../lib/format-euro.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import { shortMask } from '../format.ts';
import { PayoutStatusBadge } from './payout-status-badge.tsx';

/** What the line says about when the money arrives, by status. */
function arrivalText(payout: Payout, t: (key: string, options?: Record<string, string>) => string): string | null {
  switch (payout.status) {
    case 'paid':
      return t('history.paid_on', {
        date: formatDate(payout.paid_at ?? payout.expected_arrival, 'day', currentLocale(), { timeZone: 'UTC' }),
      });
    case 'in_flight':
    case 'awaiting_confirmation':
      return t('history.arrives', { date: formatDate(payout.expected_arrival, 'day', currentLocale(), { timeZone: 'UTC' }) });
    case 'returned':
      return t('history.returned');
    case 'expired':
      return t('history.expired');
  }
}

/** One payout of the history: to where, when, the amount with its fee, the status and the expected arrival. */
export function PayoutRow({ payout }: { payout: Payout }) {
  const { t } = useTranslation('payouts');
  const to = useLocalePath();
  const pending = payout.status === 'awaiting_confirmation';
  const muted = payout.status === 'expired' || payout.status === 'returned';
  const content = (
    <>
      <span
        className={cn(
          'grid size-10 shrink-0 place-items-center rounded-full',
          muted ? 'bg-slate-100 text-slate-500' : 'bg-primary-50 text-primary-700',
        )}
        aria-hidden="true"
      >
        <ArrowUpRight className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="truncate font-semibold text-slate-900">
              {t('history.to', { account: shortMask(payout.method.masked_account) })}
            </p>
            <p className="text-sm text-slate-500">
              <time dateTime={payout.created_at}>{formatDate(payout.created_at, 'dateTime', currentLocale())}</time>
            </p>
          </div>
          <div className="shrink-0 text-right">
            <p
              className={cn(
                'font-semibold tabular-nums',
                muted ? 'text-slate-500 line-through decoration-slate-300' : 'text-slate-900',
              )}
              data-testid="payout-amount"
            >
              −{formatEuro(payout.amount_cents)}
            </p>
            <p className="text-xs tabular-nums text-slate-500" data-testid="payout-fee">
              {payout.status === 'returned'
                ? t('history.fee_refunded', { amount: formatEuro(payout.fee_cents) })
                : t('history.fee', { amount: formatEuro(payout.fee_cents) })}
            </p>
          </div>
        </div>
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1.5">
          <PayoutStatusBadge status={payout.status} />
          <span className="text-sm text-slate-600" data-testid="payout-arrival">
            {arrivalText(payout, t)}
          </span>
          {payout.status === 'returned' ? (
            <span className="basis-full text-sm text-rose-800" data-testid="payout-return-reason">
              {t('history.reason', { reason: t(`return_reasons.${payout.return_reason ?? 'unknown'}`) })}
            </span>
          ) : null}
          {pending ? (
            <span className="ml-auto inline-flex items-center gap-0.5 text-sm font-semibold text-primary-700">
              {t('history.enter_code')}
              <ChevronRight className="size-4" aria-hidden="true" />
            </span>
          ) : null}
        </div>
      </div>
    </>
  );
  return pending ? (
    <Link
      to={to(`/payouts/${payout.id}/confirmation`)}
      className="-mx-2 flex gap-3 rounded-xl px-2 py-4 transition-colors hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
      data-testid="payout"
      data-status={payout.status}
    >
      {content}
    </Link>
  ) : (
    <div className="flex gap-3 py-4" data-testid="payout" data-status={payout.status}>
      {content}
    </div>
  );
}
