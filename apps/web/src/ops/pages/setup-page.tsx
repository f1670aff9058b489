import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { createdOperator, setUpBody } from '@tipcard/shared/ops/schemas';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Panel } from '../../components/ui/page-header.tsx';
import { showServerErrors } from '../forms.ts';
import { opsCheck, opsPost } from '../ops-api.ts';
import { ErrorNote, loadErrorText } from '../ui.tsx';

type SetUp = z.input<typeof setUpBody>;

/**
 * The first admin, from the link the server prints at start while the back office has no operator: their e-mail,
 * then straight on to their enrolment (password and authenticator). The link is dead once an operator exists.
 */
export function SetupPage() {
  const token = useParams().token ?? '';
  const navigate = useNavigate();
  // A query's data cannot be undefined: the check answers true once the API said the link opens.
  const open = useQuery({
    queryKey: ['ops', 'setup', token],
    queryFn: async () => {
      await opsCheck(`/setup/${token}`);
      return true;
    },
  });
  const form = useForm<SetUp, unknown, z.output<typeof setUpBody>>({
    resolver: zodResolver(setUpBody),
    defaultValues: { email: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const setUp = useMutation({
    mutationFn: (body: z.output<typeof setUpBody>) => opsPost(createdOperator, `/setup/${token}`, body),
    onSuccess: ({ enrolment_url }) => void navigate(`/enrol/${enrolment_url.split('/').pop()}`, { replace: true }),
    onError: (error) => showServerErrors(error, form),
  });
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <Panel className="w-full max-w-sm">
        <h1 className="mb-1 text-xl font-semibold text-primary-950">Set up the back office</h1>
        {open.isPending && (
          <p role="status" className="text-sm text-slate-600">
            Checking the link…
          </p>
        )}
        {open.isError && (
          <div className="space-y-3">
            <ErrorNote error={loadErrorText(open.error)} />
            <Link to="/sign-in" className="text-sm font-medium text-primary-800 underline">
              Go to sign-in
            </Link>
          </div>
        )}
        {open.isSuccess && (
          <>
            <p className="mb-5 text-sm text-slate-600">
              No operator exists yet. Enter the e-mail of the first admin: next, you set their password and authenticator app.
            </p>
            <form onSubmit={handleSubmit((body) => setUp.mutate(body))} className="space-y-4" noValidate>
              <TextField
                label="E-mail"
                type="email"
                autoComplete="username"
                error={errors.email?.message}
                {...register('email')}
              />
              <ErrorNote error={errors.root?.server?.message} />
              <Button type="submit" block loading={setUp.isPending}>
                Continue
              </Button>
            </form>
          </>
        )}
      </Panel>
    </main>
  );
}
