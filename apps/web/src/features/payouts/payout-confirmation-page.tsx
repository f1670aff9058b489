import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, CheckCircle2, CircleDashed, MessageSquareText, Send, Undo2 } from 'lucide-react';
import { OTP_LENGTH } from '@tipcard/shared/constants';
import type { Payout } from '@tipcard/shared/payouts/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { TextField } from '../../components/ui/field.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { ApiError, apiErrorText, authFailureOf } from '../../lib/api-errors.ts';
import { formatEuro } from '../../lib/format-euro.ts';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useCountdown } from '../../lib/use-countdown.ts';
import { useConfirmPayout, usePayout, useResendPayoutCode } from './api/use-payouts.ts';
import { PayoutStatusBadge } from './components/payout-status-badge.tsx';
import { PayoutSummary } from './components/payout-summary.tsx';
import { shortMask } from './format.ts';

/** The code form's message for a failed confirmation (spec 8: 403 wrong code, 429 too many attempts). */
function confirmErrorText(error: unknown, t: (key: string, options?: Record<string, unknown>) => string): string {
  const failure = authFailureOf(error);
  if (failure.key === 'wrong_code' || failure.key === 'too_many_attempts' || failure.key === 'not_blank')
    return t(`auth:errors.${failure.key}`);
  if (error instanceof ApiError && error.body?.errors[0]) return apiErrorText(error);
  return t('auth:errors.contact_support');
}

function CodeStep({ payout, clientId, loadedAt }: { payout: Payout; clientId: string | undefined; loadedAt: number }) {
  const { t } = useTranslation('payouts');
  const to = useLocalePath();
  const confirm = useConfirmPayout(clientId, payout.id);
  const resend = useResendPayoutCode(payout.id);
  const [resendAt, setResendAt] = useState(() => loadedAt + (payout.resend_after_seconds ?? 0) * 1000);
  const secondsLeft = useCountdown(resendAt);
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    formState: { errors },
  } = useForm<{ code: string }>({ defaultValues: { code: '' } });

  const onSubmit = handleSubmit(({ code }) =>
    confirm.mutate(code.replace(/\s/g, ''), {
      // A refused code is of no more use: the field is emptied and focused for the next try, with the reason kept.
      onError: (error) => {
        resetField('code');
        setError('code', { message: confirmErrorText(error, t) }, { shouldFocus: true });
      },
    }),
  );

  function onResend() {
    resend.mutate(undefined, {
      onSuccess: (fresh) => {
        setResendAt(Date.now() + (fresh?.resend_after_seconds ?? 60) * 1000);
        showSnackbar(t('confirm.resent'), 'success');
      },
      onError: (error) => {
        const failure = authFailureOf(error);
        if (failure.key === 'wait' && failure.seconds) setResendAt(Date.now() + failure.seconds * 1000);
        else showSnackbar(error instanceof ApiError ? apiErrorText(error) : t('auth:errors.contact_support'));
      },
    });
  }

  return (
    <div className="grid gap-5 lg:grid-cols-[1fr_1fr]">
      <Panel>
        <div className="flex items-start gap-3">
          <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-primary-50 text-primary-700" aria-hidden="true">
            <MessageSquareText className="size-5" />
          </span>
          <div>
            <h2 className="text-base font-semibold text-primary-950">{t('confirm.code_title')}</h2>
            <p className="mt-1 text-sm text-slate-600">{t('confirm.code_text')}</p>
          </div>
        </div>
        <form noValidate onSubmit={onSubmit} className="mt-5 space-y-4">
          <TextField
            label={t('confirm.code_label')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={OTP_LENGTH + 2}
            placeholder="••••••"
            autoFocus
            className="[&_input]:h-14 [&_input]:text-center [&_input]:text-2xl [&_input]:font-semibold [&_input]:tracking-[0.5em]"
            error={errors.code?.message}
            hint={
              payout.code_expires_at
                ? t('confirm.valid_until', { time: formatDate(payout.code_expires_at, 'dateTime', currentLocale()) })
                : undefined
            }
            {...register('code', { validate: (value) => value.replace(/\s/g, '').length > 0 || t('auth:errors.not_blank') })}
          />
          <Button type="submit" block size="lg" loading={confirm.isPending}>
            {t('confirm.submit', { amount: formatEuro(payout.amount_cents) })}
          </Button>
        </form>
        <div className="mt-4 flex flex-col items-center gap-2 text-sm">
          {secondsLeft > 0 ? (
            <p className="text-slate-600" aria-live="off">
              {t('confirm.resend_in', { seconds: secondsLeft })}
            </p>
          ) : (
            <Button variant="ghost" size="sm" onClick={onResend} loading={resend.isPending}>
              {t('confirm.resend')}
            </Button>
          )}
          <ButtonLink to={to('/payouts')} variant="ghost" size="sm" icon={<ArrowLeft className="size-4" aria-hidden="true" />}>
            {t('confirm.back')}
          </ButtonLink>
        </div>
      </Panel>
      <Panel className="h-fit">
        <h2 className="text-base font-semibold text-primary-950">{t('confirm.details_title')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('confirm.details_text', { holder: payout.method.holder })}</p>
        <PayoutSummary
          className="mt-4"
          amountCents={payout.amount_cents}
          feeCents={payout.fee_cents}
          account={<span data-testid="confirm-account">{shortMask(payout.method.masked_account)}</span>}
          arrival={formatDate(payout.expected_arrival, 'day', currentLocale(), { timeZone: 'UTC' })}
        />
      </Panel>
    </div>
  );
}

const OUTCOMES = {
  in_flight: { icon: Send, tone: 'bg-sky-50 text-sky-700 ring-sky-100' },
  paid: { icon: CheckCircle2, tone: 'bg-emerald-50 text-emerald-700 ring-emerald-100' },
  returned: { icon: Undo2, tone: 'bg-rose-50 text-rose-700 ring-rose-100' },
  expired: { icon: CircleDashed, tone: 'bg-slate-100 text-slate-600 ring-slate-200' },
} as const;

/** After the code: on its way (in flight, then paid), or what happened instead (returned, expired). */
function Outcome({ payout }: { payout: Payout }) {
  const { t } = useTranslation('payouts');
  const to = useLocalePath();
  const status = payout.status === 'awaiting_confirmation' ? 'in_flight' : payout.status;
  const { icon: Icon, tone } = OUTCOMES[status];
  return (
    <Panel className="mx-auto max-w-lg text-center">
      <div role="status" aria-live="polite" data-testid="payout-outcome" data-status={payout.status}>
        <span className={cn('mx-auto grid size-16 place-items-center rounded-full ring-8', tone)} aria-hidden="true">
          <Icon className="size-8" />
        </span>
        <h2 className="mt-5 text-xl font-bold text-primary-950">{t(`outcome.${status}.title`)}</h2>
        <p className="mx-auto mt-2 max-w-sm text-sm text-slate-600">
          {t(`outcome.${status}.text`, {
            amount: formatEuro(payout.amount_cents),
            date: formatDate(payout.expected_arrival, 'longDay', currentLocale(), { timeZone: 'UTC' }),
            fee: formatEuro(payout.fee_cents),
          })}
        </p>
        {payout.status === 'returned' ? (
          <p className="mx-auto mt-2 max-w-sm text-sm font-medium text-rose-800" data-testid="outcome-return-reason">
            {t('outcome.returned.reason', { reason: t(`return_reasons.${payout.return_reason ?? 'unknown'}`) })}
          </p>
        ) : null}
      </div>
      <p className="mt-5 text-4xl font-bold tracking-tight tabular-nums text-primary-950" data-testid="outcome-amount">
        {formatEuro(payout.amount_cents)}
      </p>
      <div className="mt-3 flex justify-center">
        <PayoutStatusBadge status={payout.status} />
      </div>
      <dl className="mt-6 divide-y divide-slate-100 rounded-xl bg-slate-50 px-4 py-1 text-left text-sm ring-1 ring-inset ring-slate-200/70">
        <div className="flex justify-between gap-4 py-2.5">
          <dt className="text-slate-600">{t('summary.to')}</dt>
          <dd className="min-w-0 truncate font-mono text-slate-900">{shortMask(payout.method.masked_account)}</dd>
        </div>
        <div className="flex justify-between gap-4 py-2.5">
          <dt className="text-slate-600">{payout.status === 'paid' ? t('summary.paid') : t('summary.arrival')}</dt>
          <dd className="font-medium text-slate-900" data-testid="outcome-arrival">
            {formatDate(
              payout.status === 'paid' && payout.paid_at ? payout.paid_at : payout.expected_arrival,
              'day',
              currentLocale(),
              { timeZone: 'UTC' },
            )}
          </dd>
        </div>
        <div className="flex justify-between gap-4 py-2.5">
          <dt className="text-slate-600">{t('summary.fee')}</dt>
          <dd className="tabular-nums text-slate-900">{formatEuro(payout.fee_cents)}</dd>
        </div>
      </dl>
      <ButtonLink to={to('/payouts')} block size="lg" className="mt-6">
        {t('outcome.done')}
      </ButtonLink>
    </Panel>
  );
}

export default function PayoutConfirmationPage() {
  const { t } = useTranslation('payouts');
  const { payoutId } = useParams();
  const { clientId } = useMyCard();
  const payout = usePayout(payoutId);
  useDocumentTitle(t('confirm.title'));
  const data = payout.data;

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={data && data.status !== 'awaiting_confirmation' ? t('outcome.page_title') : t('confirm.title')}
        description={data?.status === 'awaiting_confirmation' ? t('confirm.description') : undefined}
      />
      {payout.isPending ? (
        <div className="grid place-items-center py-16">
          <Spinner className="text-primary-700" label={t('confirm.loading')} />
        </div>
      ) : !data ? (
        <Panel className="text-center">
          <p className="text-slate-700">{t('confirm.not_found')}</p>
        </Panel>
      ) : data.status === 'awaiting_confirmation' ? (
        <CodeStep key={data.id} payout={data} clientId={clientId} loadedAt={payout.dataUpdatedAt} />
      ) : (
        <Outcome payout={data} />
      )}
    </div>
  );
}
