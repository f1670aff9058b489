import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BellRing, X } from 'lucide-react';
import type { LiveEvent } from '@tipcard/shared/live/schemas';
import { formatEuro } from '../../lib/format-euro.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { noticeText } from '@tipcard/shared/notices/notice-text';
import { useLiveEvents } from '../session/use-live-events.ts';

/** Notices shown at once; an older one gives way to a newer. */
const MAX_NOTICES = 3;
const NOTICE_MS = 12_000;

type Translate = (key: string, vars?: Record<string, string>) => string;

/** The notice's sentence in the reader's language, the amount by the shared money formatter. */
export function liveNoticeText(event: LiveEvent, t: Translate): string {
  if (event.type === 'notice') return noticeText(event.notice, t, currentLocale());
  const amount = formatEuro(event.amount_cents);
  if (event.type === 'released') return t('live.released', { amount });
  if (event.type === 'payout') return t(`live.payout_${event.status}`, { amount });
  if (event.label === null) return t(`live.credit_${event.kind}`, { amount });
  return t(`live.credit_${event.kind}_from`, { amount, name: event.label });
}

/**
 * The signed-in app's live notices (issue 30): a polite live region, so a screen reader says "€4.75 from a guest at
 * Café Rīga" when it is free, and focus stays where the user is; each notice can be closed, and goes by itself.
 */
export function LiveNotices({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation();
  const [notices, setNotices] = useState<{ key: string; text: string }[]>([]);
  const dismiss = (key: string) => setNotices((current) => current.filter((notice) => notice.key !== key));
  const onEvent = useCallback(
    (event: LiveEvent) => {
      const text = liveNoticeText(event, (key, vars) => t(key, vars));
      setNotices((current) => [...current, { key: `${event.seq}`, text }].slice(-MAX_NOTICES));
    },
    [t],
  );
  useLiveEvents(clientId, onEvent);

  const oldest = notices[0]?.key;
  useEffect(() => {
    if (!oldest) return;
    const timer = setTimeout(() => dismiss(oldest), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [oldest]);

  return (
    <section
      aria-label={t('live.region')}
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-16 z-40 flex flex-col items-center gap-2 p-3 sm:items-end sm:px-6"
    >
      {notices.map((notice) => (
        <div
          key={notice.key}
          data-testid="live-notice"
          className="pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border border-emerald-200 bg-white px-4 py-3 text-sm font-medium text-slate-900 shadow-lg"
        >
          <BellRing className="mt-px size-5 shrink-0 text-emerald-700" aria-hidden="true" />
          <p className="min-w-0 flex-1 break-words">{notice.text}</p>
          <button
            type="button"
            onClick={() => dismiss(notice.key)}
            className="-m-1 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
          >
            <X className="size-4" aria-hidden="true" />
            <span className="sr-only">{t('live.dismiss')}</span>
          </button>
        </div>
      ))}
    </section>
  );
}
