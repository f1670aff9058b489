import { useTranslation } from 'react-i18next';
import { WifiOff } from 'lucide-react';
import { currentLocale } from '../../../lib/i18n.ts';
import { useOnline } from '../../../lib/use-online.ts';

/** "14:05" for a time today, "26 Nov, 14:05" for an older one, in the reader's language and the device's time zone. */
function asOf(time: number, now = new Date()): string {
  const at = new Date(time);
  const today = at.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(currentLocale(), {
    ...(today ? {} : { day: 'numeric', month: 'short' }),
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);
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
