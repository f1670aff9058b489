import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import { opsPaymentSchema, refundAnswer, refundRequestSchema } from '@tipcard/shared/ops/schemas';
import { isUuid } from '@tipcard/shared/uuid';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { formatCents, formatTime, opsGet, opsPost, session } from '../ops-api.ts';
import { Card, Empty, ErrorNote, Loading, Page, Table, TextField } from '../ui.tsx';

export default function RefundsPage() {
  const queryClient = useQueryClient();
  const me = session.operator();
  const [paymentId, setPaymentId] = useState('');
  const [lookup, setLookup] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const payment = useQuery({
    queryKey: ['ops', 'payment', lookup],
    queryFn: () => opsGet(opsPaymentSchema, `/payments/${lookup}`),
    enabled: isUuid(lookup),
  });
  const requests = useQuery({
    queryKey: ['ops', 'refund-requests'],
    queryFn: () => opsGet(z.array(refundRequestSchema), '/refund-requests'),
  });
  const refund = useMutation({
    mutationFn: () =>
      opsPost(
        refundAnswer,
        `/payments/${lookup}/refunds`,
        { amount_cents: parseAmountInput(amount), reason },
        { 'idempotency-key': key },
      ),
    onSuccess: () => {
      setKey(crypto.randomUUID());
      void queryClient.invalidateQueries({ queryKey: ['ops'] });
    },
  });
  const decide = useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'approve' | 'decline' }) =>
      opsPost(refundAnswer, `/refund-requests/${id}/${decision}`),
    // A refused approval changed what the list shows too (a request failed at the provider leaves it).
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['ops'] }),
  });
  /** The Idempotency-Key names one refund as typed: retrying it keeps the key, changing it takes a new one. */
  const edit = (set: (value: string) => void) => (event: { target: { value: string } }) => {
    set(event.target.value);
    setKey(crypto.randomUUID());
  };
  const find = (event: FormEvent) => {
    event.preventDefault();
    setLookup(paymentId.trim());
  };
  return (
    <Page title="Refunds">
      <Card title="Refund a payment">
        <form onSubmit={find} className="flex max-w-2xl items-end gap-3" role="search">
          <div className="flex-1">
            <TextField
              label="Payment id"
              name="payment"
              value={paymentId}
              onChange={(event) => setPaymentId(event.target.value)}
            />
          </div>
          <Button type="submit" variant="secondary">
            Find
          </Button>
        </form>
        {payment.isFetching && <Loading />}
        <ErrorNote error={payment.error} />
        {payment.data && (
          <div className="mt-4 space-y-4">
            <p className="text-sm text-slate-700">
              {payment.data.purpose} · {payment.data.status} · paid {formatCents(payment.data.total_cents)} · refunded so far{' '}
              {formatCents(payment.data.refunded_cents)} · {formatTime(payment.data.created_at)}
            </p>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                refund.mutate();
              }}
              className="grid max-w-2xl grid-cols-2 items-end gap-3"
            >
              <TextField label="Amount (EUR)" name="amount" inputMode="decimal" value={amount} onChange={edit(setAmount)} />
              <TextField label="Reason" name="reason" value={reason} onChange={edit(setReason)} maxLength={500} />
              <Button
                type="submit"
                loading={refund.isPending}
                disabled={parseAmountInput(amount) === null || reason.trim() === ''}
              >
                Refund
              </Button>
            </form>
            <ErrorNote error={refund.error} />
            {refund.data && (
              <p role="status" className="text-sm text-green-800">
                {
                  {
                    refunded: `Refunded. The payment is now ${refund.data.payment_status}.`,
                    awaiting_approval:
                      "This payment's refunds are above the approval limit: this one waits for a second finance operator.",
                    refunding: 'The refund is under way at the provider; it finishes on its own.',
                    rejected: 'This refund request was declined.',
                  }[refund.data.status]
                }
              </p>
            )}
          </div>
        )}
      </Card>
      <Card title="Waiting for a second approval">
        {requests.isPending && <Loading />}
        <ErrorNote error={requests.error ?? decide.error} />
        {requests.data && requests.data.length === 0 && <Empty>No refund is waiting.</Empty>}
        {requests.data && requests.data.length > 0 && (
          <Table
            caption="Refunds waiting for approval"
            columns={['Requested', 'Payment', 'Amount', 'Reason', '']}
            rows={requests.data.map((request) => ({
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
                      loading={decide.isPending && decide.variables.id === request.id && decide.variables.decision === 'approve'}
                      disabled={decide.isPending}
                    >
                      Approve
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      onClick={() => decide.mutate({ id: request.id, decision: 'decline' })}
                      loading={decide.isPending && decide.variables.id === request.id && decide.variables.decision === 'decline'}
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
      </Card>
    </Page>
  );
}
