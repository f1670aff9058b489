import { useTranslation } from 'react-i18next';
import { CheckCircle2, CircleDashed, Clock3, Send, Undo2, type LucideIcon } from 'lucide-react';
import type { PayoutStatus } from '@tipcard/shared/payouts/schemas';
import { cn } from '../../../components/ui/cn.ts';

const STYLES: Record<PayoutStatus, { tone: string; icon: LucideIcon }> = {
  awaiting_confirmation: { tone: 'bg-amber-50 text-amber-800 ring-amber-200', icon: Clock3 },
  in_flight: { tone: 'bg-sky-50 text-sky-800 ring-sky-200', icon: Send },
  paid: { tone: 'bg-emerald-50 text-emerald-800 ring-emerald-200', icon: CheckCircle2 },
  returned: { tone: 'bg-rose-50 text-rose-800 ring-rose-200', icon: Undo2 },
  expired: { tone: 'bg-slate-100 text-slate-700 ring-slate-300', icon: CircleDashed },
};

/** A payout's status in the user's language; `data-status` keeps the API's value for tests and styling. */
export function PayoutStatusBadge({ status, className }: { status: PayoutStatus; className?: string }) {
  const { t } = useTranslation('payouts');
  const { tone, icon: Icon } = STYLES[status];
  return (
    <span
      data-status={status}
      data-testid="payout-status"
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset',
        tone,
        className,
      )}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {t(`statuses.${status}`)}
    </span>
  );
}
