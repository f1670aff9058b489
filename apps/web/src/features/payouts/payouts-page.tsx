import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ArrowUpRight, CalendarClock, Clock, Inbox, Plus, Settings2, Wallet } from 'lucide-react';
import { PAYOUT_FEE_CENTS, PAYOUT_MIN_CENTS } from '@tipcard/shared/payouts/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Money } from '../../components/ui/money.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { ListState, LoadError } from '../../components/ui/list-state.tsx';
import { HoldReleases } from '../../components/ui/hold-releases.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { formatEuro } from '../../lib/format-euro.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useBalances } from '../../app/session/use-balances.ts';
import { usePayoutMethods, usePayouts, usePayoutTerms } from './api/use-payouts.ts';
import { MethodSummary } from './components/payout-method-card.tsx';
import { PayoutRow } from './components/payout-row.tsx';
import { PayoutSchedulePanel } from './components/payout-schedule-panel.tsx';
import { WithdrawDialog } from './components/withdraw-dialog.tsx';

function BalanceCard({
  main,
  hold,
  holdReleases,
  loading,
  onWithdraw,
}: {
  main: number;
  hold: number;
  holdReleases: { amount_cents: number; release_at: string }[];
  loading: boolean;
  onWithdraw: () => void;
}) {
  const { t } = useTranslation('payouts');
  return (
    <section
      aria-labelledby="payout-balance-title"
      className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-primary-800 via-primary-900 to-primary-950 p-5 text-white shadow-lg shadow-primary-950/20 sm:p-6"
    >
      <div className="pointer-events-none absolute -right-12 -top-12 size-44 rounded-full bg-accent-400/10" aria-hidden="true" />
      <div className="pointer-events-none absolute -bottom-16 right-16 size-32 rounded-full bg-white/5" aria-hidden="true" />
      <div className="relative flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <div className="flex items-center gap-2">
            <span className="grid size-8 place-items-center rounded-lg bg-white/10 text-accent-300" aria-hidden="true">
              <Wallet className="size-4" />
            </span>
            <h2 id="payout-balance-title" className="text-sm font-medium text-white/80">
              {t('balance.label')}
            </h2>
          </div>
          <p className="mt-4 text-4xl font-bold tracking-tight tabular-nums">
            {loading ? (
              <Spinner label={t('balance.label')} />
            ) : (
              <Money cents={main} testId="payouts-balance-main" className="whitespace-nowrap" />
            )}
          </p>
          <p className="mt-2 flex items-center gap-1.5 text-sm text-white/70">
            <Clock className="size-4" aria-hidden="true" />
            {hold > 0 ? t('balance.hold', { amount: formatEuro(hold) }) : t('balance.no_hold')}
          </p>
          {hold > 0 ? <HoldReleases releases={holdReleases} className="mt-1 pl-5.5 text-white/80" /> : null}
        </div>
        <Button
          variant="light"
          size="lg"
          className="w-full sm:w-auto"
          onClick={onWithdraw}
          disabled={loading}
          icon={<ArrowUpRight className="size-5" aria-hidden="true" />}
        >
          {t('withdraw')}
        </Button>
      </div>
      <p className="relative mt-5 border-t border-white/10 pt-4 text-xs text-white/70">
        {t('balance.terms', { min: formatEuro(PAYOUT_MIN_CENTS), fee: formatEuro(PAYOUT_FEE_CENTS) })}
      </p>
    </section>
  );
}

function PayoutAccount({ clientId, arrival }: { clientId: string | undefined; arrival: string | undefined }) {
  const { t } = useTranslation('payouts');
  const to = useLocalePath();
  const methods = usePayoutMethods(clientId);
  const method = methods.data?.[0];
  return (
    <Panel>
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-base font-semibold text-primary-950">{t('methods.title')}</h2>
        {method ? (
          <ButtonLink
            to={to('/settings/payout')}
            variant="ghost"
            size="sm"
            className="-mr-3"
            icon={<Settings2 className="size-4" aria-hidden="true" />}
          >
            {t('methods.manage')}
          </ButtonLink>
        ) : null}
      </div>
      <div className="mt-4">
        {methods.isPending ? (
          <div role="status" aria-label={t('methods.loading')} className="flex items-center gap-3">
            <Skeleton className="size-10 rounded-xl" />
            <Skeleton className="h-4 w-48" />
          </div>
        ) : methods.isError ? (
          <LoadError text={t('methods.error')} onRetry={methods.refetch} />
        ) : method ? (
          <MethodSummary method={method} />
        ) : (
          <div className="flex flex-col items-start gap-3">
            <p className="text-sm text-slate-600">{t('methods.none')}</p>
            <ButtonLink to={to('/payouts/add-method')} variant="secondary" icon={<Plus className="size-4" aria-hidden="true" />}>
              {t('methods.add')}
            </ButtonLink>
          </div>
        )}
      </div>
      {method && arrival ? (
        <p
          className="mt-5 flex items-center gap-2 border-t border-slate-100 pt-4 text-sm text-slate-600"
          data-testid="arrival-hint"
        >
          <CalendarClock className="size-4 shrink-0 text-primary-700" aria-hidden="true" />
          {t('methods.arrival_hint', { date: formatDate(arrival, 'longDay', currentLocale(), { timeZone: 'UTC' }) })}
        </p>
      ) : null}
    </Panel>
  );
}

function History({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation('payouts');
  const payouts = usePayouts(clientId);
  return (
    <Panel className="py-4! sm:py-5!">
      <h2 className="text-base font-semibold text-primary-950">{t('history.title')}</h2>
      <ListState
        query={payouts}
        loadingLabel={t('history.loading')}
        errorText={t('history.error')}
        empty={{
          icon: <Inbox className="size-7" />,
          title: t('history.empty_title'),
          text: t('history.empty_text'),
          testId: 'payouts-empty',
        }}
      >
        {(items) => (
          <ul
            aria-label={t('history.list_label')}
            className="divide-y divide-slate-100"
            aria-busy={payouts.isFetching || undefined}
          >
            {items.map((payout) => (
              <li key={payout.id}>
                <PayoutRow payout={payout} />
              </li>
            ))}
          </ul>
        )}
      </ListState>
    </Panel>
  );
}

export default function PayoutsPage() {
  const { t } = useTranslation('payouts');
  const { clientId } = useMyCard();
  const balance = useBalances(clientId);
  const methods = usePayoutMethods(clientId);
  const [search, setSearch] = useSearchParams();
  const withdrawing = search.get('withdraw') === '1';
  // Back from adding an account in the middle of a withdrawal: the amount typed before, and the new account.
  const resumeCents = Number(search.get('amount'));
  const resume =
    Number.isSafeInteger(resumeCents) && resumeCents > 0 ? { cents: resumeCents, methodId: search.get('method') } : null;
  const terms = usePayoutTerms(clientId);
  useDocumentTitle(t('title'));

  const setWithdrawing = (open: boolean) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (open) next.set('withdraw', '1');
        else for (const key of ['withdraw', 'amount', 'method']) next.delete(key);
        return next;
      },
      { replace: !open },
    );

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title={t('title')} description={t('description')} />
      <div className="grid gap-4 lg:grid-cols-[1.3fr_1fr]">
        <BalanceCard
          main={balance.main}
          hold={balance.hold}
          holdReleases={balance.holdReleases}
          loading={balance.isPending}
          onWithdraw={() => setWithdrawing(true)}
        />
        <PayoutAccount clientId={clientId} arrival={terms.data?.expected_arrival} />
      </div>
      <div className="mt-5">
        <PayoutSchedulePanel clientId={clientId} methods={methods.data ?? []} methodsPending={methods.isPending} />
      </div>
      <div className="mt-5">
        <History clientId={clientId} />
      </div>
      <WithdrawDialog
        open={withdrawing && !balance.isPending && !methods.isPending}
        onClose={() => setWithdrawing(false)}
        clientId={clientId}
        mainCents={balance.main}
        methods={methods.data ?? []}
        terms={terms.data}
        resume={resume}
      />
    </div>
  );
}
