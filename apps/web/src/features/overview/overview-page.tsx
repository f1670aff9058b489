import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowRight, ArrowUpRight, Clock, Inbox, Maximize2, Pencil, Star, Wallet } from 'lucide-react';
import type { Card } from '@tipcard/shared/cards/schemas';
import { Avatar } from '../../components/ui/avatar.tsx';
import { HoldReleases } from '../../components/ui/hold-releases.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useStore } from '../../lib/use-store.ts';
import { openModal, uiStore } from '../../lib/ui-store.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useCardQr } from '../../app/session/use-card-qr.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useBalances } from '../../app/session/use-balances.ts';
import { CardModal } from './components/card-modal.tsx';
import { OfflineNotice } from './components/offline-notice.tsx';
import { Money } from '../../components/ui/money.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { firstViewShown } from '../../lib/first-view.ts';
import { useOverviewFigures } from './api/use-overview-figures.ts';
import { OpenableTransactionRow } from '../../components/ui/transaction-row.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';

function BalanceTile({
  label,
  hint,
  cents,
  testId,
  tone,
  icon,
  loading,
  children,
}: {
  label: string;
  hint: string;
  cents: number;
  testId: string;
  tone: 'dark' | 'light';
  icon: ReactNode;
  loading: boolean;
  /** Below the hint: the tile's action or details. */
  children?: ReactNode;
}) {
  const dark = tone === 'dark';
  return (
    <div
      className={
        dark
          ? 'relative overflow-hidden rounded-2xl bg-gradient-to-br from-primary-800 via-primary-900 to-primary-950 p-5 text-white shadow-lg shadow-primary-950/20 sm:p-6'
          : 'rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200/70 sm:p-6'
      }
    >
      {dark ? (
        <div
          className="pointer-events-none absolute -right-10 -top-10 size-40 rounded-full bg-accent-400/10"
          aria-hidden="true"
        />
      ) : null}
      <div className="flex items-center gap-2">
        <span
          className={
            dark
              ? 'grid size-8 place-items-center rounded-lg bg-white/10 text-accent-300'
              : 'grid size-8 place-items-center rounded-lg bg-amber-50 text-amber-600'
          }
        >
          {icon}
        </span>
        <h2 className={dark ? 'text-sm font-medium text-white/80' : 'text-sm font-medium text-slate-600'}>{label}</h2>
      </div>
      <p
        className={
          dark
            ? 'mt-4 text-3xl font-bold tracking-tight tabular-nums sm:text-4xl'
            : 'mt-4 text-3xl font-bold tracking-tight text-primary-950 tabular-nums sm:text-4xl'
        }
      >
        {loading ? <Spinner label={label} /> : <Money cents={cents} testId={testId} className="whitespace-nowrap" />}
      </p>
      <p className={dark ? 'mt-2 text-sm text-white/70' : 'mt-2 text-sm text-slate-500'}>{hint}</p>
      {children}
    </div>
  );
}

function Figure({ label, value, testId, loading }: { label: string; value: ReactNode; testId: string; loading: boolean }) {
  return (
    <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-2 text-xl font-bold tabular-nums text-primary-950" data-testid={testId}>
        {loading ? <Skeleton className="h-7 w-20" /> : value}
      </dd>
    </div>
  );
}

/** Received today / this week / this month, how many tips, the average rating, and the latest lines of the history. */
function ReceivedSummary({ clientId, takesDonations }: { clientId: string | undefined; takesDonations: boolean }) {
  const { t } = useTranslation('overview');
  const to = useLocalePath();
  const figures = useOverviewFigures(clientId);
  const data = figures.data;
  const loading = figures.isPending;
  // Failed figures are unknown rather than zero; the latest lines below say so and offer to try again.
  const shown = (value: ReactNode) => (figures.isError ? '—' : value);
  const rating =
    data?.average_rating != null
      ? t('stats.rating_value', {
          value: new Intl.NumberFormat(currentLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
            data.average_rating,
          ),
        })
      : null;
  return (
    <>
      <section className="mt-5" aria-labelledby="received-title">
        <h2 id="received-title" className="mb-3 text-base font-semibold text-primary-950">
          {t('stats.title')}
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          <Figure
            label={t('stats.today')}
            testId="received-today"
            loading={loading}
            value={shown(<Money cents={data?.received_today_cents ?? 0} />)}
          />
          <Figure
            label={t('stats.week')}
            testId="received-week"
            loading={loading}
            value={shown(<Money cents={data?.received_week_cents ?? 0} />)}
          />
          <Figure
            label={t('stats.month')}
            testId="received-month"
            loading={loading}
            value={shown(<Money cents={data?.received_month_cents ?? 0} />)}
          />
          <Figure label={t('stats.tip_count')} testId="tip-count" loading={loading} value={shown(data?.tip_count ?? 0)} />
          <Figure
            label={t('stats.average_rating')}
            testId="average-rating"
            loading={loading}
            value={shown(
              rating ? (
                <span className="inline-flex items-center gap-1.5">
                  <Star className="size-5 fill-amber-400 text-amber-400" aria-hidden="true" />
                  {rating}
                </span>
              ) : (
                <span className="text-sm font-medium text-slate-500">{t('stats.no_rating')}</span>
              ),
            )}
          />
        </dl>
      </section>
      {takesDonations ? (
        <section className="mt-5" aria-labelledby="monthly-title">
          <h2 id="monthly-title" className="mb-3 text-base font-semibold text-primary-950">
            {t('monthly.title')}
          </h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
            <Figure
              label={t('monthly.donors')}
              testId="monthly-donors"
              loading={loading}
              value={shown(data?.monthly_donations.donors ?? 0)}
            />
            <Figure
              label={t('monthly.total')}
              testId="monthly-total"
              loading={loading}
              value={shown(<Money cents={data?.monthly_donations.total_cents ?? 0} />)}
            />
          </dl>
        </section>
      ) : null}
      <Panel className="mt-5">
        <div className="flex flex-wrap items-center justify-between gap-x-3">
          <h2 className="text-base font-semibold text-primary-950">{t('latest.title')}</h2>
          <ButtonLink
            to={to('/transactions')}
            variant="ghost"
            size="sm"
            className="-mr-3"
            icon={<ArrowRight className="size-4" aria-hidden="true" />}
          >
            {t('latest.all')}
          </ButtonLink>
        </div>
        <ListState
          query={{ isPending: loading, isError: figures.isError, data: data?.latest, refetch: figures.refetch }}
          loadingLabel={t('latest.loading')}
          errorText={t('latest.error')}
          rows={2}
          empty={{ icon: <Inbox className="size-7" />, title: t('latest.empty_title'), text: t('latest.empty_text') }}
        >
          {(latest) => (
            <ul className="divide-y divide-slate-100" data-testid="latest-transactions">
              {latest.map((transaction) => (
                <li key={transaction.id}>
                  <OpenableTransactionRow transaction={transaction} />
                </li>
              ))}
            </ul>
          )}
        </ListState>
      </Panel>
    </>
  );
}

/** The QR card panel; `first`: the lead of a new user's overview, which asks them to print or share it. */
function CardSummary({ card, first = false }: { card: Card; first?: boolean }) {
  const { t } = useTranslation('overview');
  const to = useLocalePath();
  const modalOpen = useStore(uiStore, (state) => state.modals.card);
  const qr = useCardQr(card);
  return (
    <Panel>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
        <div>
          <h2 className="text-base font-semibold text-primary-950">{first ? t('card.first_title') : t('card.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{first ? t('card.first_text') : t('card.subtitle')}</p>
        </div>
        <ButtonLink
          to={to('/account/edit')}
          variant="ghost"
          size="sm"
          className="-ml-3 self-start sm:ml-0"
          icon={<Pencil className="size-4" aria-hidden="true" />}
        >
          {t('card.edit')}
        </ButtonLink>
      </div>
      <div className="mt-5 flex flex-col items-center gap-5 sm:flex-row sm:items-center">
        <button
          type="button"
          onClick={() => openModal('card')}
          className="group relative grid size-44 shrink-0 place-items-center rounded-2xl bg-white p-2 ring-1 ring-slate-200 transition hover:ring-primary-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
        >
          {qr.url ? (
            <img
              src={qr.url}
              alt={t('card.qr_alt', { name: card.public_name })}
              data-testid={modalOpen ? undefined : 'card-qr'}
              className="size-full"
            />
          ) : qr.isError ? (
            <span className="text-sm text-slate-500">{t('card.qr_error')}</span>
          ) : (
            <Spinner className="text-primary-700" label={t('common:loading')} />
          )}
          <span
            className="absolute bottom-2 right-2 grid size-7 place-items-center rounded-lg bg-primary-900/80 text-white opacity-0 transition group-hover:opacity-100 group-focus-visible:opacity-100"
            aria-hidden="true"
          >
            <Maximize2 className="size-3.5" />
          </span>
          <span className="sr-only">{t('card.open')}</span>
        </button>
        <div className="flex w-full min-w-0 flex-1 flex-col items-center gap-3 text-center sm:items-start sm:text-left">
          <div className="flex items-center gap-3">
            <Avatar
              src={card.image_url}
              name={card.public_name}
              alt={t('card.photo_alt', { name: card.public_name })}
              className="size-12 rounded-xl"
            />
            <div className="min-w-0 text-left">
              <p className="truncate font-semibold text-primary-950">{card.title}</p>
              <p className="truncate text-sm text-slate-600">{card.public_name}</p>
            </div>
          </div>
          {card.welcome_phrase ? <p className="text-sm italic text-slate-600">“{card.welcome_phrase}”</p> : null}
          <Button
            variant={first ? 'primary' : 'secondary'}
            onClick={() => openModal('card')}
            icon={<Maximize2 className="size-4" aria-hidden="true" />}
          >
            {first ? t('card.print_or_share') : t('card.open')}
          </Button>
        </div>
      </div>
    </Panel>
  );
}

export default function OverviewPage() {
  const { t } = useTranslation('overview');
  const { card, clientId, me } = useMyCard();
  const balance = useBalances(clientId);
  // The balances are the first view (lib/first-view.ts): what waited for them starts; leaving before them too.
  useEffect(() => {
    if (!balance.isPending) firstViewShown();
  }, [balance.isPending]);
  useEffect(() => firstViewShown, []);
  const to = useLocalePath();
  // Nothing received yet: the QR card comes first, since showing it is how the first tip arrives. Until the figures
  // say which, the card waits, rather than start below and move up (and fetch its QR code twice).
  const figures = useOverviewFigures(clientId);
  const isNew = figures.data?.latest.length === 0;
  useDocumentTitle(t('title'));
  const name = card?.public_name ?? me?.public_name;

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title={name ? t('greeting', { name }) : t('title')} description={t('description')} />
      <OfflineNotice updatedAt={balance.updatedAt} />
      {card && isNew ? (
        <div className="mb-5" data-testid="first-card">
          <CardSummary card={card} first />
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <BalanceTile
          tone="dark"
          label={t('balance.main')}
          hint={t('balance.main_hint')}
          cents={balance.main}
          testId="balance-main"
          loading={balance.isPending}
          icon={<Wallet className="size-4" aria-hidden="true" />}
        >
          <ButtonLink
            to={to('/payouts?withdraw=1')}
            variant="light"
            className="relative mt-4 w-full sm:w-auto"
            icon={<ArrowUpRight className="size-5" aria-hidden="true" />}
          >
            {t('balance.withdraw')}
          </ButtonLink>
        </BalanceTile>
        <BalanceTile
          tone="light"
          label={t('balance.hold')}
          hint={t('balance.hold_hint')}
          cents={balance.hold}
          testId="balance-hold"
          loading={balance.isPending}
          icon={<Clock className="size-4" aria-hidden="true" />}
        >
          <HoldReleases releases={balance.holdReleases} className="mt-3 text-slate-700" />
        </BalanceTile>
      </div>
      <ReceivedSummary clientId={clientId} takesDonations={card?.activity_type === 'DONATION'} />
      {card && !figures.isPending && !isNew ? (
        <div className="mt-5">
          <CardSummary card={card} />
        </div>
      ) : null}
      {card ? <CardModal card={card} /> : null}
    </div>
  );
}
