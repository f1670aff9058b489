import { useTranslation } from 'react-i18next';
import { Bell, Check, CheckCheck } from 'lucide-react';
import type { Notice } from '@tipcard/shared/notices/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { ListState } from '../../components/ui/list-state.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useMarkNoticesRead, useNotices } from './api/use-notices.ts';
import { noticeText } from '@tipcard/shared/notices/notice-text';

function NoticeRow({ notice, onRead, reading }: { notice: Notice; onRead: () => void; reading: boolean }) {
  const { t } = useTranslation();
  const unread = notice.read_at === null;
  return (
    <li className={cn('py-4', unread && 'font-medium')} data-testid="notice-row" data-unread={unread}>
      <div className="flex items-start gap-3">
        <span
          className={cn('mt-1.5 size-2.5 shrink-0 rounded-full', unread ? 'bg-accent-500' : 'bg-transparent')}
          aria-hidden="true"
        />
        <div className="min-w-0 flex-1">
          <p className="break-words text-sm text-slate-900">
            {unread ? (
              <span
                className="mr-2 inline-flex rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
                data-testid="notice-new"
              >
                {t('notices.new')}
              </span>
            ) : null}
            {noticeText(notice, t, currentLocale())}
          </p>
          <p className="mt-1 text-xs font-normal text-slate-500">{formatDate(notice.created_at, 'dateTime', currentLocale())}</p>
        </div>
      </div>
      {unread ? (
        <div className="mt-2 flex justify-end">
          <Button
            variant="ghost"
            size="sm"
            onClick={onRead}
            loading={reading}
            icon={<Check className="size-4" aria-hidden="true" />}
          >
            {t('notices.mark_read')}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/**
 * The user's notices (issue 29): what a team's admin decided about them, newest first, each kept until marked read.
 * A notice arriving while the page is open joins the list at once (the live event refreshes it).
 */
export default function NoticesPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { clientId } = useMyCard();
  const notices = useNotices(clientId);
  const markRead = useMarkNoticesRead(clientId);
  useDocumentTitle(t('notices.title'));
  const unread = notices.data?.unread ?? 0;
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('notices.title')}
        description={t('notices.intro')}
        actions={
          unread > 0 ? (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => markRead.mutate('all')}
              loading={markRead.isPending && markRead.variables === 'all'}
              icon={<CheckCheck className="size-4" aria-hidden="true" />}
            >
              {t('notices.mark_all_read')}
            </Button>
          ) : null
        }
      />
      <Panel className="py-2! sm:py-3!">
        <ListState
          query={{ ...notices, data: notices.data?.notices }}
          loadingLabel={t('notices.loading')}
          errorText={t('notices.error')}
          empty={{
            icon: <Bell className="size-7" />,
            title: t('notices.empty'),
            text: t('notices.empty_text'),
            testId: 'notices-empty',
          }}
        >
          {(items) => (
            <ul aria-label={t('notices.list')} className="divide-y divide-slate-100">
              {items.map((notice) => (
                <NoticeRow
                  key={notice.id}
                  notice={notice}
                  onRead={() => markRead.mutate(notice.id)}
                  reading={markRead.isPending && markRead.variables === notice.id}
                />
              ))}
            </ul>
          )}
        </ListState>
      </Panel>
      <p className="mt-4 text-sm">
        <ButtonLink to={to('/workplace')} variant="ghost" size="sm">
          {t('notices.open_workplace')}
        </ButtonLink>
      </p>
    </div>
  );
}
