import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { cardBody, type Card } from '@tipcard/shared/cards/schemas';
import { ACTIVITY_TYPES } from '@tipcard/shared/constants';
import type { Me } from '@tipcard/shared/auth/me-schema';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { SERVED_COUNTRIES } from '@tipcard/shared/auth/phone';
import { useServedCountryOptions } from '../../../lib/countries.ts';
import { currentLocale, translateValidation } from '../../../lib/i18n.ts';

type CardInput = z.input<typeof cardBody>;
export type CardOutput = z.output<typeof cardBody>;

const LOCALE_COUNTRY: Record<string, string> = { lv: 'LV', fr: 'FR', es: 'ES' };

function defaultsOf(card: Card | null, me: Me | undefined): CardInput {
  const locale = currentLocale();
  const country = card?.country ?? me?.country ?? LOCALE_COUNTRY[locale] ?? '';
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
    formState: { errors },
  } = useForm<CardInput, unknown, CardOutput>({ resolver: zodResolver(cardBody), defaultValues: defaultsOf(card, me) });
  const setFieldError = (field: string, message: string) =>
    setError(field as Path<CardInput>, { type: 'server', message }, { shouldFocus: true });

  const err = (message: string | undefined) => translateValidation(message);
  const optional = t('form.optional');

  return (
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(values, setFieldError))} className="space-y-5">
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
