import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Download, RotateCw } from 'lucide-react';
import type { PublicAction } from '@tipcard/shared/donations/schemas';
import { PAUSE_MONTHS_MAX } from '@tipcard/shared/donations/schemas';
import { TIP_MAX_CENTS, TIP_MIN_CENTS } from '@tipcard/shared/payments/fees';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button, buttonClasses } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { saveBlob } from '../../lib/download-file.ts';
import { guestErrorKey, type GuestErrorKey } from '../../lib/error-text.ts';
import { confirmAction, downloadActionPdf, fetchPublicAction, PublicApiError } from '../../lib/guest-api.ts';
import { OutcomeView } from '../../components/guest/outcome-view.tsx';
import { GuestShell } from '../../components/guest/guest-shell.tsx';
import { guestLocale, guestMoney, setGuestLocale, useGuestT } from '../../lib/guest-i18n.ts';
import { amountProblem, limitsOf, parseAmountInput } from '../../lib/tip-amount.ts';

type PageState =
  | { status: 'loading' }
  | { status: 'ready'; action: PublicAction }
  | { status: 'done'; action: PublicAction }
  | { status: 'invalid' }
  | { status: 'error' };

/** Why a link does nothing, as the server answered it (a GET's state, or a confirmation's refusal). */
type Refusal = 'used' | 'expired' | 'ended';

const MONTH_CHOICES = Array.from({ length: PAUSE_MONTHS_MAX }, (_, index) => index + 1);

/**
 * `/actions/{actionId}`: a signed link from a monthly donor's e-mail. It says what it will do (cancel, pause, change
 * the amount, or download a receipt or statement) and asks for one confirmation; a used, expired or forged link, or
 * one of a plan that has ended, says so and offers nothing. Opens in the language the donor gave in.
 */
export function DonorActionPage({ actionId }: { actionId: string }) {
  const t = useGuestT();
  const [state, setState] = useState<PageState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const localeSet = useRef(false);
  useEffect(() => {
    document.title = t('action.meta_title');
  }, [t]);
  useEffect(() => {
    const controller = new AbortController();
    fetchPublicAction(actionId, controller.signal)
      .then((action) => {
        if (!localeSet.current && action.locale !== guestLocale()) setGuestLocale(action.locale, false);
        localeSet.current = true;
        setState({ status: 'ready', action });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState(error instanceof PublicApiError && error.status === 404 ? { status: 'invalid' } : { status: 'error' });
      });
    return () => controller.abort();
  }, [actionId, attempt]);

  let content;
  if (state.status === 'loading') {
    content = (
      <div className="grid min-h-[60dvh] place-items-center text-primary-700">
        <Spinner label={t('action.loading')} className="[&_svg]:size-8" />
      </div>
    );
  } else if (state.status === 'invalid') {
    content = <RefusedView title={t('action.invalid_title')} text={t('action.invalid_text')} testId="action-invalid" />;
  } else if (state.status === 'error') {
    content = (
      <OutcomeView tone="failure" title={t('errors.generic')} text={t('errors:no_answer')}>
        <Button
          size="lg"
          block
          onClick={() => {
            setState({ status: 'loading' });
            setAttempt((value) => value + 1);
          }}
          icon={<RotateCw className="size-4" aria-hidden="true" />}
        >
          {t('result.try_again')}
        </Button>
      </OutcomeView>
    );
  } else if (state.status === 'done') {
    content = <DoneView action={state.action} />;
  } else {
    const refusal = refusalOf(state.action);
    content = refusal ? (
      <RefusalView refusal={refusal} />
    ) : (
      <ActionForm actionId={actionId} action={state.action} onDone={(action) => setState({ status: 'done', action })} />
    );
  }
  return <GuestShell>{content}</GuestShell>;
}

function refusalOf(action: PublicAction): Refusal | null {
  if (action.state === 'used') return 'used';
  if (action.state === 'expired') return 'expired';
  const downloads = action.kind === 'receipt' || action.kind === 'statement';
  if (!downloads && action.plan.status !== 'active' && action.plan.status !== 'paused') return 'ended';
  return null;
}

function RefusedView({ title, text, testId }: { title: string; text: string; testId: string }) {
  const t = useGuestT();
  return (
    <OutcomeView tone="unknown" title={title} text={text} testId={testId}>
      <a href="/" className={buttonClasses('secondary', 'lg', true)}>
        {t('unknown.home')}
      </a>
    </OutcomeView>
  );
}

function RefusalView({ refusal }: { refusal: Refusal }) {
  const t = useGuestT();
  return <RefusedView title={t(`action.${refusal}_title`)} text={t(`action.${refusal}_text`)} testId={`action-${refusal}`} />;
}

function DoneView({ action }: { action: PublicAction }) {
  const t = useGuestT();
  const next = action.plan.next_charge_at
    ? formatDate(action.plan.next_charge_at, 'longDate', guestLocale(), { timeZone: 'UTC' })
    : '';
  const texts = {
    cancel: [t('action.done_cancel'), t('action.done_cancel_text')],
    pause: [t('action.done_pause'), t('action.done_pause_text', { date: next })],
    change_amount: [
      t('action.done_change'),
      t('action.done_change_text', { date: next, amount: guestMoney(action.plan.amount_cents) }),
    ],
  } as const;
  const [title, text] = action.kind in texts ? texts[action.kind as keyof typeof texts] : [t('action.downloaded'), ''];
  return <OutcomeView tone="success" title={title} text={text} testId="action-done" />;
}

/** The plan in one box: who receives it, how much each month, and when the next donation comes. */
function PlanSummary({ action }: { action: PublicAction }) {
  const t = useGuestT();
  const { plan } = action;
  return (
    <section className="flex flex-col items-center text-center" aria-labelledby="action-recipient">
      <p className="text-sm font-medium text-slate-500">{t('action.eyebrow')}</p>
      <p id="action-recipient" className="mt-0.5 text-2xl font-bold tracking-tight text-primary-950">
        {plan.recipient_name}
      </p>
      <div className="mt-5 w-full rounded-3xl bg-white p-5 text-left shadow-sm ring-1 ring-slate-200/70">
        <p className="text-xl font-bold tabular-nums text-primary-950" data-testid="action-amount">
          {t('action.amount', { amount: guestMoney(plan.amount_cents) })}
        </p>
        {plan.next_charge_at ? (
          <p className="mt-1 text-[15px] text-slate-600">
            {t(plan.status === 'paused' ? 'action.paused' : 'action.next', {
              date: formatDate(plan.next_charge_at, 'longDate', guestLocale(), { timeZone: 'UTC' }),
            })}
          </p>
        ) : null}
      </div>
    </section>
  );
}

interface ActionFormValues {
  /** The pause's months, as the radio's value. */
  months: string;
  amount: string;
}

function ActionForm({
  actionId,
  action,
  onDone,
}: {
  actionId: string;
  action: PublicAction;
  onDone(action: PublicAction): void;
}) {
  const t = useGuestT();
  const tipBounds = { min: guestMoney(TIP_MIN_CENTS), max: guestMoney(TIP_MAX_CENTS) };
  // The amount's error holds a catalog key, so a change of language rewords it; it goes as soon as the donor types.
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors },
  } = useForm<ActionFormValues>({ defaultValues: { months: '1', amount: '' }, reValidateMode: 'onSubmit' });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [failure, setFailure] = useState<GuestErrorKey | null>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const titleId = useId();
  const name = action.plan.recipient_name;
  const downloads = action.kind === 'receipt' || action.kind === 'statement';

  if (refusal) return <RefusalView refusal={refusal} />;

  const confirm = async ({ months, amount }: ActionFormValues) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setFailure(null);
    try {
      if (downloads) {
        saveBlob(
          await downloadActionPdf(actionId),
          action.kind === 'receipt' ? 'donation-receipt.pdf' : `donation-statement-${action.year}.pdf`,
        );
        inFlight.current = false;
        setBusy(false);
        return;
      }
      onDone(
        await confirmAction(
          actionId,
          action.kind === 'pause'
            ? { months: Number(months) }
            : action.kind === 'change_amount'
              ? { amount_cents: parseAmountInput(amount)! }
              : {},
        ),
      );
    } catch (error) {
      inFlight.current = false;
      setBusy(false);
      const code = error instanceof PublicApiError ? error.code : undefined;
      if (code === 'action_link_used') return setRefusal('used');
      if (code === 'action_link_expired') return setRefusal('expired');
      if (code === 'donation_plan_ended') return setRefusal('ended');
      // Any other refusal is worded as the connection: the confirmation is worth trying again.
      setFailure((error instanceof PublicApiError && guestErrorKey(error.status, error.code)) || 'no_answer');
    }
  };

  const copy = {
    cancel: { title: t('action.title_cancel'), text: t('action.text_cancel', { name }), confirm: t('action.confirm_cancel') },
    pause: { title: t('action.title_pause'), text: t('action.text_pause'), confirm: t('action.confirm_pause') },
    change_amount: { title: t('action.title_change'), text: t('action.text_change'), confirm: t('action.confirm_change') },
    receipt: { title: t('action.title_receipt'), text: t('action.text_download', { name }), confirm: t('action.download') },
    statement: {
      title: t('action.title_statement', { year: action.year }),
      text: t('action.text_download', { name }),
      confirm: t('action.download'),
    },
  }[action.kind];

  return (
    <>
      {downloads ? null : <PlanSummary action={action} />}
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(confirm)(event)}
        aria-labelledby={titleId}
        className="mt-6 space-y-5 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200/70 sm:p-6"
      >
        <div>
          <h1 id={titleId} className="text-xl font-bold tracking-tight text-primary-950">
            {copy.title}
          </h1>
          <p className="mt-1.5 text-[15px] leading-relaxed text-slate-600">{copy.text}</p>
        </div>
        {action.kind === 'pause' ? (
          <fieldset>
            <legend className="text-sm font-semibold text-slate-800">{t('action.months_legend')}</legend>
            <div className="mt-2 flex gap-1 rounded-2xl bg-slate-100 p-1">
              {MONTH_CHOICES.map((count) => (
                <label key={count} className="relative flex-1 cursor-pointer">
                  <input
                    type="radio"
                    {...register('months')}
                    value={String(count)}
                    className="peer absolute inset-0 z-10 size-full cursor-pointer appearance-none opacity-0"
                  />
                  <span className="block rounded-xl px-2 py-2.5 text-center text-[15px] font-semibold text-slate-700 transition-colors peer-checked:bg-white peer-checked:text-primary-900 peer-checked:shadow-sm peer-focus-visible:ring-2 peer-focus-visible:ring-accent-400">
                    {t(`action.months_${count}`)}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        {action.kind === 'change_amount' ? (
          <TextField
            {...register('amount', {
              validate: (text) => !amountProblem(parseAmountInput(text), limitsOf(null)) || 'validation:amount_range',
              onChange: () => clearErrors('amount'),
            })}
            label={t('action.amount_label')}
            inputMode="decimal"
            autoComplete="off"
            prefix="€"
            error={errors.amount?.message ? t(errors.amount.message, tipBounds) : undefined}
            hint={t('form.custom_hint', tipBounds)}
          />
        ) : null}
        <div aria-live="assertive">
          {failure ? (
            <p role="alert" className="rounded-2xl bg-red-50 px-4 py-3 text-sm font-semibold text-red-800 ring-1 ring-red-200">
              {t(`errors:${failure}`)}
            </p>
          ) : null}
        </div>
        <Button
          type="submit"
          size="lg"
          block
          loading={busy}
          variant={action.kind === 'cancel' ? 'danger' : 'primary'}
          icon={downloads ? <Download className="size-5" aria-hidden="true" /> : undefined}
        >
          {copy.confirm}
        </Button>
      </form>
    </>
  );
}
