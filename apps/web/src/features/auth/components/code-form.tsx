import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ArrowLeft } from 'lucide-react';
import { verifyBody } from '@tipcard/shared/auth/schemas';
import { OTP_LENGTH } from '@tipcard/shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useCountdown } from '../../../lib/use-countdown.ts';

type CodeInput = z.input<typeof verifyBody>;

interface CodeFormProps {
  phone: string | null;
  resendAt: number;
  submitting: boolean;
  resending: boolean;
  submitLabel: string;
  /** `refuse` marks the field with the message, clears it and puts the cursor back, for another try. */
  onSubmit: (code: string, refuse: (message: string) => void) => void;
  onResend: () => void;
  onBack: () => void;
}

/** The confirmation-code step shared by login and registration, with a resend countdown. */
export function CodeForm({ phone, resendAt, submitting, resending, submitLabel, onSubmit, onResend, onBack }: CodeFormProps) {
  const { t } = useTranslation('auth');
  const secondsLeft = useCountdown(resendAt);
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<CodeInput, unknown, z.output<typeof verifyBody>>({
    resolver: zodResolver(verifyBody),
    defaultValues: { code: '' },
  });
  const refuse = (message: string) => {
    setValue('code', '');
    setError('code', { type: 'server', message }, { shouldFocus: true });
  };

  return (
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(values.code, refuse))} className="space-y-5">
      <p className="rounded-xl bg-primary-50 px-4 py-3 text-sm text-primary-900">
        {t('code.sent_to')} <strong className="whitespace-nowrap font-semibold">{phone}</strong>
      </p>
      <TextField
        label={t('code.label')}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={OTP_LENGTH}
        placeholder="••••••"
        autoFocus
        className="[&_input]:text-center [&_input]:text-2xl [&_input]:font-semibold [&_input]:tracking-[0.5em]"
        error={errors.code ? (errors.code.type === 'server' ? errors.code.message : t('errors.not_blank')) : undefined}
        {...register('code')}
      />
      <Button type="submit" block size="lg" loading={submitting}>
        {submitLabel}
      </Button>
      <div className="flex flex-col items-center gap-3 text-sm">
        {secondsLeft > 0 ? (
          <p className="text-slate-600">{t('code.resend_in', { seconds: secondsLeft })}</p>
        ) : (
          <Button variant="ghost" size="sm" onClick={onResend} loading={resending}>
            {t('code.resend')}
          </Button>
        )}
        <Button variant="ghost" size="sm" onClick={onBack} icon={<ArrowLeft className="size-4" aria-hidden="true" />}>
          {t('code.change_phone')}
        </Button>
      </div>
    </form>
  );
}
