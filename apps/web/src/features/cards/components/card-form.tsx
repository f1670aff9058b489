import { useEffect, useRef } from 'react';
import { useForm, useWatch, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { cardBody, type Card } from '@tipcard/shared/cards/schemas';
import { PRESETS_BY_ACTIVITY, presetAmountsBody } from '@tipcard/shared/cards/presets';
import { ACTIVITY_TYPES, type ActivityType } from '@tipcard/shared/constants';
import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import { TIP_MAX_CENTS, TIP_MIN_CENTS, TIP_PRESETS_CENTS } from '@tipcard/shared/payments/fees';
import { rule } from '@tipcard/shared/validation-rules';
import type { Me } from '@tipcard/shared/auth/me-schema';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { SERVED_COUNTRIES } from '@tipcard/shared/auth/phone';
import { useServedCountryOptions } from '../../../lib/countries.ts';
import { currentLocale, translateValidation } from '../../../lib/i18n.ts';
import { formatEuro } from '../../../lib/format-euro.ts';

/** The preset amounts as typed (`5`, `2,50`): the four texts become cents, checked by the server's own rules. */
const presetTexts = z.array(z.string()).transform((texts, context) => {
  const cents = texts.map((text) => parseAmountInput(text));
  cents.forEach((value, index) => {
    if (value === null) context.addIssue({ code: 'custom', path: [index], message: rule('amount_range') });
  });
  if (cents.includes(null)) return z.NEVER;
  const parsed = presetAmountsBody.safeParse(cents);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  return parsed.data!;
});
const cardForm = cardBody.omit({ preset_amounts_cents: true }).extend({ presets: presetTexts });

type CardInput = z.input<typeof cardForm>;
type CardFormOutput = z.output<typeof cardForm>;
export type CardOutput = z.output<typeof cardBody>;

/** The amounts a card offers for an activity (DESIGN's until one is chosen). */
const suggestedFor = (activity: string): readonly number[] => PRESETS_BY_ACTIVITY[activity as ActivityType] ?? TIP_PRESETS_CENTS;

/** Cents as a person would type them in this language: `5`, `2.50` or `2,50`. */
function amountText(cents: number, locale: string): string {
  const text = cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
  return locale === 'en' ? text : text.replace('.', ',');
}

/** Whether the typed amounts are these cents. */
function sameAmounts(texts: readonly string[], cents: readonly number[]): boolean {
  return texts.length === cents.length && texts.every((text, index) => parseAmountInput(text) === cents[index]);
}

/** The owner's amounts, or null when they are the activity's (so that a later change of activity brings its own). */
function chosenPresets(values: CardFormOutput): CardOutput {
  const { presets, ...card } = values;
  const suggested = suggestedFor(card.activity_type);
  const same = presets.length === suggested.length && presets.every((cents, index) => cents === suggested[index]);
  return { ...card, preset_amounts_cents: same ? null : presets };
}

const LOCALE_COUNTRY: Record<string, string> = { lv: 'LV', fr: 'FR', es: 'ES' };

function defaultsOf(card: Card | null, me: Me | undefined): CardInput {
  const locale = currentLocale();
  const country = card?.country ?? me?.country ?? LOCALE_COUNTRY[locale] ?? '';
  const activity = card?.activity_type ?? me?.activity_type ?? '';
  const presets = card?.preset_amounts_cents ?? suggestedFor(activity);
  return {
    title: card?.title ?? '',
    public_name: card?.public_name ?? me?.public_name ?? '',
    welcome_phrase: card?.welcome_phrase ?? me?.welcome_phrase ?? '',
    public_text: card?.public_text ?? me?.public_text ?? '',
    activity_type: (card?.activity_type ?? me?.activity_type ?? '') as CardInput['activity_type'],
    country: SERVED_COUNTRIES.includes(country as never) ? country : '',
    instagram: card?.instagram ?? me?.instagram ?? '',
    facebook: card?.facebook ?? me?.facebook ?? '',
    tiktok: card?.tiktok ?? me?.tiktok ?? '',
    presets: presets.map((cents) => amountText(cents, locale)),
  };
}

interface CardFormProps {
  card: Card | null;
  me: Me | undefined;
  submitLabel: string;
  submitting: boolean;
  /** `setFieldError` puts a server's refusal under its field. */
  onSubmit: (values: CardOutput, setFieldError: (field: string, message: string) => void) => void;
  onCancel?: () => void;
}

export function CardForm({ card, me, submitLabel, submitting, onSubmit, onCancel }: CardFormProps) {
  const { t } = useTranslation('account');
  const countries = useServedCountryOptions();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    control,
    formState: { errors },
  } = useForm<CardInput, unknown, CardFormOutput>({ resolver: zodResolver(cardForm), defaultValues: defaultsOf(card, me) });
  const setFieldError = (field: string, message: string) =>
    setError(
      field.replace(/^preset_amounts_cents/, 'presets') as Path<CardInput>,
      { type: 'server', message },
      { shouldFocus: true },
    );

  // Amounts that are the activity's follow the activity chosen; the owner's own stay.
  const locale = currentLocale();
  const [activity, presets] = useWatch({ control, name: ['activity_type', 'presets'] });
  const suggested = suggestedFor(activity).map((cents) => amountText(cents, locale));
  const shownFor = useRef(activity);
  useEffect(() => {
    const previous = suggestedFor(shownFor.current);
    shownFor.current = activity;
    if (!sameAmounts(getValues('presets'), previous)) return;
    suggestedFor(activity).forEach((cents, index) => setValue(`presets.${index}`, amountText(cents, locale)));
  }, [activity, locale, getValues, setValue]);
  const useSuggested = () =>
    suggested.forEach((text, index) => setValue(`presets.${index}`, text, { shouldDirty: true, shouldValidate: true }));

  const err = (message: string | undefined) => translateValidation(message);
  const optional = t('form.optional');

  return (
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(chosenPresets(values), setFieldError))} className="space-y-5">
      <Panel>
        <h2 className="text-base font-semibold text-primary-950">{t('form.profile_section')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('form.profile_section_hint')}</p>
        <div className="mt-5 grid gap-5 sm:grid-cols-2">
          <TextField
            label={t('form.public_name')}
            hint={t('form.public_name_hint')}
            maxLength={60}
            autoComplete="name"
            error={err(errors.public_name?.message)}
            {...register('public_name')}
          />
          <TextField
            label={t('form.title')}
            hint={t('form.title_hint')}
            maxLength={60}
            error={err(errors.title?.message)}
            {...register('title')}
          />
          <TextField
            className="sm:col-span-2"
            label={t('form.welcome_phrase')}
            optional={optional}
            placeholder={t('form.welcome_phrase_placeholder')}
            maxLength={160}
            error={err(errors.welcome_phrase?.message)}
            {...register('welcome_phrase')}
          />
          <TextAreaField
            className="sm:col-span-2"
            label={t('form.public_text')}
            optional={optional}
            hint={t('form.public_text_hint')}
            maxLength={500}
            rows={4}
            error={err(errors.public_text?.message)}
            {...register('public_text')}
          />
          <SelectField
            label={t('form.activity_type')}
            placeholder={t('form.choose')}
            options={ACTIVITY_TYPES.map((type) => ({ value: type, label: t(`common:activity_types.${type}`) }))}
            error={err(errors.activity_type?.message)}
            {...register('activity_type')}
          />
          <SelectField
            label={t('form.country')}
            placeholder={t('form.choose')}
            options={countries}
            autoComplete="country"
            error={err(errors.country?.message)}
            {...register('country')}
          />
        </div>
      </Panel>
      <Panel>
        <h2 className="text-base font-semibold text-primary-950">{t('form.presets_section')}</h2>
        <p className="mt-1 text-sm text-slate-600">
          {t('form.presets_hint', { min: formatEuro(TIP_MIN_CENTS), max: formatEuro(TIP_MAX_CENTS) })}
        </p>
        <div className="mt-5 grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="preset-amounts">
          {suggested.map((_, index) => (
            <TextField
              key={index}
              label={t('form.preset_label', { number: index + 1 })}
              prefix="€"
              inputMode="decimal"
              autoComplete="off"
              maxLength={9}
              error={err(errors.presets?.[index]?.message)}
              {...register(`presets.${index}`)}
            />
          ))}
        </div>
        {sameAmounts(presets, suggestedFor(activity)) ? (
          <p className="mt-3 text-sm text-slate-500">{t('form.presets_suggested')}</p>
        ) : (
          <Button variant="secondary" size="sm" className="mt-3" onClick={useSuggested}>
            {t('form.presets_reset')}
          </Button>
        )}
      </Panel>
      <Panel>
        <h2 className="text-base font-semibold text-primary-950">{t('form.social_section')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('form.social_section_hint')}</p>
        <div className="mt-5 grid gap-5 sm:grid-cols-3">
          <TextField
            label="Instagram"
            optional={optional}
            type="url"
            inputMode="url"
            placeholder="https://instagram.com/…"
            maxLength={200}
            error={err(errors.instagram?.message)}
            {...register('instagram')}
          />
          <TextField
            label="Facebook"
            optional={optional}
            type="url"
            inputMode="url"
            placeholder="https://facebook.com/…"
            maxLength={200}
            error={err(errors.facebook?.message)}
            {...register('facebook')}
          />
          <TextField
            label="TikTok"
            optional={optional}
            type="url"
            inputMode="url"
            placeholder="https://tiktok.com/@…"
            maxLength={200}
            error={err(errors.tiktok?.message)}
            {...register('tiktok')}
          />
        </div>
      </Panel>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button variant="secondary" size="lg" onClick={onCancel}>
            {t('common:actions.cancel')}
          </Button>
        ) : null}
        <Button type="submit" size="lg" loading={submitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
