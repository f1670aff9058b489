import { useTranslation } from 'react-i18next';
import { CircleCheck, CircleDashed, CircleX, Clock, type LucideIcon } from 'lucide-react';
import type { Verification, VerificationStatus } from '@tipcard/shared/verification/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { cn } from '../../../components/ui/cn.ts';
import { currentLocale } from '../../../lib/i18n.ts';

const LOOK: Record<VerificationStatus, { icon: LucideIcon; tone: string; badge: string }> = {
  not_started: { icon: CircleDashed, tone: 'bg-slate-100 text-slate-600', badge: 'bg-slate-100 text-slate-700 ring-slate-200' },
  pending: { icon: Clock, tone: 'bg-amber-50 text-amber-600', badge: 'bg-amber-50 text-amber-800 ring-amber-200' },
  approved: {
    icon: CircleCheck,
    tone: 'bg-emerald-50 text-emerald-600',
    badge: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  },
  rejected: { icon: CircleX, tone: 'bg-red-50 text-red-600', badge: 'bg-red-50 text-red-800 ring-red-200' },
};

/** Where the user stands: not started, pending, approved, or rejected with the operator's reason. */
export function StatusCard({ verification }: { verification: Verification }) {
  const { t } = useTranslation('verification');
  const { status } = verification;
  const { icon: Icon, tone, badge } = LOOK[status];
  return (
    <section
      aria-labelledby="verification-status-title"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200/70 sm:p-6"
      data-status={status}
    >
      <div className="flex items-start gap-4">
        <span className={cn('grid size-12 shrink-0 place-items-center rounded-2xl', tone)}>
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2 text-xs font-medium uppercase tracking-wide text-slate-500">
            {t('status.label')}
            <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold normal-case tracking-normal ring-1', badge)}>
              {t(`status.${status}.badge`)}
            </span>
          </p>
          <h2 id="verification-status-title" className="mt-1.5 text-lg font-semibold text-primary-950">
            {t(`status.${status}.title`)}
          </h2>
          <p className="mt-1 text-sm leading-relaxed text-slate-600">{t(`status.${status}.text`)}</p>
          {verification.submitted_at || verification.reviewed_at ? (
            <p className="mt-2 text-xs text-slate-500">
              {verification.submitted_at
                ? t('status.submitted_at', { date: formatDate(verification.submitted_at, 'longDate', currentLocale()) })
                : null}
              {verification.submitted_at && verification.reviewed_at ? ' · ' : null}
              {verification.reviewed_at
                ? t('status.reviewed_at', { date: formatDate(verification.reviewed_at, 'longDate', currentLocale()) })
                : null}
            </p>
          ) : null}
        </div>
      </div>
      {status === 'rejected' && verification.reason ? (
        <div className="mt-4 rounded-xl bg-red-50 p-3.5 text-sm text-red-900 ring-1 ring-red-200">
          <p className="font-semibold">{t('status.reason')}</p>
          <p className="mt-0.5 whitespace-pre-line">{verification.reason}</p>
        </div>
      ) : null}
    </section>
  );
}
