import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { MailCheck, UserPlus } from 'lucide-react';
import { registerBody } from '@tipcard/shared/auth/schemas';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { CheckboxField } from '../../components/ui/field.tsx';
import { translateValidation } from '../../lib/i18n.ts';
import { readPromoSource } from '../../lib/promo-source.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useReferralInviter, useRegister, useResendRegistrationCode, useVerifyRegistration } from './api/use-auth-actions.ts';
import { resetAuth, useAuthState } from './auth-store.ts';
import { AuthCard } from './components/auth-card.tsx';
import { CodeForm } from './components/code-form.tsx';
import { PhoneField } from './components/phone-form.tsx';
import { authFailureOf } from '../../lib/api-errors.ts';
import { showAuthFailure, showCodeFailure, showResendFailure } from './show-auth-failure.ts';
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
  // The number typed on the log-in page when it had no account ("Create an account").
  const carriedPhone = (useLocation().state as { phone?: string } | null)?.phone;
  const referral = params.get('ref')?.trim().slice(0, 32) || undefined;
  const inviter = useReferralInviter(referral);
  useDocumentTitle(t('registration.title'));

  useEffect(() => {
    if (step === 'login_code') resetAuth();
    return () => resetAuth();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors },
  } = useForm<RegisterInput, unknown, z.output<typeof registerBody>>({
    resolver: zodResolver(registerBody),
    defaultValues: {
      username: phone ?? carriedPhone ?? '',
      age_confirmed: false as unknown as true,
      terms_accepted: false as unknown as true,
    },
  });

  const onSubmit = handleSubmit((values) => {
    // This page's own parameters first, then the advert the visitor arrived with earlier in the session.
    const promo = PROMO_PARAMS.map((name) => params.get(name)?.trim()).find(Boolean) ?? readPromoSource();
    registration.mutate(
      {
        username: values.username,
        age_confirmed: true,
        terms_accepted: true,
        ...(referral ? { referral_code: referral } : {}),
        ...(promo ? { promo_source: promo.slice(0, 100) } : {}),
      },
      {
        onError: (error) => {
          // The number has an account already: said on the field, with the way to log in instead.
          if (authFailureOf(error).key === 'phone_taken') {
            setError('username', { type: 'server', message: t('errors.phone_taken') }, { shouldFocus: true });
            return;
          }
          showAuthFailure(error);
        },
      },
    );
  });

  if (step === 'verifying' && uid) {
    return (
      <AuthCard
        title={t('registration.code_title')}
        subtitle={t('registration.code_subtitle')}
        icon={<MailCheck className="size-6" aria-hidden="true" />}
      >
        <CodeForm
          phone={phone}
          resendAt={resendAt}
          submitting={verify.isPending}
          resending={resend.isPending}
          submitLabel={t('registration.submit_code')}
          onSubmit={(code, refuse) => verify.mutate({ uid, code }, { onError: (error) => showCodeFailure(error, refuse) })}
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
      {inviter.data ? (
        <p
          className="mb-5 rounded-2xl bg-primary-50 px-4 py-3 text-sm font-medium text-primary-900 ring-1 ring-primary-100"
          data-testid="referral-inviter"
        >
          {t('registration.invited_by', { name: inviter.data.inviter_name })}
        </p>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <PhoneField registration={register('username')} error={errors.username} />
        {errors.username?.type === 'server' ? (
          <ButtonLink to={to('/login')} state={{ phone: getValues('username') }} variant="secondary" block>
            {t('registration.login_instead')}
          </ButtonLink>
        ) : null}
        <div className="space-y-3 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200/70">
          <CheckboxField
            label={t('registration.age')}
            error={translateValidation(errors.age_confirmed?.message)}
            {...register('age_confirmed')}
          />
          <CheckboxField
            label={
              <Trans
                t={t}
                i18nKey="registration.terms"
                components={{
                  // A new tab: following the link must not lose what is typed here.
                  terms: (
                    <Link
                      to={to('/terms')}
                      target="_blank"
                      className="font-semibold text-primary-800 underline underline-offset-4"
                    />
                  ),
                  privacy: (
                    <Link
                      to={to('/privacy')}
                      target="_blank"
                      className="font-semibold text-primary-800 underline underline-offset-4"
                    />
                  ),
                }}
              />
            }
            error={translateValidation(errors.terms_accepted?.message)}
            {...register('terms_accepted')}
          />
        </div>
        <Button type="submit" block size="lg" loading={registration.isPending}>
          {t('registration.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
