import { useTranslation } from 'react-i18next';
import type { TicketStatus } from '@tipcard/shared/support/schemas';
import { cn } from '../../../components/ui/cn.ts';

const TONE: Record<TicketStatus, string> = {
  open: 'bg-sky-50 text-sky-800 ring-sky-200',
  waiting_for_user: 'bg-amber-50 text-amber-900 ring-amber-300',
  closed: 'bg-slate-100 text-slate-700 ring-slate-200',
};

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  const { t } = useTranslation('support');
  return (
    <span
      className={cn('inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1', TONE[status])}
      data-testid="ticket-status"
    >
      {t(`status.${status}`)}
    </span>
  );
}
