import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import { opsPaymentSchema, refundAnswer, refundBody, refundRequestSchema, type OpsPayment } from '@tipcard/shared/ops/schemas';
import { CheckCheck } from 'lucide-react';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { SkeletonRows } from '../../components/ui/skeleton.tsx';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { showServerErrors } from '../forms.ts';
import { formatCents, formatTime, opsGet, opsPost, session } from '../ops-api.ts';
import { BESIDE_FIELDS, ErrorNote, loadErrorText, Page, Table, TitledPanel } from '../ui.tsx';

const lookupForm = z.object({ payment: z.string().trim().pipe(z.uuid('Enter a payment id (a UUID).')) });

/** Euros as typed, to integer cents by the shared parser (never a float), then the API's own amount rule. */
const refundForm = z.object({
  amount_cents: z
    .string()
    .transform((text, context) => {
      const cents = parseAmountInput(text);
      if (cents === null || cents === 0) {
        context.addIssue({ code: 'custom', message: 'Enter an amount in euros above zero, e.g. 12.50.' });
        return z.NEVER;
      }
      return cents;
    })
    .pipe(refundBody.shape.amount_cents),
  reason: refundBody.shape.reason,
});
type Refund = z.output<typeof refundBody>;

const OUTCOMES: Record<z.output<typeof refundAnswer>['status'], (paymentStatus: string) => string> = {
  refunded: (paymentStatus) => `Refunded. The payment is now ${paymentStatus}.`,
  awaiting_approval: () => "This payment's refunds are above the approval limit: this one waits for a second finance operator.",
  refunding: () => 'The refund is under way at the provider; it finishes on its own.',
  rejected: () => 'This refund request was declined.',
};

function RefundForm({ payment }: { payment: OpsPayment }) {
  const queryClient = useQueryClient();
  /** The Idempotency-Key names one refund as typed: retrying it keeps the key, changing it takes a new one. */
  const idempotency = useRef<{ body: string; key: string } | null>(null);
  const keyFor = (body: Refund) => {
    const signature = JSON.stringify([body.amount_cents, body.reason]);
    if (idempotency.current?.body !== signature) idempotency.current = { body: signature, key: newIdempotencyKey() };
    return idempotency.current.key;
  };
  const form = useForm<z.input<typeof refundForm>, unknown, Refund>({
    resolver: zodResolver(refundForm),
    defaultValues: { amount_cents: '', reason: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const refund = useMutation({
    mutationFn: (body: Refund) =>
      opsPost(refundAnswer, `/payments/${payment.id}/refunds`, body, { 'idempotency-key': keyFor(body) }),
    onSuccess: () => {
      idempotency.current = null;
      void queryClient.invalidateQueries({ queryKey: ['ops'] });
    },
    onError: (error) => showServerErrors(error, form),
  });
  return (
    <div className="mt-4 space-y-4">
      <p className="text-sm text-slate-700">
        {payment.purpose} · {payment.status} · paid {formatCents(payment.total_cents)} · refunded so far{' '}
        {formatCents(payment.refunded_cents)} · {formatTime(payment.created_at)}
      </p>
      <form
        onSubmit={handleSubmit((body) => refund.mutate(body))}
        className="grid max-w-2xl grid-cols-2 items-start gap-3"
        noValidate
      >
        <TextField label="Amount (EUR)" inputMode="decimal" error={errors.amount_cents?.message} {...register('amount_cents')} />
        <TextField label="Reason" maxLength={500} error={errors.reason?.message} {...register('reason')} />
        <Button type="submit" className="justify-self-start" loading={refund.isPending}>
          Refund
        </Button>
      </form>
      <ErrorNote error={errors.root?.server?.message} />
      {refund.data && (
        <p role="status" className="text-sm text-green-800">
          {OUTCOMES[refund.data.status](refund.data.payment_status)}
        </p>
      )}
    </div>
  );
}

function RefundAPayment() {
  const [lookup, setLookup] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof lookupForm>, unknown, z.output<typeof lookupForm>>({
    resolver: zodResolver(lookupForm),
    defaultValues: { payment: '' },
  });
  const payment = useQuery({
    queryKey: ['ops', 'payment', lookup],
    queryFn: () => opsGet(opsPaymentSchema, `/payments/${lookup}`),
    enabled: lookup !== '',
  });
  return (
    <TitledPanel title="Refund a payment">
      <form
        onSubmit={handleSubmit((values) => setLookup(values.payment))}
        className="flex max-w-2xl items-start gap-3"
        role="search"
        noValidate
      >
        <TextField label="Payment id" className="flex-1" error={errors.payment?.message} {...register('payment')} />
        <Button type="submit" variant="secondary" className={BESIDE_FIELDS.md}>
          Find
        </Button>
      </form>
      {payment.isLoading && <SkeletonRows label="Looking up the payment…" rows={2} className="mt-4" />}
      <div className="mt-4 empty:hidden">
        <ErrorNote error={payment.error} />
      </div>
      {/* A new form per payment: an amount typed for one payment is not refunded from the next. */}
      {payment.data && <RefundForm key={payment.data.id} payment={payment.data} />}
    </TitledPanel>
  );
}

function WaitingRequests() {
  const queryClient = useQueryClient();
  const me = session.operator();
  const requests = useQuery({
    queryKey: ['ops', 'refund-requests'],
    queryFn: () => opsGet(z.array(refundRequestSchema), '/refund-requests'),
  });
  const decide = useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'approve' | 'decline' }) =>
      opsPost(refundAnswer, `/refund-requests/${id}/${decision}`),
    // A refused approval changed what the list shows too (a request failed at the provider leaves it).
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
  const deciding = (id: string, decision: 'approve' | 'decline') =>
    decide.isPending && decide.variables.id === id && decide.variables.decision === decision;
  return (
    <TitledPanel title="Waiting for a second approval">
      <div className="mb-3 empty:hidden">
        <ErrorNote error={decide.error} />
      </div>
      <ListState
        query={requests}
        loadingLabel="Loading refund requests…"
        errorText={loadErrorText(requests.error)}
        empty={{ icon: <CheckCheck className="size-7" />, title: 'No refund is waiting.' }}
      >
        {(rows) => (
          <Table
            caption="Refunds waiting for approval"
            columns={['Requested', 'Payment', 'Amount', 'Reason', '']}
            rows={rows.map((request) => ({
              key: request.id,
              cells: [
                formatTime(request.created_at),
                <code key="payment" className="text-xs">
                  {request.payment_id}
                </code>,
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
                    <Button
                      size="sm"
                      onClick={() => decide.mutate({ id: request.id, decision: 'approve' })}
                      loading={deciding(request.id, 'approve')}
                      disabled={decide.isPending}
                    >
                      Approve
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      onClick={() => decide.mutate({ id: request.id, decision: 'decline' })}
                      loading={deciding(request.id, 'decline')}
                      disabled={decide.isPending}
                    >
                      Decline
                    </Button>
                  </div>
                ),
              ],
            }))}
          />
        )}
      </ListState>
    </TitledPanel>
  );
}

export default function RefundsPage() {
  return (
    <Page title="Refunds">
      <RefundAPayment />
      <WaitingRequests />
    </Page>
  );
}
