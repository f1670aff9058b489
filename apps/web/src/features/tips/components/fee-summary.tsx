import type { TipBreakdown } from '@tipcard/shared/payments/fees';
import { guestMoney, useGuestT } from '../../../lib/guest-i18n.ts';

/**
 * What happens to the guest's money, before paying: what the staff member receives and the fee, in small lines
 * under the fee switch.
 */
export function FeeSummary({
  summary,
  name,
  percent,
  coverFee,
  donation,
}: {
  summary: TipBreakdown;
  name: string;
  percent: string;
  coverFee: boolean;
  donation: boolean;
}) {
  const t = useGuestT();
  // Two short lines of small text: the total is on the Pay button right below, so the first screen keeps room for it.
  return (
    <dl
      className="mt-1 text-xs leading-relaxed text-slate-600 [&_dd]:inline [&_dt]:inline"
      aria-label={t('form.summary_title')}
      data-testid="fee-summary"
    >
      <div className="inline">
        <dt>{t('form.receives', { name })} </dt>
        <dd className="whitespace-nowrap font-semibold tabular-nums text-slate-900" data-testid="summary-net">
          {guestMoney(summary.netCents)}
        </dd>
      </div>
      <div className="inline">
        <dt>
          <span aria-hidden="true"> · </span>
          {t('form.fee', { percent })}{' '}
        </dt>
        <dd className="tabular-nums">
          <span className="whitespace-nowrap" data-testid="summary-fee">
            {guestMoney(summary.feeCents)}
          </span>
          , {coverFee ? t('form.fee_covered') : t(donation ? 'form.fee_deducted_donation' : 'form.fee_deducted')}
        </dd>
      </div>
    </dl>
  );
}
