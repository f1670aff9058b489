import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { AlertCircle, Building2, CheckCircle2, Landmark } from 'lucide-react';
import { payoutMethodBody, type PayeeCheck, type PayoutMethodBody } from '@tipcard/shared/payouts/schemas';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { TextField } from '../../../components/ui/field.tsx';
import { countryName } from '../../../lib/countries.ts';
import { currentLocale, translateValidation } from '../../../lib/i18n.ts';
import { bicProblem, compactIban, formatIbanTyping, formatSortCode, ibanState } from '../iban.ts';
import { PayeeCheckNotice } from './payee-check.tsx';

const [sepaShape, ukShape] = payoutMethodBody.options;

/** The shared SEPA shape plus ibantools: checksum, the country's length and BBAN format, a SEPA country, the BIC. */
export const sepaFormSchema = sepaShape.superRefine((value, ctx) => {
  const iban = ibanState(value.iban, true);
  if (iban.kind === 'invalid')
    ctx.addIssue({ code: 'custom', path: ['iban'], message: `payouts:form.iban_errors.${iban.reason}` });
  const bic = bicProblem(value.bic, value.iban);
  if (value.bic && bic) ctx.addIssue({ code: 'custom', path: ['bic'], message: `payouts:form.bic_errors.${bic}` });
});
export const ukFormSchema = ukShape;

type SepaInput = z.input<typeof sepaFormSchema>;
type UkInput = z.input<typeof ukFormSchema>;

interface FormProps {
  submitting: boolean;
  /** `confirm_mismatch` is set only when the user chose to save despite the payee check's answer. */
  onSubmit: (body: PayoutMethodBody, setError: (field: string, message: string) => void) => void;
  onCancel: () => void;
  /** The payee check's answer other than a match, until a field changes. */
  payeeCheck: PayeeCheck | null;
  onEdited: () => void;
}

/** Any change to the form makes the bank's answer stale: it goes, and saving asks again. */
function useClearsAnswerOnEdit(watch: (callback: () => void) => { unsubscribe: () => void }, onEdited: () => void) {
  useEffect(() => watch(onEdited).unsubscribe, [watch, onEdited]);
}

/** Instant feedback under the IBAN field while typing: the country and length, then valid or what is wrong. */
function IbanFeedback({ value, id }: { value: string; id: string }) {
  const { t } = useTranslation('payouts');
  const state = ibanState(value);
  if (state.kind === 'empty') return null;
  const nameOf = (code: string) => countryName(code, currentLocale());
  let content: { tone: string; icon: typeof CheckCircle2 | null; text: string };
  if (state.kind === 'valid')
    content = {
      tone: 'text-emerald-700',
      icon: CheckCircle2,
      text: t('form.iban_valid', { country: nameOf(state.country) }),
    };
  else if (state.kind === 'invalid')
    content = { tone: 'text-red-700', icon: AlertCircle, text: t(`form.iban_errors.${state.reason}`) };
  else if (state.country && state.expected)
    content = {
      tone: 'text-slate-500',
      icon: null,
      text: t('form.iban_progress', { country: nameOf(state.country), length: state.length, count: state.expected }),
    };
  else content = { tone: 'text-slate-500', icon: null, text: t('form.iban_start') };
  const Icon = content.icon;
  return (
    <p id={id} className={cn('flex items-center gap-1.5 text-sm', content.tone)} aria-live="polite" data-testid="iban-feedback">
      {Icon ? <Icon className="size-4 shrink-0" aria-hidden="true" /> : null}
      {content.text}
    </p>
  );
}

function FormActions({ submitting, onCancel }: { submitting: boolean; onCancel: () => void }) {
  const { t } = useTranslation('payouts');
  return (
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <Button variant="secondary" size="lg" onClick={onCancel}>
        {t('common:actions.cancel')}
      </Button>
      <Button type="submit" size="lg" loading={submitting}>
        {t('form.save')}
      </Button>
    </div>
  );
}

function SepaForm({ submitting, onSubmit, onCancel, payeeCheck, onEdited }: FormProps) {
  const { t } = useTranslation('payouts');
  const feedbackId = useId();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    getValues,
    control,
    formState: { errors, touchedFields, isSubmitted },
  } = useForm<SepaInput, unknown, z.output<typeof sepaFormSchema>>({
    resolver: zodResolver(sepaFormSchema),
    mode: 'onTouched',
    defaultValues: { kind: 'sepa', iban: '', bic: '', holder_last_name: '', address: '' },
  });
  const iban = register('iban');
  const ibanValue = useWatch({ control, name: 'iban' });
  const err = (message: string | undefined) => translateValidation(message);
  // While typing, the live line speaks for the IBAN; the form's own error shows once the field was left or submitted.
  const ibanError = touchedFields.iban || isSubmitted ? err(errors.iban?.message) : undefined;
  useClearsAnswerOnEdit(watch, onEdited);
  const submit = (confirmMismatch: boolean) =>
    handleSubmit((values) =>
      onSubmit(
        {
          ...values,
          iban: compactIban(values.iban),
          bic: values.bic.replace(/\s/g, '').toUpperCase(),
          confirm_mismatch: confirmMismatch || undefined,
        },
        (field, message) => setError(field as keyof SepaInput, { type: 'server', message }, { shouldFocus: true }),
      ),
    );

  return (
    <form noValidate className="space-y-5" onSubmit={submit(false)}>
      <div className="space-y-1.5">
        <TextField
          label={t('form.iban')}
          placeholder="LV80 BANK 0000 4351 9500 1"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          className="[&_input]:font-mono [&_input]:tracking-wide"
          error={ibanError}
          {...iban}
          aria-describedby={ibanError ? undefined : feedbackId}
          onChange={(event) => {
            const input = event.target;
            const { value, caret } = formatIbanTyping(input.value, input.selectionStart ?? input.value.length);
            input.value = value;
            if (document.activeElement === input) input.setSelectionRange(caret, caret);
            return iban.onChange(event);
          }}
        />
        {ibanError ? null : <IbanFeedback value={ibanValue} id={feedbackId} />}
      </div>
      <TextField
        label={t('form.bic')}
        hint={t('form.bic_hint')}
        placeholder="HABALV22"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={11}
        className="[&_input]:font-mono [&_input]:uppercase [&_input]:tracking-wide"
        error={err(errors.bic?.message)}
        {...register('bic')}
      />
      <TextField
        label={t('form.holder_last_name')}
        hint={t('form.holder_hint')}
        autoComplete="family-name"
        maxLength={70}
        error={err(errors.holder_last_name?.message)}
        {...register('holder_last_name')}
      />
      <TextField
        label={t('form.address')}
        autoComplete="street-address"
        maxLength={140}
        placeholder={t('form.address_placeholder')}
        error={err(errors.address?.message)}
        {...register('address')}
      />
      {payeeCheck ? (
        <PayeeCheckNotice
          answer={payeeCheck}
          typedName={getValues('holder_last_name')}
          saving={submitting}
          onUseName={(name) => {
            setValue('holder_last_name', name);
            void submit(false)();
          }}
          onConfirm={() => void submit(true)()}
        />
      ) : null}
      <FormActions submitting={submitting} onCancel={onCancel} />
    </form>
  );
}

function UkForm({ submitting, onSubmit, onCancel, payeeCheck, onEdited }: FormProps) {
  const { t } = useTranslation('payouts');
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    getValues,
    formState: { errors },
  } = useForm<UkInput, unknown, z.output<typeof ukFormSchema>>({
    resolver: zodResolver(ukFormSchema),
    mode: 'onTouched',
    defaultValues: { kind: 'uk', account_number: '', sort_code: '', holder_name: '', address: '' },
  });
  const sortCode = register('sort_code');
  const err = (message: string | undefined) => translateValidation(message);
  useClearsAnswerOnEdit(watch, onEdited);
  const submit = (confirmMismatch: boolean) =>
    handleSubmit((values) =>
      onSubmit({ ...values, confirm_mismatch: confirmMismatch || undefined }, (field, message) =>
        setError(field as keyof UkInput, { type: 'server', message }, { shouldFocus: true }),
      ),
    );

  return (
    <form noValidate className="space-y-5" onSubmit={submit(false)}>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={t('form.account_number')}
          hint={t('form.account_number_hint')}
          inputMode="numeric"
          autoComplete="off"
          placeholder="12345678"
          maxLength={8}
          className="[&_input]:font-mono [&_input]:tracking-wide"
          error={err(errors.account_number?.message)}
          {...register('account_number', { setValueAs: (value: string) => value.replace(/\D/g, '') })}
        />
        <TextField
          label={t('form.sort_code')}
          hint={t('form.sort_code_hint')}
          inputMode="numeric"
          autoComplete="off"
          placeholder="20-00-00"
          maxLength={8}
          className="[&_input]:font-mono [&_input]:tracking-wide"
          error={err(errors.sort_code?.message)}
          {...sortCode}
          onChange={(event) => {
            event.target.value = formatSortCode(event.target.value);
            return sortCode.onChange(event);
          }}
        />
      </div>
      <TextField
        label={t('form.holder_name')}
        hint={t('form.holder_hint')}
        autoComplete="name"
        maxLength={70}
        error={err(errors.holder_name?.message)}
        {...register('holder_name')}
      />
      <TextField
        label={t('form.address')}
        autoComplete="street-address"
        maxLength={140}
        placeholder={t('form.address_placeholder_uk')}
        error={err(errors.address?.message)}
        {...register('address')}
      />
      {payeeCheck ? (
        <PayeeCheckNotice
          answer={payeeCheck}
          typedName={getValues('holder_name')}
          saving={submitting}
          onUseName={(name) => {
            setValue('holder_name', name);
            void submit(false)();
          }}
          onConfirm={() => void submit(true)()}
        />
      ) : null}
      <FormActions submitting={submitting} onCancel={onCancel} />
    </form>
  );
}

const KINDS = [
  { kind: 'sepa', icon: Landmark },
  { kind: 'uk', icon: Building2 },
] as const;

/** SEPA and UK tabs (a tab list with arrow keys), each with its own form. */
export function PayoutMethodForm(props: FormProps) {
  const { t } = useTranslation('payouts');
  const [kind, setKind] = useState<'sepa' | 'uk'>('sepa');
  const baseId = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const choose = (item: 'sepa' | 'uk') => {
    setKind(item);
    props.onEdited();
  };

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const next =
      event.key === 'ArrowRight'
        ? index + 1
        : event.key === 'ArrowLeft'
          ? index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? KINDS.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const wrapped = (next + KINDS.length) % KINDS.length;
    choose(KINDS[wrapped]!.kind);
    tabs.current[wrapped]?.focus();
  }

  return (
    <div>
      <div role="tablist" aria-label={t('form.kind_label')} className="grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1">
        {KINDS.map(({ kind: item, icon: Icon }, index) => {
          const selected = item === kind;
          return (
            <button
              key={item}
              ref={(element) => {
                tabs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${item}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel-${item}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => choose(item)}
              onKeyDown={(event) => onKeyDown(event, index)}
              className={cn(
                'flex items-center justify-center gap-2 rounded-lg px-3 py-2.5 text-sm font-semibold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
                selected ? 'bg-white text-primary-900 shadow-sm' : 'text-slate-600 hover:text-primary-900',
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {t(`form.tabs.${item}`)}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${baseId}-panel-${kind}`} aria-labelledby={`${baseId}-tab-${kind}`} className="pt-5">
        <p className="mb-5 text-sm text-slate-600">{t(`form.intro.${kind}`)}</p>
        {kind === 'sepa' ? <SepaForm key="sepa" {...props} /> : <UkForm key="uk" {...props} />}
      </div>
    </div>
  );
}
