import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { declineBody, refundAnswer, refundRequestSchema } from '@tipcard/shared/ops/schemas';
import { isUuid } from '@tipcard/shared/uuid';
import { CheckCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { showServerErrors } from '../forms.ts';
import { formatCents, formatTime, opsGet, opsPost, session } from '../ops-api.ts';
import { BESIDE_FIELDS, ConfirmDialog, IdLink, loadErrorText, Page, Table, TitledPanel } from '../ui.tsx';

type Request = z.output<typeof refundRequestSchema>;
const lookupForm = z.object({ payment: z.string().trim().min(2, 'Enter a payment’s reference or id.').max(100) });

/** A payment to refund, by the reference its guest quotes or its id: it opens on its own page, where the refund form is. */
function FindAPayment() {
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof lookupForm>, unknown, z.output<typeof lookupForm>>({
    resolver: zodResolver(lookupForm),
    defaultValues: { payment: '' },
  });
  return (
    <TitledPanel title="Refund a payment">
      <form
        onSubmit={handleSubmit(({ payment }) =>
          navigate(isUuid(payment) ? `/payments/${payment.toLowerCase()}` : `/search?q=${encodeURIComponent(payment)}`),
        )}
        className="flex max-w-2xl items-start gap-3"
        role="search"
        noValidate
      >
        <TextField label="Payment reference or id" className="flex-1" error={errors.payment?.message} {...register('payment')} />
        <Button type="submit" variant="secondary" className={BESIDE_FIELDS.md}>
          Find
        </Button>
      </form>
    </TitledPanel>
  );
}

/** Decline with the reason the audit log and the payment's page keep; nothing is refunded. */
function DeclineDialog({ request, onClose }: { request: Request; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof declineBody>, unknown, z.output<typeof declineBody>>({
    resolver: zodResolver(declineBody),
    defaultValues: { reason: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const decline = useMutation({
    mutationFn: (body: z.output<typeof declineBody>) => opsPost(refundAnswer, `/refund-requests/${request.id}/decline`, body),
    onSuccess: onClose,
    onError: (error) => showServerErrors(error, form),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
  return (
    <ConfirmDialog
      open
      title="Decline the refund"
      confirmLabel="Decline request"
      tone="danger"
      pending={decline.isPending}
      error={errors.root?.server?.message}
      onCancel={onClose}
      onConfirm={() => void handleSubmit((body) => decline.mutate(body))()}
    >
      <p>
        Decline {request.requested_by_email}’s request to refund <strong>{formatCents(request.amount_cents)}</strong> of payment{' '}
        <strong className="font-mono">{request.payment_reference}</strong>. Nothing is refunded.
      </p>
      <TextField label="Why (kept in the audit log)" maxLength={500} error={errors.reason?.message} {...register('reason')} />
    </ConfirmDialog>
  );
}

function WaitingRequests() {
  const queryClient = useQueryClient();
  const me = session.operator();
  const [declining, setDeclining] = useState<Request | null>(null);
  const [approving, setApproving] = useState<Request | null>(null);
  const requests = useQuery({
    queryKey: ['ops', 'refund-requests'],
    queryFn: () => opsGet(z.array(refundRequestSchema), '/refund-requests'),
  });
  const approve = useMutation({
    mutationFn: (id: string) => opsPost(refundAnswer, `/refund-requests/${id}/approve`),
    onSuccess: () => setApproving(null),
    // A refused approval changed what the list shows too (a request failed at the provider leaves it).
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
  return (
    <TitledPanel title="Waiting for a second approval">
      <ListState
        query={requests}
        loadingLabel="Loading refund requests…"
        errorText={loadErrorText(requests.error)}
        empty={{ icon: <CheckCheck className="size-7" />, title: 'No refund is waiting.' }}
      >
        {(rows) => (
          <Table
            caption="Refunds waiting for approval"
            columns={['Requested', 'Asked by', 'Payment', 'Amount', 'Reason', '']}
            rows={rows.map((request) => ({
              key: request.id,
              cells: [
                formatTime(request.created_at),
                request.requested_by_email,
                <IdLink key="payment" to={`/payments/${request.payment_id}`}>
                  {request.payment_reference}
                </IdLink>,
                formatCents(request.amount_cents),
                request.reason,
                request.status === 'refunding' ? (
                  <span key="refunding" className="text-xs text-slate-600">
                    Under way at the provider
                  </span>
                ) : request.requested_by === me?.id ? (
                  <span key="own" className="text-xs text-slate-600">
                    Your request: another operator approves
                  </span>
                ) : (
                  <div key="decide" className="flex gap-2">
                    <Button size="sm" onClick={() => setApproving(request)}>
                      Approve…
                    </Button>
                    <Button size="sm" variant="danger" onClick={() => setDeclining(request)}>
                      Decline…
                    </Button>
                  </div>
                ),
              ],
            }))}
          />
        )}
      </ListState>
      {declining && <DeclineDialog key={declining.id} request={declining} onClose={() => setDeclining(null)} />}
      <ConfirmDialog
        open={approving !== null}
        title="Approve the refund"
        confirmLabel={approving ? `Refund ${formatCents(approving.amount_cents)}` : 'Refund'}
        pending={approve.isPending}
        error={approve.error}
        onCancel={() => {
          approve.reset();
          setApproving(null);
        }}
        onConfirm={() => approving && approve.mutate(approving.id)}
      >
        {approving && (
          <>
            <p>
              Give <strong>{formatCents(approving.amount_cents)}</strong> back to the guest who paid payment{' '}
              <strong className="font-mono">{approving.payment_reference}</strong>, as {approving.requested_by_email} asked.
            </p>
            <p>Reason: {approving.reason}</p>
          </>
        )}
      </ConfirmDialog>
    </TitledPanel>
  );
}

export default function RefundsPage() {
  return (
    <Page title="Refunds">
      <FindAPayment />
      <WaitingRequests />
    </Page>
  );
}
