import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { opsVerificationDetail } from '@tipcard/shared/ops/schemas';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { formatTime, opsBlob, opsGet, opsPost } from '../ops-api.ts';
import { Badge, Card, ErrorNote, Loading, Page, TextField } from '../ui.tsx';

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
      {!view && !error && <Loading />}
      {view && view.type === 'application/pdf' && (
        <iframe src={view.url} title={label} className="h-[520px] w-full rounded-lg border border-slate-200" />
      )}
      {view && view.type !== 'application/pdf' && (
        <img src={view.url} alt={label} className="max-h-[520px] rounded-lg border border-slate-200 object-contain" />
      )}
    </figure>
  );
}

export default function VerificationPage() {
  const id = useParams().id ?? '';
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: ['ops', 'verification', id],
    queryFn: () => opsGet(opsVerificationDetail, `/verifications/${id}`),
  });
  const [reason, setReason] = useState('');
  const decide = useMutation({
    mutationFn: (body: { decision: 'approve' } | { decision: 'reject'; reason: string }) =>
      opsPost(z.object({ status: z.string() }), `/verifications/${id}/decision`, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
  if (detail.isPending) return <Loading />;
  if (detail.error) return <ErrorNote error={detail.error} />;
  const request = detail.data;
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
        <Card title={`Submitted data (${request.kind})`}>
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
          {request.status === 'pending' && (
            <div className="mt-6 space-y-3 border-t border-slate-200 pt-4">
              <Button
                onClick={() => decide.mutate({ decision: 'approve' })}
                loading={decide.isPending && decide.variables.decision === 'approve'}
                block
              >
                Approve
              </Button>
              <TextField
                label="Reason the user will see"
                name="reason"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                maxLength={500}
              />
              <Button
                variant="danger"
                block
                disabled={reason.trim() === ''}
                onClick={() => decide.mutate({ decision: 'reject', reason })}
                loading={decide.isPending && decide.variables.decision === 'reject'}
              >
                Reject
              </Button>
              <ErrorNote error={decide.error} />
            </div>
          )}
        </Card>
        <Card title="Documents">
          <div className="space-y-6">
            {request.documents.map((field) => (
              <DocumentView key={field} verificationId={request.id} field={field} />
            ))}
          </div>
        </Card>
      </div>
    </Page>
  );
}
