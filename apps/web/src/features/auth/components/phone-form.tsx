import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { Phone } from 'lucide-react';
import { TextField } from '../../../components/ui/field.tsx';
import { phoneFieldError } from '../show-auth-failure.ts';

/** The phone number input of the sign-in forms (international format, served countries). */
export function PhoneField({
  registration,
  error,
  hint,
}: {
  registration: UseFormRegisterReturn;
  error?: FieldError;
  hint?: ReactNode;
}) {
  const { t } = useTranslation('auth');
  return (
    <TextField
      label={t('phone.label')}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      placeholder={t('phone.placeholder')}
      hint={hint ?? t('phone.hint')}
      prefix={<Phone className="size-4" aria-hidden="true" />}
      error={error?.type === 'server' ? error.message : phoneFieldError(error?.message)}
      {...registration}
    />
  );
}
