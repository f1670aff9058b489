import { useTranslation } from 'react-i18next';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { currentLocale } from '../../lib/i18n.ts';
import { formatEuro } from '../../lib/format-euro.ts';
import { cn } from './cn.ts';

/** Each amount on hold with the date and time it becomes available, earliest first (the balances answer's order). */
export function HoldReleases({
  releases,
  className,
}: {
  releases: { amount_cents: number; release_at: string }[];
  className?: string;
}) {
  const { t } = useTranslation();
  if (releases.length === 0) return null;
  return (
    <ul
      aria-label={t('hold_releases.label')}
      className={cn('space-y-0.5 text-sm tabular-nums', className)}
      data-testid="hold-releases"
    >
      {releases.map((release) => (
        <li key={release.release_at}>
          {t('hold_releases.line', {
            amount: formatEuro(release.amount_cents),
            date: formatDate(release.release_at, 'dateTime', currentLocale()),
          })}
        </li>
      ))}
    </ul>
  );
}
