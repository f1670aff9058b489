import { useTranslation } from 'react-i18next';
import { ArrowLeft, UserPlus } from 'lucide-react';
import type { ReferralFriend } from '@tipcard/shared/referrals/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { ButtonLink } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { ListState } from '../../components/ui/list-state.tsx';
import { Money } from '../../components/ui/money.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useReferralFriends } from './api/use-referrals.ts';

const TONES: Record<ReferralFriend['status'], string> = {
  pending: 'bg-amber-50 text-amber-800 ring-amber-200',
  paid: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  void: 'bg-slate-100 text-slate-600 ring-slate-200',
  taken_back: 'bg-rose-50 text-rose-800 ring-rose-200',
};

/** /referrals/referrals-list: the invited friends with their joined date, status and what they earned so far. */
export default function ReferralsListPage() {
  const { t } = useTranslation('referrals');
  const to = useLocalePath();
  const { clientId } = useMyCard();
  const friends = useReferralFriends(clientId);
  useDocumentTitle(t('list.title'));

  return (
    <div className="mx-auto max-w-4xl">
      <ButtonLink
        to={to('/referrals')}
        variant="ghost"
        size="sm"
        className="-ml-3 mb-2"
        icon={<ArrowLeft className="size-4" aria-hidden="true" />}
      >
        {t('list.back')}
      </ButtonLink>
      <PageHeader title={t('list.title')} description={t('list.description')} />
      <Panel className="py-4! sm:py-5!">
        <ListState
          query={friends}
          loadingLabel={t('list.loading')}
          errorText={t('error')}
          rows={2}
          empty={{
            icon: <UserPlus className="size-7" />,
            title: t('list.empty_title'),
            text: t('list.empty_text'),
            testId: 'referrals-empty',
          }}
        >
          {(items) => (
            <ul aria-label={t('list.title')} className="divide-y divide-slate-100">
              {items.map((friend) => (
                <li key={friend.id} className="flex items-center justify-between gap-3 py-4" data-testid="referral-friend">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-primary-950">{friend.name}</p>
                    <p className="text-sm text-slate-600">
                      {t('list.joined', { date: formatDate(friend.joined_at, 'date', currentLocale()) })}
                    </p>
                  </div>
                  <div className="flex shrink-0 flex-col items-end gap-1">
                    <span className="font-semibold tabular-nums text-primary-950">
                      <Money cents={friend.earned_cents} />
                    </span>
                    <span
                      className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset', TONES[friend.status])}
                    >
                      {t(`status.${friend.status}`)}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </ListState>
      </Panel>
    </div>
  );
}
