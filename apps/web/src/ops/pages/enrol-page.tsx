import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { enrolBody, enrolmentInfo } from '@tipcard/shared/ops/schemas';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Panel } from '../../components/ui/page-header.tsx';
import { showServerErrors } from '../forms.ts';
import { opsGet, opsPost } from '../ops-api.ts';
import { ErrorNote, RecordState } from '../ui.tsx';

type Enrolment = z.output<typeof enrolmentInfo>;

function EnrolForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = useForm<z.input<typeof enrolBody>, unknown, z.output<typeof enrolBody>>({
    resolver: zodResolver(enrolBody),
    defaultValues: { password: '', code: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const enrol = useMutation({
    mutationFn: (body: z.output<typeof enrolBody>) => opsPost(z.object({ email: z.string() }), `/enrolment/${token}`, body),
    onSuccess: () =>
      void navigate('/sign-in', {
        replace: true,
        state: { notice: 'Enrolment complete. Sign in with the next code your app shows.' },
      }),
    onError: (error) => showServerErrors(error, form),
  });
  return (
    <form onSubmit={handleSubmit((body) => enrol.mutate(body))} className="space-y-4" noValidate>
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters with an upper-case letter, a lower-case letter and a number."
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Code from the app"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        error={errors.code?.message}
        {...register('code')}
      />
      <ErrorNote error={errors.root?.server?.message} />
      <Button type="submit" block loading={enrol.isPending}>
        Finish enrolment
      </Button>
    </form>
  );
}

function AuthenticatorKey({ info }: { info: Enrolment }) {
  return (
    <>
      <p className="text-sm text-slate-700">
        Account <strong>{info.email}</strong>. Scan this QR code with an authenticator app (Google Authenticator, 1Password,
        Aegis…), or type the key by hand.
      </p>
      <div className="flex items-center gap-5">
        <img
          src={`data:image/svg+xml;base64,${btoa(info.qr_svg)}`}
          alt="QR code of your authenticator key"
          width={176}
          height={176}
          className="rounded-lg border border-slate-200"
        />
        <p className="break-all font-mono text-sm text-slate-800" aria-label="Authenticator key">
          <span className="block font-sans text-xs text-slate-500">Key</span>
          <span data-testid="totp-secret">{info.secret}</span>
        </p>
      </div>
    </>
  );
}

/** The one-time enrolment link: scan the QR code, choose a password, prove the app works with one code. */
export function EnrolPage() {
  const token = useParams().token ?? '';
  const info = useQuery({
    queryKey: ['ops', 'enrolment', token],
    queryFn: () => opsGet(enrolmentInfo, `/enrolment/${token}`),
  });
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Panel className="w-full max-w-lg">
        <h1 className="mb-4 text-xl font-semibold text-primary-950">Set up your back-office account</h1>
        <RecordState query={info} loadingLabel="Loading your enrolment…">
          {(data) => (
            <div className="space-y-5">
              <AuthenticatorKey info={data} />
              <EnrolForm token={token} />
            </div>
          )}
        </RecordState>
      </Panel>
    </main>
  );
}
