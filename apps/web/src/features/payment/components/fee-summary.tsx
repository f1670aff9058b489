import type { TipBreakdown } from '@tipcard/shared/payments/fees';
import { formatEuro } from '../../../lib/format-euro.ts';
import { usePaymentT } from '../payment-i18n.ts';

/** What happens to the guest's money, before paying: what the staff member receives, the fee and the total. */
export function FeeSummary({ summary, name, percent, coverFee }: { summary: TipBreakdown; name: string; percent: string; coverFee: boolean }) {
  const t = usePaymentT();
  return (
    <dl className="mt-4 space-y-2 rounded-2xl bg-slate-50 p-4 text-sm ring-1 ring-slate-200/70" aria-label={t('form.summary_title')} data-testid="fee-summary">
      <div className="flex items-baseline justify-between gap-3">
        <dt className="text-slate-600">{t('form.receives', { name })}</dt>
        <dd className="font-semibold tabular-nums text-slate-900" data-testid="summary-net">
          {formatEuro(summary.netCents)}
        </dd>
      </div>
      <div className="flex items-baseline justify-between gap-3">
        <dt className="text-slate-600">
          {t('form.fee', { percent })}
          <span className="block text-xs text-slate-500">{coverFee ? t('form.fee_covered') : t('form.fee_deducted')}</span>
        </dt>
        <dd className="tabular-nums text-slate-700" data-testid="summary-fee">
          {formatEuro(summary.feeCents)}
        </dd>
      </div>
      <div className="flex items-baseline justify-between gap-3 border-t border-slate-200 pt-2">
        <dt className="font-semibold text-slate-900">{t('form.total')}</dt>
        <dd className="text-base font-bold tabular-nums text-primary-950" data-testid="summary-total">
          {formatEuro(summary.totalCents)}
        </dd>
      </div>
    </dl>
  );
}
