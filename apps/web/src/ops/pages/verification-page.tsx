import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { verificationDecisionBody } from '@tipcard/shared/ops/schemas';
import { opsVerificationDetail, reasonBody, type OpsVerificationDetail } from '@tipcard/shared/ops/schemas';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { showServerErrors } from '../forms.ts';
import { formatTime, opsBlob, opsGet, opsPost } from '../ops-api.ts';
import { Badge, ErrorNote, Page, RecordState, TitledPanel } from '../ui.tsx';

const DOCUMENT_LABELS: Record<string, string> = {
  document_front: 'Document, front',
  document_back: 'Document, back',
  registration_document: 'Registration certificate',
};

/** One document, fetched with the operator's token and shown inline from a blob: an image, or a PDF in a frame. */
function DocumentView({ verificationId, field }: { verificationId: string; field: string }) {
  const [view, setView] = useState<{ url: string; type: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let url: string | undefined;
    opsBlob(`/verifications/${verificationId}/documents/${field}`)
      .then((blob) => {
        url = URL.createObjectURL(blob);
        setView({ url, type: blob.type });
      })
      .catch(setError);
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [verificationId, field]);
  const label = DOCUMENT_LABELS[field] ?? field;
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium text-slate-700">{label}</figcaption>
      <ErrorNote error={error} />
      {!view && !error && <Skeleton className="h-64" />}
      {view && view.type === 'application/pdf' && (
        <iframe src={view.url} title={label} className="h-[520px] w-full rounded-lg border border-slate-200" />
      )}
      {view && view.type !== 'application/pdf' && (
        <img src={view.url} alt={label} className="max-h-[520px] rounded-lg border border-slate-200 object-contain" />
      )}
    </figure>
  );
}

/** Approve, or reject with the reason the user is shown; the reason is asked for only by a rejection. */
function DecisionForm({ verificationId }: { verificationId: string }) {
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof reasonBody>, unknown, z.output<typeof reasonBody>>({
    resolver: zodResolver(reasonBody),
    defaultValues: { reason: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const decide = useMutation({
    mutationFn: (body: z.output<typeof verificationDecisionBody>) =>
      opsPost(z.object({ status: z.string() }), `/verifications/${verificationId}/decision`, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['ops'] }),
    onError: (error) => showServerErrors(error, form),
  });
  return (
    <form
      onSubmit={handleSubmit(({ reason }) => decide.mutate({ decision: 'reject', reason }))}
      className="mt-6 space-y-3 border-t border-slate-200 pt-4"
      noValidate
    >
      <Button
        onClick={() => decide.mutate({ decision: 'approve' })}
        loading={decide.isPending && decide.variables.decision === 'approve'}
        block
      >
        Approve
      </Button>
      <TextField label="Reason the user will see" maxLength={500} error={errors.reason?.message} {...register('reason')} />
      <Button type="submit" variant="danger" block loading={decide.isPending && decide.variables.decision === 'reject'}>
        Reject
      </Button>
      <ErrorNote error={errors.root?.server?.message} />
    </form>
  );
}

function VerificationDetail({ request }: { request: OpsVerificationDetail }) {
  return (
    <Page
      title={`Verification of ${request.user.phone}`}
      actions={
        <Badge tone={request.status === 'approved' ? 'green' : request.status === 'rejected' ? 'red' : 'amber'}>
          {request.status}
        </Badge>
      }
    >
      <div className="grid gap-6 xl:grid-cols-[minmax(280px,1fr)_2fr]">
        <TitledPanel title={`Submitted data (${request.kind})`}>
          <dl className="space-y-2 text-sm">
            {Object.entries(request.details).map(([key, value]) => (
              <div key={key}>
                <dt className="text-slate-500">{key.replaceAll('_', ' ')}</dt>
                <dd className="font-medium text-slate-900">{value}</dd>
              </div>
            ))}
            <div>
              <dt className="text-slate-500">submitted</dt>
              <dd>{formatTime(request.created_at)}</dd>
            </div>
            {request.rejection_reason && (
              <div>
                <dt className="text-slate-500">rejection reason</dt>
                <dd>{request.rejection_reason}</dd>
              </div>
            )}
          </dl>
          {request.status === 'pending' && <DecisionForm verificationId={request.id} />}
        </TitledPanel>
        <TitledPanel title="Documents">
          <div className="space-y-6">
            {request.documents.map((field) => (
              <DocumentView key={field} verificationId={request.id} field={field} />
            ))}
          </div>
        </TitledPanel>
      </div>
    </Page>
  );
}

export default function VerificationPage() {
  const id = useParams().id ?? '';
  const detail = useQuery({
    queryKey: ['ops', 'verification', id],
    queryFn: () => opsGet(opsVerificationDetail, `/verifications/${id}`),
  });
  return (
    <RecordState query={detail} loadingLabel="Loading the verification request…">
      {(request) => <VerificationDetail request={request} />}
    </RecordState>
  );
}
