import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { MailCheck, UserPlus } from 'lucide-react';
import { registerBody } from '@tipcard/shared/auth/schemas';
import { Button } from '../../components/ui/button.tsx';
import { CheckboxField } from '../../components/ui/field.tsx';
import { translateValidation } from '../../lib/i18n.ts';
import { readPromoSource } from '../../lib/promo-source.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useRegister, useResendRegistrationCode, useVerifyRegistration } from './api/use-auth-actions.ts';
import { resetAuth, useAuthState } from './auth-store.ts';
import { AuthCard } from './components/auth-card.tsx';
import { CodeForm } from './components/code-form.tsx';
import { PhoneField } from './components/phone-form.tsx';
import { showAuthFailure, showResendFailure } from './show-auth-failure.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

type RegisterInput = z.input<typeof registerBody>;

/** The advert parameter that names where the user came from (spec 3 "promo source"). */
const PROMO_PARAMS = ['advert', 'promo_source', 'promo', 'utm_source', 'ad'];

export default function RegistrationPage() {
  const { t } = useTranslation('auth');
  const to = useLocalePath();
  const [params] = useSearchParams();
  const step = useAuthState((state) => state.step);
  const uid = useAuthState((state) => state.uid);
  const phone = useAuthState((state) => state.phone);
  const resendAt = useAuthState((state) => state.resendAt);
  const registration = useRegister();
  const resend = useResendRegistrationCode();
  const verify = useVerifyRegistration();
  useDocumentTitle(t('registration.title'));

  useEffect(() => {
    if (step === 'login_code') resetAuth();
    return () => resetAuth();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RegisterInput, unknown, z.output<typeof registerBody>>({
    resolver: zodResolver(registerBody),
    defaultValues: { username: phone ?? '', age_confirmed: false as unknown as true, terms_accepted: false as unknown as true },
  });

  const onSubmit = handleSubmit((values) => {
    const referral = params.get('ref')?.trim();
    // This page's own parameters first, then the advert the visitor arrived with earlier in the session.
    const promo = PROMO_PARAMS.map((name) => params.get(name)?.trim()).find(Boolean) ?? readPromoSource();
    registration.mutate(
      {
        username: values.username,
        age_confirmed: true,
        terms_accepted: true,
        ...(referral ? { referral_code: referral.slice(0, 32) } : {}),
        ...(promo ? { promo_source: promo.slice(0, 100) } : {}),
      },
      { onError: showAuthFailure },
    );
  });

  if (step === 'verifying' && uid) {
    return (
      <AuthCard title={t('registration.code_title')} subtitle={t('registration.code_subtitle')} icon={<MailCheck className="size-6" aria-hidden="true" />}>
        <CodeForm
          phone={phone}
          resendAt={resendAt}
          submitting={verify.isPending}
          resending={resend.isPending}
          submitLabel={t('registration.submit_code')}
          onSubmit={(code) => verify.mutate({ uid, code }, { onError: showAuthFailure })}
          onResend={() => resend.mutate(uid, { onError: showResendFailure })}
          onBack={resetAuth}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('registration.title')}
      subtitle={t('registration.subtitle')}
      icon={<UserPlus className="size-6" aria-hidden="true" />}
      footer={
        <>
          {t('registration.have_account')}{' '}
          <Link to={to('/login')} className="font-semibold text-primary-800 underline-offset-4 hover:underline">
            {t('registration.to_login')}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <PhoneField registration={register('username')} error={errors.username} />
        <div className="space-y-3 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200/70">
          <CheckboxField label={t('registration.age')} error={translateValidation(errors.age_confirmed?.message)} {...register('age_confirmed')} />
          <CheckboxField label={t('registration.terms')} error={translateValidation(errors.terms_accepted?.message)} {...register('terms_accepted')} />
        </div>
        <Button type="submit" block size="lg" loading={registration.isPending}>
          {t('registration.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
