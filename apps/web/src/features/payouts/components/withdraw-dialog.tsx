import { useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Info, Plus } from 'lucide-react';
import { decimalAmount } from '@tipcard/shared/money/format';
import { PAYOUT_FEE_CENTS, type PayoutMethod, type PayoutTerms } from '@tipcard/shared/payouts/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { SlideToConfirm } from '../../../components/ui/slide-to-confirm.tsx';
import { ApiError } from '../../../lib/api-errors.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { formatEuro } from '../../../lib/format-euro.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { useCreatePayout } from '../api/use-payouts.ts';
import { shortMask } from '../format.ts';
import { checkAmount, withdrawAllCents } from '../payout-amount.ts';
import { PayeeCheckLine } from './payee-check.tsx';
import { InstantChoice } from './instant-choice.tsx';
import { MethodSummary } from './payout-method-card.tsx';
import { PayoutSummary } from './payout-summary.tsx';

interface WithdrawDialogProps {
  open: boolean;
  onClose: () => void;
  clientId: string | undefined;
  mainCents: number;
  methods: PayoutMethod[];
  terms: PayoutTerms | undefined;
  /** Back from adding an account mid-withdrawal: the amount chosen before, and the account just added. */
  resume?: { cents: number; methodId: string | null } | null;
}

/** One Idempotency-Key per intended payout: the same amount to the same account reuses it, anything else is new. */
function useIdempotencyKey() {
  const current = useRef<{ signature: string; key: string } | null>(null);
  return {
    keyFor(signature: string) {
      if (current.current?.signature !== signature) current.current = { signature, key: newIdempotencyKey() };
      return current.current.key;
    },
    reset() {
      current.current = null;
    },
  };
}

/** Step 1: the amount, with "withdraw all", the rules (spec 5) and what arrives. */
export function AmountStep({
  mainCents,
  initial,
  arrival,
  onNext,
}: {
  mainCents: number;
  initial: string;
  arrival: string;
  onNext: (cents: number, text: string) => void;
}) {
  const { t } = useTranslation('payouts');
  const all = withdrawAllCents(mainCents);
  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors },
  } = useForm<{ amount: string }>({ mode: 'onTouched', defaultValues: { amount: initial } });
  const text = useWatch({ control, name: 'amount' });
  const check = checkAmount(text, mainCents);

  return (
    <form
      noValidate
      onSubmit={handleSubmit((values) => {
        const result = checkAmount(values.amount, mainCents);
        if (result.ok) onNext(result.cents, values.amount);
      })}
      className="space-y-4"
      aria-label={t('flow.amount_step')}
    >
      <TextField
        label={t('flow.amount_label')}
        prefix={<span className="text-xl font-semibold text-slate-500">€</span>}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        autoFocus
        data-autofocus
        className="[&_input]:h-14 [&_input]:pl-10 [&_input]:text-2xl [&_input]:font-semibold [&_input]:tabular-nums"
        hint={t('amount.hint')}
        error={errors.amount?.message}
        {...register('amount', {
          validate: (value) => {
            const result = checkAmount(value, mainCents);
            return result.ok || t(`amount.errors.${result.problem}`);
          },
        })}
      />
      <div className="flex items-center justify-between gap-3 rounded-xl bg-primary-50/70 px-4 py-2.5">
        <p className="text-sm text-primary-900">
          {t('flow.available')}{' '}
          <strong className="font-semibold tabular-nums" data-testid="withdraw-available">
            {formatEuro(mainCents)}
          </strong>
        </p>
        <Button
          variant="ghost"
          size="sm"
          className="-mr-2"
          disabled={all === null}
          onClick={() => all !== null && setValue('amount', decimalAmount(all), { shouldValidate: true, shouldTouch: true })}
        >
          {t('flow.withdraw_all')}
        </Button>
      </div>
      {all === null ? <p className="text-sm text-slate-600">{t('flow.nothing_to_withdraw')}</p> : null}
      {check.ok ? <PayoutSummary amountCents={check.cents} feeCents={PAYOUT_FEE_CENTS} arrival={arrival} /> : null}
      <Button type="submit" block size="lg">
        {t('flow.continue')}
      </Button>
    </form>
  );
}

/** Step 2: the account (the default one chosen), the summary, and the slide that creates the payout. */
/** From this many accounts on, they are offered in a select: a list of cards would push the slide below the fold. */
const COMPACT_FROM = 3;

function MethodStep({
  clientId,
  amountCents,
  methods,
  preferredMethodId,
  arrival,
  onBack,
  onVerificationNeeded,
}: {
  clientId: string | undefined;
  amountCents: number;
  methods: PayoutMethod[];
  preferredMethodId: string | null;
  arrival: string;
  onBack: () => void;
  /** 451: the verification modal explains why; this dialog steps aside rather than stay on "Sending…" behind it. */
  onVerificationNeeded: () => void;
}) {
  const { t } = useTranslation('payouts');
  const navigate = useNavigate();
  const to = useLocalePath();
  const create = useCreatePayout(clientId);
  const idempotency = useIdempotencyKey();
  const preferred = methods.find((method) => method.id === preferredMethodId) ?? methods.find((method) => method.is_default);
  const { register, control } = useForm<{ method_id: string }>({
    defaultValues: { method_id: (preferred ?? methods[0])?.id ?? '' },
  });
  const addPath = to(`/payouts/add-method?return=withdraw&amount=${amountCents}`);
  const methodId = useWatch({ control, name: 'method_id' });
  const method = methods.find((item) => item.id === methodId);
  const [instantAsked, setInstantAsked] = useState(false);
  const instant = instantAsked && method?.instant === true;

  function submit() {
    if (!method) return;
    const key = idempotency.keyFor(`${amountCents}:${method.id}:${instant}`);
    create.mutate(
      { amount_cents: amountCents, method_id: method.id, instant, key },
      {
        onSuccess: (payout) => {
          idempotency.reset();
          void navigate(to(`/payouts/${payout.id}/confirmation`));
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 451) onVerificationNeeded();
        },
      },
    );
  }

  const compact = methods.length >= COMPACT_FROM;
  return (
    <div className={compact ? 'space-y-4' : 'space-y-5'}>
      <div className="flex items-center justify-between gap-3">
        <Button
          variant="ghost"
          size="sm"
          className="-ml-3"
          onClick={onBack}
          icon={<ArrowLeft className="size-4" aria-hidden="true" />}
        >
          {t('flow.change_amount')}
        </Button>
        <p className="text-2xl font-bold tabular-nums text-primary-950" data-testid="withdraw-amount">
          {formatEuro(amountCents)}
        </p>
      </div>

      {methods.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center">
          <p className="font-semibold text-slate-900">{t('flow.no_methods_title')}</p>
          <p className="mt-1 text-sm text-slate-600">{t('flow.no_methods_text')}</p>
          <ButtonLink to={addPath} className="mt-4" icon={<Plus className="size-4" aria-hidden="true" />}>
            {t('methods.add')}
          </ButtonLink>
        </div>
      ) : (
        <div>
          {compact ? (
            <>
              <SelectField
                label={t('flow.method_label')}
                options={methods.map((item) => ({
                  value: item.id,
                  label: `${shortMask(item.masked_account)} · ${item.holder}`,
                }))}
                {...register('method_id')}
              />
              {method ? <PayeeCheckLine check={method.payee_check} /> : null}
            </>
          ) : (
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-slate-800">{t('flow.method_label')}</legend>
              <div className="space-y-2">
                {methods.map((item) => (
                  <label
                    key={item.id}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-xl border bg-white p-3 transition-colors has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-accent-400',
                      item.id === methodId
                        ? 'border-primary-600 bg-primary-50/50 ring-1 ring-primary-600'
                        : 'border-slate-200 hover:border-slate-300',
                    )}
                  >
                    <input
                      type="radio"
                      value={item.id}
                      className="size-5 shrink-0 accent-primary-800 focus-visible:outline-none"
                      {...register('method_id')}
                    />
                    <MethodSummary method={item} />
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          <ButtonLink
            to={addPath}
            variant="ghost"
            size="sm"
            className="-ml-3 mt-2"
            icon={<Plus className="size-4" aria-hidden="true" />}
          >
            {t('methods.add_another')}
          </ButtonLink>
        </div>
      )}

      {method ? (
        <>
          <PayoutSummary
            amountCents={amountCents}
            feeCents={PAYOUT_FEE_CENTS}
            // The select right above names the account: its line here would only push the slide down.
            account={compact ? undefined : shortMask(method.masked_account)}
            arrival={instant ? t('instant.arrival') : arrival}
            compact={compact}
          />
          {method.instant ? <InstantChoice checked={instant} onChange={setInstantAsked} compact={compact} /> : null}
          <p className={cn('flex items-start gap-2 text-slate-600', compact ? 'text-xs' : 'text-sm')}>
            <Info className="mt-0.5 size-4 shrink-0 text-primary-700" aria-hidden="true" />
            {t('flow.sms_note')}
          </p>
          <SlideToConfirm
            label={t('flow.slide', { amount: formatEuro(amountCents) })}
            instructions={t('flow.slide_instructions')}
            busyLabel={t('flow.slide_busy')}
            nudgeLabel={t('flow.slide_nudge')}
            loading={create.isPending}
            onConfirm={submit}
          />
        </>
      ) : null}
    </div>
  );
}

/** The withdrawal flow (spec 4): amount → account → slide to submit; the code is entered on the confirmation page. */
export function WithdrawDialog({ open, onClose, clientId, mainCents, methods, terms, resume }: WithdrawDialogProps) {
  const { t } = useTranslation('payouts');
  const [step, setStep] = useState<{ name: 'amount'; text: string } | { name: 'method'; cents: number; text: string }>(() =>
    resume ? { name: 'method', cents: resume.cents, text: decimalAmount(resume.cents) } : { name: 'amount', text: '' },
  );
  const arrival = terms?.expected_arrival
    ? formatDate(terms.expected_arrival, 'day', currentLocale(), { timeZone: 'UTC' })
    : t('summary.next_business_day');
  const close = () => {
    setStep({ name: 'amount', text: '' });
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} title={t('flow.title')}>
      <p className="-mt-1 mb-4 text-sm text-slate-500">{t('flow.step', { current: step.name === 'amount' ? 1 : 2, total: 2 })}</p>
      {step.name === 'amount' ? (
        <AmountStep
          mainCents={mainCents}
          initial={step.text}
          arrival={arrival}
          onNext={(cents, text) => setStep({ name: 'method', cents, text })}
        />
      ) : (
        <MethodStep
          clientId={clientId}
          amountCents={step.cents}
          methods={methods}
          preferredMethodId={resume?.methodId ?? null}
          arrival={arrival}
          onBack={() => setStep({ name: 'amount', text: step.text })}
          onVerificationNeeded={close}
        />
      )}
    </Dialog>
  );
}
