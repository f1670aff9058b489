import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import { refundAnswer, refundBody, type OpsPayment } from '@tipcard/shared/ops/schemas';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../components/ui/button-base.tsx';
import { TextField } from '../components/ui/field.tsx';
import { newIdempotencyKey } from '../lib/idempotency.ts';
import { showServerErrors } from './forms.ts';
import { formatCents, formatTime, opsPost } from './ops-api.ts';
import { ConfirmDialog, ErrorNote } from './ui.tsx';

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
type Outcome = { answer: z.output<typeof refundAnswer>; amountCents: number };

/** What became of a refund, in words that fit a partial refund as well as a whole one. */
function outcomeText({ answer, amountCents }: Outcome): string {
  switch (answer.status) {
    case 'refunded':
      return answer.payment_status === 'refunded'
        ? `Refunded ${formatCents(amountCents)}: the payment is now refunded in full.`
        : `Refunded ${formatCents(amountCents)}. The rest of the payment stays paid.`;
    case 'awaiting_approval':
      return "This payment's refunds are above the approval limit: this one waits for a second finance operator.";
    case 'refunding':
      return 'The refund is under way at the provider; it finishes on its own.';
    case 'rejected':
      return 'This refund request was declined.';
  }
}

/** Who receives the payment's money, as the confirmation names them: the card, or the shares' users. */
const recipientOf = (payment: OpsPayment) =>
  payment.card
    ? `${payment.card.public_name}'s card`
    : `the payment's ${payment.shares.length === 1 ? 'recipient' : 'recipients'}`;

/**
 * A refund of one payment, confirmed before it is sent: the dialog repeats the amount, the payment and who gets the
 * money back. After a refund the form is empty again, and a form is mounted per payment (keyed by its id), so
 * nothing typed for one payment is refunded from the next. A retry of the same refund keeps its Idempotency-Key.
 */
export function RefundForm({ payment }: { payment: OpsPayment }) {
  const queryClient = useQueryClient();
  const idempotency = useRef<{ body: string; key: string } | null>(null);
  const keyFor = (body: Refund) => {
    const signature = JSON.stringify([body.amount_cents, body.reason]);
    if (idempotency.current?.body !== signature) idempotency.current = { body: signature, key: newIdempotencyKey() };
    return idempotency.current.key;
  };
  const [confirming, setConfirming] = useState<Refund | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const form = useForm<z.input<typeof refundForm>, unknown, Refund>({
    resolver: zodResolver(refundForm),
    defaultValues: { amount_cents: '', reason: '' },
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = form;
  const refund = useMutation({
    mutationFn: (body: Refund) =>
      opsPost(refundAnswer, `/payments/${payment.id}/refunds`, body, { 'idempotency-key': keyFor(body) }),
    onSuccess: (answer, body) => {
      idempotency.current = null;
      setConfirming(null);
      setOutcome({ answer, amountCents: body.amount_cents });
      reset();
      void queryClient.invalidateQueries({ queryKey: ['ops'] });
    },
    onError: (error) => {
      setConfirming(null);
      showServerErrors(error, form);
    },
  });
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        {formatCents(payment.refundable_cents)} of {formatCents(payment.total_cents)} can still be refunded.
      </p>
      <form
        onSubmit={handleSubmit((body) => {
          setOutcome(null);
          setConfirming(body);
        })}
        className="grid max-w-2xl grid-cols-2 items-start gap-3"
        noValidate
      >
        <TextField label="Amount (EUR)" inputMode="decimal" error={errors.amount_cents?.message} {...register('amount_cents')} />
        <TextField label="Reason" maxLength={500} error={errors.reason?.message} {...register('reason')} />
        <Button type="submit" className="justify-self-start">
          Refund…
        </Button>
      </form>
      <ErrorNote error={errors.root?.server?.message} />
      {outcome && (
        <p role="status" className="text-sm text-green-800">
          {outcomeText(outcome)}
        </p>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title="Confirm the refund"
        confirmLabel={confirming ? `Refund ${formatCents(confirming.amount_cents)}` : 'Refund'}
        tone="danger"
        pending={refund.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && refund.mutate(confirming)}
      >
        {confirming && (
          <>
            <p>
              Give <strong>{formatCents(confirming.amount_cents)}</strong> back to the guest who paid payment{' '}
              <strong className="font-mono">{payment.reference}</strong> ({payment.purpose}, {formatCents(payment.total_cents)} on{' '}
              {formatTime(payment.created_at)}).
            </p>
            <p>It is taken back from {recipientOf(payment)}.</p>
            <p>Reason: {confirming.reason}</p>
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}
