import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { KeyRound, LogIn } from 'lucide-react';
import { requestOtpBody } from '@tipcard/shared/auth/schemas';
import { OTP_RESEND_WAIT_SECONDS } from '@tipcard/shared/constants';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useLoginCheck, useRequestOtp, useResendLoginCode } from './api/use-auth-actions.ts';
import { resetAuth, startLoginCode, useAuthState } from './auth-store.ts';
import { AuthCard } from './components/auth-card.tsx';
import { CodeForm } from './components/code-form.tsx';
import { PhoneField } from './components/phone-form.tsx';
import { authFailureOf } from '../../lib/api-errors.ts';
import { showAuthFailure, showCodeFailure, showResendFailure } from './show-auth-failure.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const to = useLocalePath();
  const step = useAuthState((state) => state.step);
  const uid = useAuthState((state) => state.uid);
  const phone = useAuthState((state) => state.phone);
  const resendAt = useAuthState((state) => state.resendAt);
  const requestOtp = useRequestOtp();
  const resend = useResendLoginCode();
  const loginCheck = useLoginCheck();
  // The number typed on the registration page when it was already taken ("Log in instead").
  const carriedPhone = (useLocation().state as { phone?: string } | null)?.phone;
  useDocumentTitle(t('login.title'));

  useEffect(() => {
    if (step === 'verifying') resetAuth();
    return () => resetAuth();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors },
  } = useForm<z.input<typeof requestOtpBody>, unknown, z.output<typeof requestOtpBody>>({
    resolver: zodResolver(requestOtpBody),
    defaultValues: { username: phone ?? carriedPhone ?? '' },
  });

  const onPhone = handleSubmit(({ username }) => {
    requestOtp.mutate(username, {
      onError: (error) => {
        // No account for this number: said on the field, with the way to create one; gone with the next step.
        if (authFailureOf(error).key === 'user_not_found') {
          setError('username', { type: 'server', message: t('errors.user_not_found') }, { shouldFocus: true });
          return;
        }
        const failure = showAuthFailure(error);
        // A code was sent less than a minute ago: it is still valid, so go on to the code step.
        if (failure.key === 'wait') startLoginCode(username, failure.seconds ?? OTP_RESEND_WAIT_SECONDS);
      },
    });
  });

  if (step === 'login_code' && uid) {
    return (
      <AuthCard
        title={t('login.code_title')}
        subtitle={t('login.code_subtitle')}
        icon={<KeyRound className="size-6" aria-hidden="true" />}
      >
        <CodeForm
          phone={phone}
          resendAt={resendAt}
          submitting={loginCheck.isPending}
          resending={resend.isPending}
          submitLabel={t('login.submit_code')}
          onSubmit={(code, refuse) =>
            loginCheck.mutate({ username: uid, password: code }, { onError: (error) => showCodeFailure(error, refuse) })
          }
          onResend={() => resend.mutate(uid, { onError: showResendFailure })}
          onBack={resetAuth}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      icon={<LogIn className="size-6" aria-hidden="true" />}
      footer={
        <>
          {t('login.no_account')}{' '}
          <Link to={to('/registration')} className="font-semibold text-primary-800 underline-offset-4 hover:underline">
            {t('login.to_registration')}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onPhone} className="space-y-5">
        <PhoneField registration={register('username')} error={errors.username} />
        {errors.username?.type === 'server' ? (
          <ButtonLink to={to('/registration')} state={{ phone: getValues('username') }} variant="secondary" block>
            {t('login.create_instead')}
          </ButtonLink>
        ) : null}
        <Button type="submit" block size="lg" loading={requestOtp.isPending}>
          {t('login.get_code')}
        </Button>
      </form>
    </AuthCard>
  );
}
