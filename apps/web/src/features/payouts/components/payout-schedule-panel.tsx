import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, CalendarSync, History } from 'lucide-react';
import type { Locale } from '@tipcard/shared/constants';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import { decimalAmount } from '@tipcard/shared/money/format';
import { PAYOUT_FEE_CENTS, PAYOUT_MIN_CENTS, type PayoutMethod } from '@tipcard/shared/payouts/schemas';
import {
  SCHEDULE_THRESHOLD_MAX_CENTS,
  SCHEDULE_THRESHOLD_MIN_CENTS,
  type PayoutScheduleBody,
  type PayoutScheduleState,
} from '@tipcard/shared/payouts/schedules';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { LoadError } from '../../../components/ui/list-state.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { ApiError, apiErrorText, authFailureOf } from '../../../lib/api-errors.ts';
import { formatEuro } from '../../../lib/format-euro.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import {
  useCancelPayoutSchedule,
  useConfirmPayoutSchedule,
  usePayoutSchedule,
  useSetPayoutSchedule,
} from '../api/use-payout-schedule.ts';
import { shortMask } from '../format.ts';

type Schedule = NonNullable<PayoutScheduleState['schedule']>;
type Rule = Pick<Schedule, 'kind' | 'weekday' | 'month_day' | 'threshold_cents'>;

/** The weekday's name in the reader's language (ISO 1 = Monday); 1 January 2024 was a Monday. */
const weekdayName = (weekday: number, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, weekday));

function useRuleText() {
  const { t } = useTranslation('payouts');
  const locale = currentLocale();
  return (rule: Rule) =>
    rule.kind === 'weekly'
      ? t('schedule.rule.weekly', { weekday: weekdayName(rule.weekday!, locale) })
      : rule.kind === 'monthly'
        ? t('schedule.rule.monthly', { day: rule.month_day })
        : t('schedule.rule.threshold', { amount: formatEuro(rule.threshold_cents!) });
}

/** The error a request's answer carries, in words; the code form maps its own (wrong code, too many attempts). */
const errorText = (error: unknown, t: (key: string) => string) =>
  error instanceof ApiError && error.body?.errors[0] ? apiErrorText(error) : t('auth:errors.contact_support');

interface FormValues {
  kind: Schedule['kind'];
  weekday: string;
  month_day: string;
  threshold: string;
  method_id: string;
}

/** The schedule's rule and account; sending it texts the code that puts it in force. */
function ScheduleForm({
  clientId,
  methods,
  current,
  onCancel,
}: {
  clientId: string | undefined;
  methods: PayoutMethod[];
  current: Schedule | null;
  onCancel: () => void;
}) {
  const { t } = useTranslation('payouts');
  const locale = currentLocale();
  const set = useSetPayoutSchedule(clientId);
  const liveMethod = methods.find((method) => method.id === current?.method.id);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<FormValues>({
    defaultValues: {
      kind: current?.kind ?? 'weekly',
      weekday: String(current?.weekday ?? 1),
      month_day: String(current?.month_day ?? 1),
      threshold: current?.threshold_cents ? decimalAmount(current.threshold_cents) : '',
      method_id: (liveMethod ?? methods.find((method) => method.is_default) ?? methods[0])?.id ?? '',
    },
  });
  const kind = useWatch({ control, name: 'kind' });
  const thresholdCents = (text: string) => parseAmountInput(text, { euroSign: true });

  const onSubmit = handleSubmit((values) => {
    const body: PayoutScheduleBody =
      values.kind === 'weekly'
        ? { kind: 'weekly', weekday: Number(values.weekday), method_id: values.method_id }
        : values.kind === 'monthly'
          ? { kind: 'monthly', month_day: Number(values.month_day), method_id: values.method_id }
          : { kind: 'threshold', threshold_cents: thresholdCents(values.threshold)!, method_id: values.method_id };
    set.mutate(body, { onError: (error) => showSnackbar(errorText(error, t)) });
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label={t('schedule.form.label')}>
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-800">{t('schedule.form.kind')}</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {(['weekly', 'monthly', 'threshold'] as const).map((option) => (
            <label
              key={option}
              className="flex cursor-pointer items-center gap-2 rounded-xl border border-slate-200 bg-white p-3 text-sm has-[input:checked]:border-primary-600 has-[input:checked]:bg-primary-50/50 has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-accent-400"
            >
              <input type="radio" value={option} className="size-5 shrink-0 accent-primary-800" {...register('kind')} />
              {t(`schedule.form.${option}`)}
            </label>
          ))}
        </div>
      </fieldset>
      {kind === 'weekly' ? (
        <SelectField
          label={t('schedule.form.weekday')}
          options={[1, 2, 3, 4, 5, 6, 7].map((day) => ({ value: String(day), label: weekdayName(day, locale) }))}
          {...register('weekday')}
        />
      ) : kind === 'monthly' ? (
        <SelectField
          label={t('schedule.form.month_day')}
          hint={t('schedule.form.month_day_hint')}
          options={Array.from({ length: 31 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }))}
          {...register('month_day')}
        />
      ) : (
        <TextField
          label={t('schedule.form.threshold_amount')}
          prefix={<span className="font-semibold text-slate-500">€</span>}
          inputMode="decimal"
          autoComplete="off"
          className="[&_input]:pl-8"
          hint={t('schedule.form.threshold_hint', { min: formatEuro(SCHEDULE_THRESHOLD_MIN_CENTS) })}
          error={errors.threshold?.message}
          {...register('threshold', {
            validate: (value) => {
              const cents = thresholdCents(value);
              return (
                (cents !== null && cents >= SCHEDULE_THRESHOLD_MIN_CENTS && cents <= SCHEDULE_THRESHOLD_MAX_CENTS) ||
                t('schedule.form.threshold_error', {
                  min: formatEuro(SCHEDULE_THRESHOLD_MIN_CENTS),
                  max: formatEuro(SCHEDULE_THRESHOLD_MAX_CENTS),
                })
              );
            },
          })}
        />
      )}
      <SelectField
        label={t('schedule.form.account')}
        options={methods.map((method) => ({ value: method.id, label: `${shortMask(method.masked_account)} · ${method.holder}` }))}
        {...register('method_id')}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={onCancel}>
          {t('schedule.form.back')}
        </Button>
        <Button type="submit" loading={set.isPending}>
          {t('schedule.form.submit')}
        </Button>
      </div>
    </form>
  );
}

/** The texted code puts the change in force; a refused code empties the field, keeps the reason and the focus. */
function CodeForm({
  clientId,
  change,
  onDone,
}: {
  clientId: string | undefined;
  change: NonNullable<PayoutScheduleState['pending_change']>;
  /** Confirmed, or put aside: the code stays valid for its 10 minutes, the schedule in force is unchanged. */
  onDone: (confirmed: boolean) => void;
}) {
  const { t } = useTranslation('payouts');
  const confirm = useConfirmPayoutSchedule(clientId);
  const ruleText = useRuleText();
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    formState: { errors },
  } = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const onSubmit = handleSubmit(({ code }) =>
    confirm.mutate(
      { change_id: change.id, code: code.replace(/\s/g, '') },
      {
        onSuccess: () => {
          showSnackbar(t('schedule.saved'), 'success');
          onDone(true);
        },
        onError: (error) => {
          const failure = authFailureOf(error);
          resetField('code');
          setError(
            'code',
            {
              message:
                failure.key === 'wrong_code' || failure.key === 'too_many_attempts' || failure.key === 'not_blank'
                  ? t(`auth:errors.${failure.key}`)
                  : errorText(error, t),
            },
            { shouldFocus: true },
          );
        },
      },
    ),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label={t('schedule.code.title')}>
      <div>
        <p className="font-semibold text-slate-900">{t('schedule.code.title')}</p>
        <p className="mt-1 text-sm text-slate-600">
          {t('schedule.code.text', { rule: ruleText(change), account: shortMask(change.method.masked_account) })}
        </p>
      </div>
      <TextField
        label={t('schedule.code.label')}
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus
        maxLength={6}
        error={errors.code?.message}
        data-testid="schedule-code"
        {...register('code', { required: t('auth:errors.not_blank') })}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={() => onDone(false)}>
          {t('schedule.form.back')}
        </Button>
        <Button type="submit" loading={confirm.isPending}>
          {t('schedule.code.submit')}
        </Button>
      </div>
    </form>
  );
}

/** What the schedule in force does, when it next looks, why it is paused or stopped, and what its last run did. */
function ScheduleSummary({ state }: { state: PayoutScheduleState }) {
  const { t } = useTranslation('payouts');
  const ruleText = useRuleText();
  const locale = currentLocale();
  const { schedule, last_run: lastRun } = state;
  return (
    <div className="space-y-3" data-testid="payout-schedule">
      {schedule ? (
        <div>
          <p className="font-semibold text-slate-900">{ruleText(schedule)}</p>
          <p className="text-sm text-slate-600">{t('schedule.to', { account: shortMask(schedule.method.masked_account) })}</p>
          {schedule.status === 'stopped' ? (
            <p className="mt-2 flex items-start gap-2 text-sm text-amber-800">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {t('schedule.stopped')}
            </p>
          ) : schedule.paused_for ? (
            <p className="mt-2 flex items-start gap-2 text-sm text-amber-800">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {t(`schedule.paused.${schedule.paused_for}`)}
            </p>
          ) : null}
          {schedule.next_run_at ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="schedule-next-run">
              {t(schedule.kind === 'threshold' ? 'schedule.next_check' : 'schedule.next_run', {
                date: formatDate(schedule.next_run_at, 'dateTime', locale),
              })}
            </p>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-slate-600">{t('schedule.none')}</p>
      )}
      {lastRun ? (
        <p
          className="flex items-start gap-2 border-t border-slate-100 pt-3 text-sm text-slate-700"
          data-testid="schedule-last-run"
        >
          <History className="mt-0.5 size-4 shrink-0 text-primary-700" aria-hidden="true" />
          <span>
            {t('schedule.last_run.title', { date: formatDate(lastRun.ran_at, 'date', locale) })}{' '}
            {lastRun.outcome === 'paid'
              ? t('schedule.last_run.paid', { amount: formatEuro(lastRun.amount_cents) })
              : t(`schedule.last_run.${lastRun.outcome}_${lastRun.reason}`, {
                  min: formatEuro(PAYOUT_MIN_CENTS),
                  fee: formatEuro(PAYOUT_FEE_CENTS),
                })}
          </span>
        </p>
      ) : null}
    </div>
  );
}

/** Automatic payouts (issue 31): set, change or turn off the schedule; each change is confirmed by a texted code. */
export function PayoutSchedulePanel({
  clientId,
  methods,
  methodsPending,
}: {
  clientId: string | undefined;
  methods: PayoutMethod[];
  methodsPending: boolean;
}) {
  const { t } = useTranslation('payouts');
  const query = usePayoutSchedule(clientId);
  const cancel = useCancelPayoutSchedule(clientId);
  const [editing, setEditing] = useState(false);
  const [putAside, setPutAside] = useState<string | null>(null);
  const state = query.data;
  const pending = state?.pending_change && state.pending_change.id !== putAside ? state.pending_change : null;

  let body;
  if (query.isPending || methodsPending) {
    body = (
      <div role="status" aria-label={t('schedule.loading')} className="space-y-2">
        <Skeleton className="h-4 w-56" />
        <Skeleton className="h-4 w-40" />
      </div>
    );
  } else if (query.isError || !state) {
    body = <LoadError text={t('schedule.error')} onRetry={query.refetch} />;
  } else if (pending) {
    body = (
      <CodeForm
        key={pending.id}
        clientId={clientId}
        change={pending}
        onDone={(confirmed) => {
          setEditing(false);
          if (!confirmed) setPutAside(pending.id);
        }}
      />
    );
  } else if (editing) {
    body = <ScheduleForm clientId={clientId} methods={methods} current={state.schedule} onCancel={() => setEditing(false)} />;
  } else {
    body = (
      <div className="space-y-4">
        <ScheduleSummary state={state} />
        {methods.length === 0 ? (
          // The page's payout account panel offers to add one.
          <p className="text-sm text-slate-600">{t('schedule.no_methods')}</p>
        ) : (
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button variant={state.schedule ? 'secondary' : 'primary'} onClick={() => setEditing(true)}>
              {state.schedule ? t('schedule.change') : t('schedule.set_up')}
            </Button>
            {state.schedule ? (
              <Button
                variant="ghost"
                loading={cancel.isPending}
                onClick={() =>
                  cancel.mutate(undefined, {
                    onSuccess: () => showSnackbar(t('schedule.turned_off'), 'success'),
                    onError: (error) => showSnackbar(errorText(error, t)),
                  })
                }
              >
                {t('schedule.turn_off')}
              </Button>
            ) : null}
          </div>
        )}
      </div>
    );
  }

  return (
    <Panel>
      <div className="flex items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-primary-50 text-primary-700" aria-hidden="true">
          <CalendarSync className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold text-primary-950">{t('schedule.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('schedule.intro', { fee: formatEuro(PAYOUT_FEE_CENTS) })}</p>
        </div>
      </div>
      {/* The step changes (form, code, summary) are announced to screen readers. */}
      <div className="mt-4" aria-live="polite">
        {body}
      </div>
    </Panel>
  );
}
