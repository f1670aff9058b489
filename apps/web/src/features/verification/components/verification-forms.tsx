import { useState } from 'react';
import { Controller, useForm, type Control, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Send, ShieldCheck } from 'lucide-react';
import { z } from 'zod';
import {
  COMPANY_DOCUMENTS,
  PERSON_DOCUMENTS,
  companyFields,
  personFields,
  type DocumentField,
  type VerificationBody,
} from '@tipcard/shared/verification/schemas';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { serverFieldErrors } from '../../../lib/api-errors.ts';
import { translateValidation } from '../../../lib/i18n.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { readAsBase64 } from '../../../lib/files.ts';
import { useSubmitVerification } from '../api/use-verification.ts';
import { DocumentInput } from './document-input.tsx';
import { documentMime } from './document-file.ts';

/** A document the form holds until it is sent; missing, the field asks for it. */
const documentFile = z.custom<File | null>((value) => value instanceof File, { error: 'verification:file.required' });
const personForm = personFields.extend({ document_front: documentFile, document_back: documentFile });
const companyForm = companyFields.extend({ registration_document: documentFile });

/** Reads the documents, sends the form, and puts the server's field errors where they belong. */
function useSend<D extends DocumentField>(clientId: string | undefined, documents: readonly D[]) {
  const { t } = useTranslation('verification');
  const submit = useSubmitVerification(clientId);
  const [progress, setProgress] = useState<number | null>(null);

  async function send<V extends FieldValues & Record<D, File | null>>(
    values: V,
    kind: 'person' | 'company',
    setError: UseFormSetError<V>,
  ) {
    const chosen = documents.map((field) => [field, values[field]!] as const);
    const total = chosen.reduce((sum, [, file]) => sum + file.size, 0) || 1;
    setProgress(0);
    try {
      let done = 0;
      const encoded: Record<string, { content: string; name: string; mime: string }> = {};
      for (const [field, file] of chosen) {
        const content = await readAsBase64(file, (ratio) => setProgress(Math.round(((done + ratio * file.size) / total) * 60)));
        done += file.size;
        encoded[field] = { content, name: file.name, mime: documentMime(file) };
      }
      setProgress(70);
      await submit.mutateAsync({ ...values, ...encoded, kind } as unknown as VerificationBody);
      setProgress(100);
      showSnackbar(t('sent'), 'success');
    } catch (error) {
      setProgress(null);
      for (const [field, message] of serverFieldErrors(error)) setError(field as Path<V>, { type: 'server', message });
    }
  }

  return { progress, busy: progress !== null, send };
}

function Progress({ value }: { value: number }) {
  const { t } = useTranslation('verification');
  return (
    <div role="status" className="rounded-xl bg-primary-50/60 p-4 ring-1 ring-primary-100">
      <div className="flex justify-between text-sm font-medium text-primary-950">
        <span>{t('form.sending')}</span>
        <span>{value}%</span>
      </div>
      <div
        className="mt-2 h-2 overflow-hidden rounded-full bg-white"
        role="progressbar"
        aria-label={t('form.sending')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
      >
        <div className="h-full rounded-full bg-primary-700 transition-[width] duration-300" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}

function FormFooter({ busy, progress }: { busy: boolean; progress: number | null }) {
  const { t } = useTranslation('verification');
  return (
    <div className="space-y-4">
      {progress !== null ? <Progress value={progress} /> : null}
      <p className="flex gap-2 text-xs leading-relaxed text-slate-500">
        <ShieldCheck className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />
        {t('form.privacy')}
      </p>
      <div className="flex justify-end">
        <Button
          type="submit"
          size="lg"
          loading={busy}
          className="w-full sm:w-auto"
          icon={<Send className="size-4" aria-hidden="true" />}
        >
          {t('form.submit')}
        </Button>
      </div>
    </div>
  );
}

function SectionTitle({ children, hint }: { children: string; hint?: string }) {
  return (
    <div className="sm:col-span-2">
      <h3 className="text-base font-semibold text-primary-950">{children}</h3>
      {hint ? <p className="mt-1 text-sm text-slate-600">{hint}</p> : null}
    </div>
  );
}

type PersonInput = z.input<typeof personForm>;
type PersonOutput = z.output<typeof personForm>;

export function PersonForm({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation('verification');
  const sender = useSend(clientId, PERSON_DOCUMENTS);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PersonInput, unknown, PersonOutput>({
    resolver: zodResolver(personForm),
    defaultValues: {
      first_name: '',
      last_name: '',
      birthday: '',
      personal_code: '',
      address: '',
      document_front: null,
      document_back: null,
    },
  });
  const err = (message: string | undefined) => translateValidation(message);
  const onSubmit = handleSubmit((values) => sender.send(values, 'person', setError));

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-label={t('kind.person')}>
      <Panel>
        <fieldset disabled={sender.busy} className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          <SectionTitle>{t('form.details')}</SectionTitle>
          <TextField
            label={t('form.first_name')}
            autoComplete="given-name"
            maxLength={100}
            error={err(errors.first_name?.message)}
            {...register('first_name')}
          />
          <TextField
            label={t('form.last_name')}
            autoComplete="family-name"
            maxLength={100}
            error={err(errors.last_name?.message)}
            {...register('last_name')}
          />
          <TextField
            type="date"
            label={t('form.birthday')}
            hint={t('form.birthday_hint')}
            autoComplete="bday"
            error={err(errors.birthday?.message)}
            {...register('birthday')}
          />
          <TextField
            label={t('form.personal_code')}
            hint={t('form.personal_code_hint')}
            maxLength={40}
            error={err(errors.personal_code?.message)}
            {...register('personal_code')}
          />
          <TextField
            className="sm:col-span-2"
            label={t('form.address')}
            placeholder={t('form.address_placeholder')}
            autoComplete="street-address"
            maxLength={300}
            error={err(errors.address?.message)}
            {...register('address')}
          />
        </fieldset>
      </Panel>
      <DocumentsPanel control={control} names={PERSON_DOCUMENTS} disabled={sender.busy} />
      <FormFooter busy={sender.busy} progress={sender.progress} />
    </form>
  );
}

/** A form's documents, each a form value checked by the form's schema. */
function DocumentsPanel<T extends FieldValues>({
  control,
  names,
  disabled,
}: {
  control: Control<T>;
  names: readonly Path<T>[];
  disabled: boolean;
}) {
  const { t } = useTranslation('verification');
  return (
    <Panel>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <SectionTitle hint={t('form.documents_hint')}>{t('form.documents')}</SectionTitle>
        {names.map((name) => (
          <Controller
            key={name}
            control={control}
            name={name}
            render={({ field, fieldState }) => (
              <DocumentInput
                label={t(`form.${name}`)}
                file={(field.value as File | null | undefined) ?? null}
                onChange={field.onChange}
                error={translateValidation(fieldState.error?.message)}
                disabled={disabled}
              />
            )}
          />
        ))}
      </div>
    </Panel>
  );
}

type CompanyInput = z.input<typeof companyForm>;
type CompanyOutput = z.output<typeof companyForm>;

export function CompanyForm({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation('verification');
  const sender = useSend(clientId, COMPANY_DOCUMENTS);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CompanyInput, unknown, CompanyOutput>({
    resolver: zodResolver(companyForm),
    defaultValues: {
      company_name: '',
      registration_number: '',
      representative_name: '',
      representative_birthday: '',
      iban: '',
      registration_document: null,
    },
  });
  const err = (message: string | undefined) => translateValidation(message);
  const onSubmit = handleSubmit((values) => sender.send(values, 'company', setError));

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5" aria-label={t('kind.company')}>
      <Panel>
        <fieldset disabled={sender.busy} className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          <SectionTitle>{t('form.company_details')}</SectionTitle>
          <TextField
            label={t('form.company_name')}
            autoComplete="organization"
            maxLength={200}
            error={err(errors.company_name?.message)}
            {...register('company_name')}
          />
          <TextField
            label={t('form.registration_number')}
            maxLength={40}
            error={err(errors.registration_number?.message)}
            {...register('registration_number')}
          />
          <SectionTitle>{t('form.representative')}</SectionTitle>
          <TextField
            label={t('form.representative_name')}
            autoComplete="name"
            maxLength={200}
            error={err(errors.representative_name?.message)}
            {...register('representative_name')}
          />
          <TextField
            type="date"
            label={t('form.representative_birthday')}
            hint={t('form.birthday_hint')}
            error={err(errors.representative_birthday?.message)}
            {...register('representative_birthday')}
          />
          <SectionTitle>{t('form.bank')}</SectionTitle>
          <TextField
            className="sm:col-span-2"
            label={t('form.iban')}
            hint={t('form.iban_hint')}
            autoComplete="off"
            spellCheck={false}
            maxLength={50}
            error={err(errors.iban?.message)}
            {...register('iban')}
          />
        </fieldset>
      </Panel>
      <DocumentsPanel control={control} names={COMPANY_DOCUMENTS} disabled={sender.busy} />
      <FormFooter busy={sender.busy} progress={sender.progress} />
    </form>
  );
}
