import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { signInAnswer, signInBody } from '@tipcard/shared/ops/schemas';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Panel } from '../../components/ui/page-header.tsx';
import { showServerErrors } from '../forms.ts';
import { opsPost, session } from '../ops-api.ts';
import { passkeyErrorText, signInWithPasskey } from '../passkeys.ts';
import { ErrorNote } from '../ui.tsx';

type SignIn = z.input<typeof signInBody>;
type SignedIn = z.output<typeof signInAnswer>;
/** What the screens hand to sign-in: why the operator is here, and the screen to go back to afterwards. */
export interface SignInState {
  notice?: string | null | undefined;
  from?: string | undefined;
}

export function SignInPage() {
  const navigate = useNavigate();
  const state = useLocation().state as SignInState | null;
  const notice = state?.notice;
  const form = useForm<SignIn, unknown, z.output<typeof signInBody>>({
    resolver: zodResolver(signInBody),
    defaultValues: { email: '', password: '', code: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  /** Either way in, the same session, and back to the screen the operator opened. */
  const signedIn = ({ token, operator }: SignedIn) => {
    session.save(token, { id: operator.id, email: operator.email, role: operator.role });
    // A screen this role may not open falls back to the first one it may (the shell's guard).
    void navigate(state?.from && state.from !== '/sign-in' ? state.from : '/', { replace: true });
  };
  const signIn = useMutation({
    mutationFn: (body: z.output<typeof signInBody>) => opsPost(signInAnswer, '/sign-in', body),
    onSuccess: signedIn,
    onError: (error) => showServerErrors(error, form),
  });
  const passkey = useMutation({ mutationFn: signInWithPasskey, onSuccess: signedIn });

  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Panel className="w-full max-w-sm">
        <h1 className="mb-1 text-xl font-semibold text-primary-950">Tipcard Ops</h1>
        <p className="mb-5 text-sm text-slate-600">Sign in with your e-mail, password and the code of your authenticator app.</p>
        {notice && (
          <p role="status" className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {notice}
          </p>
        )}
        <form onSubmit={handleSubmit((body) => signIn.mutate(body))} className="space-y-4" noValidate>
          <TextField label="E-mail" type="email" autoComplete="username" error={errors.email?.message} {...register('email')} />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <TextField
            label="Authenticator code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            error={errors.code?.message}
            {...register('code')}
          />
          <ErrorNote error={errors.root?.server?.message} />
          <Button type="submit" block loading={signIn.isPending}>
            Sign in
          </Button>
        </form>
        {browserSupportsWebAuthn() && (
          <div className="mt-5 space-y-3 border-t border-slate-200 pt-5">
            <p className="text-sm text-slate-600">Or, with a passkey you added to your account:</p>
            {passkey.error && <ErrorNote error={passkeyErrorText(passkey.error)} />}
            <Button variant="secondary" block loading={passkey.isPending} onClick={() => passkey.mutate()}>
              Sign in with a passkey
            </Button>
          </div>
        )}
      </Panel>
    </main>
  );
}
