import { useTranslation } from 'react-i18next';
import { WifiOff } from 'lucide-react';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { currentLocale } from '../../../lib/i18n.ts';
import { useOnline } from '../../../lib/use-online.ts';

/** The time alone for a moment today ("2:05 PM", "14:05"), with its date otherwise, in the reader's language and zone. */
function asOf(time: number, now = new Date()): string {
  const at = new Date(time);
  return formatDate(at, at.toDateString() === now.toDateString() ? 'time' : 'dateTime', currentLocale(), { now });
}

/**
 * Offline, the balances shown are the last ones fetched (kept on the device, decision 0046): the overview says so and
 * when they are from, as a status a screen reader announces. `updatedAt`: when the balances were fetched (0: never).
 */
export function OfflineNotice({ updatedAt }: { updatedAt: number }) {
  const { t } = useTranslation();
  const online = useOnline();
  if (online || !updatedAt) return null;
  return (
    <p
      role="status"
      data-testid="offline-notice"
      className="mb-4 flex items-center gap-2 rounded-xl bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 ring-1 ring-amber-200"
    >
      <WifiOff className="size-4 shrink-0" aria-hidden="true" />
      {t('offline.notice', { time: asOf(updatedAt) })}
    </p>
  );
}
