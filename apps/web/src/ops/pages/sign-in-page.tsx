import { signInAnswer } from '@tipcard/shared/ops/schemas';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button-base.tsx';
import { OpsApiError, opsPost, session } from '../ops-api.ts';
import { Card, ErrorNote, TextField } from '../ui.tsx';

export function SignInPage() {
  const navigate = useNavigate();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const answer = await opsPost(signInAnswer, '/sign-in', {
        email: form.get('email'),
        password: form.get('password'),
        code: form.get('code'),
      });
      session.save(answer.token, { id: answer.operator.id, email: answer.operator.email, role: answer.operator.role });
      void navigate('/', { replace: true });
    } catch (caught) {
      setError(caught instanceof OpsApiError ? caught : new Error('Could not reach the server'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Card className="w-full max-w-sm">
        <h1 className="mb-1 text-xl font-semibold text-slate-900">Tipcard Ops</h1>
        <p className="mb-5 text-sm text-slate-600">Sign in with your e-mail, password and the code of your authenticator app.</p>
        {notice && (
          <p role="status" className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {notice}
          </p>
        )}
        <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
          <TextField label="E-mail" name="email" type="email" autoComplete="username" required />
          <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
          <TextField
            label="Authenticator code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
          />
          <ErrorNote error={error} />
          <Button type="submit" block loading={busy}>
            Sign in
          </Button>
        </form>
      </Card>
    </main>
  );
}
