import { useQuery } from '@tanstack/react-query';
import { enrolmentInfo } from '@tipcard/shared/ops/schemas';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { OpsApiError, opsGet, opsPost } from '../ops-api.ts';
import { Card, ErrorNote, Loading, TextField } from '../ui.tsx';

/** The one-time enrolment link: scan the QR code, choose a password, prove the app works with one code. */
export function EnrolPage() {
  const token = useParams().token ?? '';
  const navigate = useNavigate();
  const info = useQuery({
    queryKey: ['ops', 'enrolment', token],
    queryFn: () => opsGet(enrolmentInfo, `/enrolment/${token}`),
  });
  const [error, setError] = useState<OpsApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await opsPost(z.object({ email: z.string() }), `/enrolment/${token}`, {
        password: form.get('password'),
        code: form.get('code'),
      });
      void navigate('/sign-in', {
        replace: true,
        state: { notice: 'Enrolment complete. Sign in with the next code your app shows.' },
      });
    } catch (caught) {
      setError(caught instanceof OpsApiError ? caught : new OpsApiError(0, 'network', 'Could not reach the server'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Card className="w-full max-w-lg">
        <h1 className="mb-4 text-xl font-semibold text-slate-900">Set up your back-office account</h1>
        {info.isPending && <Loading />}
        <ErrorNote error={info.error} />
        {info.data && (
          <div className="space-y-5">
            <p className="text-sm text-slate-700">
              Account <strong>{info.data.email}</strong>. Scan this QR code with an authenticator app (Google Authenticator,
              1Password, Aegis…), or type the key by hand.
            </p>
            <div className="flex items-center gap-5">
              <img
                src={`data:image/svg+xml;base64,${btoa(info.data.qr_svg)}`}
                alt="QR code of your authenticator key"
                width={176}
                height={176}
                className="rounded-lg border border-slate-200"
              />
              <p className="break-all font-mono text-sm text-slate-800" aria-label="Authenticator key">
                <span className="block text-xs font-sans text-slate-500">Key</span>
                <span data-testid="totp-secret">{info.data.secret}</span>
              </p>
            </div>
            <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
              <TextField
                label="New password"
                name="password"
                type="password"
                autoComplete="new-password"
                required
                error={error?.fields.password?.[0]}
              />
              <p className="-mt-2 text-xs text-slate-600">
                At least 8 characters with an upper-case letter, a lower-case letter and a number.
              </p>
              <TextField
                label="Code from the app"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                required
                error={error?.fields.code?.[0]}
              />
              {error && Object.keys(error.fields).length === 0 && <ErrorNote error={error} />}
              <Button type="submit" block loading={busy}>
                Finish enrolment
              </Button>
            </form>
          </div>
        )}
      </Card>
    </main>
  );
}
