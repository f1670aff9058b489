import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ArrowRightLeft } from 'lucide-react';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import {
  PERIOD_ADJUSTMENT_MAX_CENTS,
  PERIOD_ADJUSTMENT_REASON_MAX_LENGTH,
  periodAdjustmentBody,
  type PeriodAdjustmentBody,
  type Team,
  type TeamPeriod,
} from '@tipcard/shared/teams/schemas';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { Money } from '../../../components/ui/money.tsx';
import { ApiError, apiErrorText, serverFieldErrors } from '../../../lib/api-errors.ts';
import { formatEuro } from '../../../lib/format-euro.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { currentLocale, translateValidation } from '../../../lib/i18n.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useAdjustPeriod } from '../api/use-teams.ts';

const monthName = (period: TeamPeriod) => formatDate(period.from, 'month', currentLocale(), { timeZone: 'UTC' });

/** The adjustments of a locked period the reader may see (decision 0059): the admin every one, a member their own. */
export function PeriodAdjustmentsList({ period }: { period: TeamPeriod }) {
  const { t } = useTranslation('teams');
  if (period.adjustments.length === 0) return null;
  const name = (person: { public_name: string | null }) => person.public_name ?? t('page.no_name');
  return (
    <section className="mt-3" aria-labelledby={`adjustments-${period.month}`}>
      <h4 id={`adjustments-${period.month}`} className="text-xs font-semibold text-slate-600">
        {t('periods.adjustments')}
      </h4>
      <ul className="mt-2 space-y-2">
        {period.adjustments.map((adjustment) => (
          <li key={adjustment.id} className="rounded-lg bg-slate-50 p-3 text-sm" data-testid="period-adjustment">
            <p className="flex items-start gap-2 font-medium break-words text-primary-950">
              <ArrowRightLeft className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden="true" />
              <span className="min-w-0">
                {t('periods.adjustment_line', {
                  amount: formatEuro(adjustment.amount_cents),
                  from: name(adjustment.from),
                  to: name(adjustment.to),
                })}
              </span>
            </p>
            <p className="mt-1 break-words whitespace-pre-line text-primary-950">{adjustment.reason}</p>
            <p className="mt-1 text-xs text-slate-500">
              {t('periods.adjustment_by', {
                name: name(adjustment.created_by),
                date: formatDate(adjustment.created_at, 'dateTime', currentLocale()),
              })}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the form holds: the amount as typed ("12,50"), read into the shared body's integer cents on review. */
const adjustmentForm = z
  .object({
    from_user_id: z.string().min(1, 'teams:periods.adjust_choose'),
    to_user_id: z.string().min(1, 'teams:periods.adjust_choose'),
    amount: z.string().transform((text, ctx) => {
      const cents = parseAmountInput(text);
      if (cents !== null && periodAdjustmentBody.shape.amount_cents.safeParse(cents).success) return cents;
      ctx.addIssue({ code: 'custom', message: 'amount' });
      return z.NEVER;
    }),
    reason: periodAdjustmentBody.shape.reason,
  })
  .refine((form) => form.from_user_id !== form.to_user_id, {
    message: 'teams:periods.adjust_same',
    path: ['to_user_id'],
  });
type AdjustmentFormInput = z.input<typeof adjustmentForm>;

/** The server names the body's fields; the form types the amount in its own field. */
const FORM_FIELDS: Record<string, keyof AdjustmentFormInput> = {
  from_user_id: 'from_user_id',
  to_user_id: 'to_user_id',
  amount_cents: 'amount',
  reason: 'reason',
};

/**
 * The admin's "Add an adjustment" on a locked period: two members, an amount and a reason, reviewed in a dialog
 * before the money moves. One Idempotency-Key per intended adjustment: a retry after a lost answer sends the same key;
 * changing anything is another adjustment. Refusals are shown here, on their field or above the buttons.
 */
export function AdjustmentForm({ team, period, onClose }: { team: Team; period: TeamPeriod; onClose(): void }) {
  const { t } = useTranslation('teams');
  const adjust = useAdjustPeriod(team.id);
  const [reviewing, setReviewing] = useState<PeriodAdjustmentBody | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const idempotency = useRef<{ body: string; key: string } | null>(null);
  const keyFor = (body: PeriodAdjustmentBody) => {
    const signature = JSON.stringify([body.from_user_id, body.to_user_id, body.amount_cents, body.reason]);
    if (idempotency.current?.body !== signature) idempotency.current = { body: signature, key: newIdempotencyKey() };
    return idempotency.current.key;
  };
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AdjustmentFormInput, unknown, z.output<typeof adjustmentForm>>({
    resolver: zodResolver(adjustmentForm),
    defaultValues: { from_user_id: '', to_user_id: '', amount: '', reason: '' },
  });
  const members = team.members.map((member) => ({ value: member.user_id, label: member.public_name ?? t('page.no_name') }));
  const nameOf = (userId: string) => members.find((member) => member.value === userId)?.label ?? t('page.no_name');
  const max = formatEuro(PERIOD_ADJUSTMENT_MAX_CENTS);

  const onReview = handleSubmit(({ amount, ...rest }) => {
    setRefusal(null);
    setReviewing({ ...rest, amount_cents: amount });
  });

  const send = (body: PeriodAdjustmentBody) =>
    adjust.mutate(
      { month: period.month, body, key: keyFor(body) },
      {
        onSuccess: () => {
          idempotency.current = null;
          showSnackbar(t('periods.adjust_done'), 'success');
          onClose();
        },
        onError: (error) => {
          const fields = serverFieldErrors(error);
          for (const [field, message] of fields) {
            const formField = FORM_FIELDS[field];
            if (formField) setError(formField, { type: 'server', message }, { shouldFocus: true });
          }
          if (fields.length === 0) setRefusal(error instanceof ApiError ? apiErrorText(error) : t('periods.error'));
        },
        onSettled: () => setReviewing(null),
      },
    );

  return (
    <>
      <form
        noValidate
        onSubmit={onReview}
        className="mt-3 space-y-3 rounded-lg border border-slate-200 p-3"
        data-testid="adjustment-form"
      >
        <h4 className="text-sm font-semibold text-primary-950">{t('periods.adjust')}</h4>
        <p className="text-sm text-slate-600">{t('periods.adjust_text')}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label={t('periods.adjust_from')}
            placeholder={t('periods.adjust_choose')}
            options={members}
            error={translateValidation(errors.from_user_id?.message)}
            {...register('from_user_id')}
          />
          <SelectField
            label={t('periods.adjust_to')}
            placeholder={t('periods.adjust_choose')}
            options={members}
            error={translateValidation(errors.to_user_id?.message)}
            {...register('to_user_id')}
          />
        </div>
        <TextField
          label={t('periods.adjust_amount')}
          hint={t('periods.adjust_amount_hint', { max })}
          inputMode="decimal"
          autoComplete="off"
          prefix="€"
          error={
            errors.amount?.type === 'server'
              ? errors.amount.message
              : errors.amount
                ? t('periods.adjust_amount_invalid', { min: formatEuro(1), max })
                : undefined
          }
          {...register('amount')}
        />
        <TextAreaField
          label={t('periods.adjust_reason')}
          hint={t('periods.adjust_reason_hint')}
          rows={3}
          maxLength={PERIOD_ADJUSTMENT_REASON_MAX_LENGTH}
          error={translateValidation(errors.reason?.message)}
          {...register('reason')}
        />
        {refusal ? (
          <p role="alert" className="text-sm font-medium text-red-700" data-testid="adjustment-refusal">
            {refusal}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit">{t('periods.adjust_review')}</Button>
          <Button type="button" variant="ghost" onClick={onClose}>
            {t('page.cancel')}
          </Button>
        </div>
      </form>

      <Dialog
        open={reviewing !== null}
        onClose={() => setReviewing(null)}
        title={reviewing ? t('periods.adjust_confirm_title', { amount: formatEuro(reviewing.amount_cents) }) : ''}
        footer={
          <>
            <Button variant="ghost" onClick={() => setReviewing(null)}>
              {t('page.cancel')}
            </Button>
            <Button loading={adjust.isPending} onClick={() => reviewing && send(reviewing)}>
              {t('periods.adjust_send')}
            </Button>
          </>
        }
      >
        {reviewing ? (
          <div className="space-y-2 text-sm text-slate-700">
            <p>
              {t('periods.adjust_confirm_text', {
                from: nameOf(reviewing.from_user_id),
                to: nameOf(reviewing.to_user_id),
                month: monthName(period),
              })}
            </p>
            <p className="break-words whitespace-pre-line text-primary-950">{reviewing.reason}</p>
            <p className="text-base font-semibold text-primary-950">
              <Money cents={reviewing.amount_cents} />
            </p>
          </div>
        ) : null}
      </Dialog>
    </>
  );
}
