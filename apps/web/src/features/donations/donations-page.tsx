import { useTranslation } from 'react-i18next';
import { HeartHandshake } from 'lucide-react';
import type { Donation } from '@tipcard/shared/donations/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { cn } from '../../components/ui/cn.ts';
import { Money } from '../../components/ui/money.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useDonations } from './api/use-donations.ts';

function DonationRow({ donation }: { donation: Donation }) {
  const { t } = useTranslation('donations');
  const refunded = donation.status === 'refunded';
  return (
    <li className="py-4" data-testid="donation-row">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-words font-medium text-primary-950">{donation.donor_name}</p>
          <p className="mt-0.5 break-all text-sm text-slate-600">{donation.donor_email}</p>
          <p className="mt-0.5 text-sm text-slate-600">{t('row.code', { code: donation.donor_code })}</p>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
            <span className="inline-flex rounded-full bg-primary-50 px-2.5 py-0.5 font-semibold text-primary-800 ring-1 ring-primary-100">
              {t(`kind.${donation.kind}`)}
            </span>
            {donation.plan === 'paused' || donation.plan === 'ended' ? (
              <span
                className="inline-flex rounded-full bg-slate-100 px-2.5 py-0.5 font-semibold text-slate-600 ring-1 ring-slate-200"
                data-testid="donation-plan"
              >
                {t(`plan.${donation.plan}`)}
              </span>
            ) : null}
            {refunded ? (
              <span className="inline-flex rounded-full bg-slate-100 px-2.5 py-0.5 font-semibold text-slate-600 ring-1 ring-slate-200">
                {t('row.refunded')}
              </span>
            ) : null}
            <span>{formatDate(donation.created_at, 'listDate', currentLocale())}</span>
          </p>
        </div>
        <Money
          cents={donation.amount_cents}
          className={cn(
            'shrink-0 whitespace-nowrap text-lg font-bold tabular-nums text-primary-950',
            refunded && 'text-slate-400 line-through',
          )}
        />
      </div>
    </li>
  );
}

/** Who gave, for the recipient's receipts: each donation with the donor's name, e-mail and code. */
export default function DonationsPage() {
  const { t } = useTranslation('donations');
  const { clientId } = useMyCard();
  const donations = useDonations(clientId);
  useDocumentTitle(t('title'));
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('title')} description={t('description')} />
      <Panel className="py-4! sm:py-5!">
        <ListState
          query={donations}
          loadingLabel={t('loading')}
          errorText={t('error')}
          empty={{
            icon: <HeartHandshake className="size-7" />,
            title: t('empty_title'),
            text: t('empty_text'),
            testId: 'donations-empty',
          }}
        >
          {(items) => (
            <ul aria-label={t('title')} className="divide-y divide-slate-100">
              {items.map((donation) => (
                <DonationRow key={donation.id} donation={donation} />
              ))}
            </ul>
          )}
        </ListState>
      </Panel>
    </div>
  );
}
