import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useForm, useWatch, type UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Plus } from 'lucide-react';
import type { DeletionPreview } from '@tipcard/shared/account/schemas';
import { errorCodeText } from '../../../lib/api-errors.ts';
import type { PublicCard } from '@tipcard/shared/payments/schemas';
import type { Payout, PayoutMethod } from '@tipcard/shared/payouts/schemas';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { SkeletonRows } from '../../../components/ui/skeleton.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatEuro } from '../../../lib/format-euro.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import {
  useAskClosingPayout,
  useClosingPayoutAccounts,
  useDeleteAccount,
  useDeletionPreview,
  useGiftCard,
} from '../api/use-account.ts';
import { giftCardIdOf } from './gift-card-id.ts';

/** The card a gift would go to, as the dialog has found it so far. */
export type GiftCard =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'found'; card: Pick<PublicCard, 'id' | 'public_name' | 'activity_type'> };

/** One choice of a radio group, as a bordered card; the focus ring follows the keyboard. */
function ChoiceCard({
  registration,
  value,
  checked,
  children,
}: {
  registration: UseFormRegisterReturn;
  value: string;
  checked: boolean;
  children: ReactNode;
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer items-center gap-3 rounded-xl border bg-white p-3 has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-accent-400',
        checked ? 'border-primary-600 ring-1 ring-primary-600' : 'border-slate-200',
      )}
    >
      <input
        type="radio"
        value={value}
        checked={checked}
        className="size-5 shrink-0 accent-primary-800 focus-visible:outline-none"
        {...registration}
      />
      <span className="min-w-0 text-sm">{children}</span>
    </label>
  );
}

/** What the user chose in the dialog: the account or the gift for the balance, and the texted code. */
interface DeletionChoices {
  method: string;
  use: 'payout' | 'gift';
  gift: string;
  code: string;
}

interface DeletionStepsProps {
  open: boolean;
  onClose: () => void;
  /** What "Yes, delete" will do, from the server; undefined while it is asked. */
  preview: DeletionPreview | undefined;
  methods: PayoutMethod[] | undefined;
  /** The closing payout waiting for its code: the second step. */
  closingPayout: Payout | null;
  busy: boolean;
  /** "Yes, delete": deletes at once, or asks for the closing payout to this account (its code is texted). */
  onDelete: (methodId: string | undefined) => void;
  onConfirm: (code: string) => void;
  /** The card the user named for a gift of the balance, looked up by the caller (`onGiftCardId`). */
  giftCard: GiftCard;
  onGiftCardId: (cardId: string | null) => void;
  /** "Yes, delete" with the balance given to this charity card. */
  onGive: (cardId: string) => void;
}

/**
 * The deletion dialog's text and buttons (docs/decisions/0025): it says what will happen before "Yes, delete" and
 * offers that button only when the deletion can go through. A balance is paid out whole by a closing payout, which
 * the SMS code confirms together with the deletion, or, the user's choice, given whole to a charity card named by
 * its link or id (docs/decisions/0029), whose name the dialog shows before "Yes, delete"; money on hold, a
 * withdrawal under way or a team admin role are named, and there is nothing to confirm.
 */
export function DeletionSteps({
  open,
  onClose,
  preview,
  methods,
  closingPayout,
  busy,
  onDelete,
  onConfirm,
  giftCard,
  onGiftCardId,
  onGive,
}: DeletionStepsProps) {
  const { t } = useTranslation(['settings', 'errors']);
  const to = useLocalePath();
  const { register, control, getValues } = useForm<DeletionChoices>({
    defaultValues: { method: '', use: 'payout', gift: '', code: '' },
  });
  const [chosen, use, giftText, code] = useWatch({ control, name: ['method', 'use', 'gift', 'code'] });
  const giving = use === 'gift';
  const methodId = chosen || (methods?.find((method) => method.is_default) ?? methods?.[0])?.id;
  const no = (
    <Button variant="secondary" onClick={onClose} disabled={busy}>
      {t('delete.no')}
    </Button>
  );

  let body;
  let footer;
  if (!preview) {
    body = (
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <Spinner className="size-4" /> {t('delete.checking')}
      </p>
    );
  } else if (preview.outcome === 'blocked') {
    body = (
      <>
        <p className="text-sm text-slate-700">{t('delete.blocked_text')}</p>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800" data-testid="deletion-blockers">
          {preview.blockers.map((code) => (
            <li key={code}>{errorCodeText(code)}</li>
          ))}
        </ul>
        {preview.held_cents > 0 ? (
          <p className="mt-3 text-sm text-slate-600">{t('delete.held', { amount: formatEuro(preview.held_cents) })}</p>
        ) : null}
      </>
    );
    footer = (
      <Button variant="secondary" onClick={onClose}>
        {t('delete.close')}
      </Button>
    );
  } else if (preview.outcome === 'delete') {
    body = <p className="text-sm text-slate-700">{t('delete.confirm_text')}</p>;
    footer = (
      <>
        {no}
        <Button variant="danger" loading={busy} onClick={() => onDelete(undefined)}>
          {t('delete.yes')}
        </Button>
      </>
    );
  } else if (closingPayout) {
    // Read at once rather than through handleSubmit: there is nothing to validate but a blank code, which the button
    // already refuses.
    const submit = (event: FormEvent) => {
      event.preventDefault();
      const typed = getValues('code').trim();
      if (typed) onConfirm(typed);
    };
    body = (
      <form id="closing-code" onSubmit={submit} className="space-y-3">
        <p className="text-sm text-slate-700">
          {t('delete.code_text', {
            amount: formatEuro(closingPayout.amount_cents),
            account: closingPayout.method.masked_account,
          })}
        </p>
        <TextField
          label={t('delete.code_label')}
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          maxLength={16}
          {...register('code')}
        />
      </form>
    );
    footer = (
      <>
        {no}
        <Button variant="danger" type="submit" form="closing-code" loading={busy} disabled={!code.trim()}>
          {t('delete.confirm_delete')}
        </Button>
      </>
    );
  } else {
    const closing = preview.closing!;
    const charity = giftCard.status === 'found' && giftCard.card.activity_type === 'DONATION' ? giftCard.card : null;
    let giftError: string | undefined;
    if (giftText.trim() && !giftCardIdOf(giftText)) giftError = t('delete.gift_invalid');
    else if (giftCard.status === 'missing') giftError = t('delete.gift_not_found');
    else if (giftCard.status === 'found' && !charity)
      giftError = t('delete.gift_not_charity', { name: giftCard.card.public_name });
    const payoutPart = !methods ? (
      <SkeletonRows label={t('delete.methods_loading')} rows={2} />
    ) : methods.length === 0 ? (
      <div className="rounded-xl border border-dashed border-slate-300 px-4 py-4 text-center">
        <p className="text-sm text-slate-700">{t('delete.no_method')}</p>
        <ButtonLink
          to={to('/payouts/add-method')}
          className="mt-3"
          size="sm"
          icon={<Plus className="size-4" aria-hidden="true" />}
        >
          {t('delete.add_method')}
        </ButtonLink>
      </div>
    ) : (
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-800">{t('delete.closing_method')}</legend>
        <div className="space-y-2">
          {methods.map((method) => (
            <ChoiceCard key={method.id} registration={register('method')} value={method.id} checked={method.id === methodId}>
              <span className="block truncate font-medium text-slate-900">{method.holder}</span>
              <span className="block break-words font-mono text-slate-600">{method.masked_account}</span>
            </ChoiceCard>
          ))}
        </div>
      </fieldset>
    );
    const giftPart = (
      <div className="space-y-3">
        <TextField
          label={t('delete.gift_label')}
          hint={t('delete.gift_hint')}
          error={giftError}
          autoComplete="off"
          spellCheck={false}
          maxLength={500}
          {...register('gift', {
            onChange: (event: ChangeEvent<HTMLInputElement>) => onGiftCardId(giftCardIdOf(event.target.value)),
          })}
        />
        {/* Read out as the lookup moves on: where it stands, then the charity and what the deletion gives it. */}
        <div role="status" aria-live="polite" className="text-sm text-slate-700">
          {giftCard.status === 'loading' ? (
            <p className="flex items-center gap-2">
              <Spinner className="size-4" /> {t('delete.gift_looking')}
            </p>
          ) : charity ? (
            <div className="space-y-1 rounded-xl bg-slate-50 px-3 py-2" data-testid="deletion-gift">
              <p className="break-words font-medium text-slate-900">{t('delete.gift_found', { name: charity.public_name })}</p>
              <p className="break-words">
                {t('delete.gift_summary', { amount: formatEuro(preview.available_cents), name: charity.public_name })}
              </p>
            </div>
          ) : null}
        </div>
      </div>
    );
    body = (
      <div className="space-y-4">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">
            {t('delete.choice_legend', { balance: formatEuro(preview.available_cents) })}
          </legend>
          <div className="space-y-2">
            <ChoiceCard registration={register('use')} value="payout" checked={!giving}>
              <span className="font-medium text-slate-900">{t('delete.choice_payout')}</span>
            </ChoiceCard>
            <ChoiceCard registration={register('use')} value="gift" checked={giving}>
              <span className="font-medium text-slate-900">{t('delete.choice_gift')}</span>
            </ChoiceCard>
          </div>
        </fieldset>
        {giving ? (
          giftPart
        ) : (
          <>
            <p className="text-sm text-slate-700" data-testid="deletion-closing">
              {t('delete.closing_text', {
                balance: formatEuro(preview.available_cents),
                amount: formatEuro(closing.amount_cents),
                fee: formatEuro(closing.fee_cents),
              })}
            </p>
            {payoutPart}
          </>
        )}
      </div>
    );
    const yes = giving ? (charity ? () => onGive(charity.id) : null) : methodId ? () => onDelete(methodId) : null;
    footer = (
      <>
        {no}
        {yes ? (
          <Button variant="danger" loading={busy} onClick={yes}>
            {t('delete.yes')}
          </Button>
        ) : null}
      </>
    );
  }

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} title={t('delete.confirm_title')} footer={footer}>
      {body}
    </Dialog>
  );
}

/** The deletion dialog with its server calls: the preview, the accounts, the closing payout and the statement. */
export function DeletionDialog({
  open,
  onClose,
  clientId,
}: {
  open: boolean;
  onClose: () => void;
  clientId: string | undefined;
}) {
  const preview = useDeletionPreview(open);
  const methods = useClosingPayoutAccounts(clientId, open && preview.data?.outcome === 'closing_payout');
  const askClosing = useAskClosingPayout(clientId);
  const remove = useDeleteAccount();
  const [closingPayout, setClosingPayout] = useState<Payout | null>(null);
  const [giftCardId, setGiftCardId] = useState<string | null>(null);
  const giftCard = useGiftCard(giftCardId);
  const close = () => {
    setClosingPayout(null);
    onClose();
  };
  // A balance that changed meanwhile needs a new preview (and a new closing payout).
  const onStatementError = (error: Error) => {
    if ('code' in error && error.code === 'closing_balance_changed') {
      setClosingPayout(null);
      void preview.refetch();
    }
  };
  return (
    <DeletionSteps
      // A new closing payout starts with an empty code field.
      key={closingPayout?.id ?? 'none'}
      open={open}
      onClose={close}
      // Asked again each time the dialog opens: an answer from an earlier opening may be out of date.
      preview={preview.isFetching && !closingPayout ? undefined : preview.data}
      methods={methods.data}
      closingPayout={closingPayout}
      busy={askClosing.isPending || remove.isPending}
      onDelete={(methodId) => {
        if (methodId) askClosing.mutate(methodId, { onSuccess: setClosingPayout });
        else remove.mutate(undefined, { onError: close });
      }}
      // A wrong code may be typed again.
      onConfirm={(code) => remove.mutate({ closing_payout: { id: closingPayout!.id, code } }, { onError: onStatementError })}
      giftCard={
        giftCardId === null
          ? { status: 'none' }
          : giftCard.data
            ? { status: 'found', card: giftCard.data }
            : giftCard.isError
              ? { status: 'missing' }
              : { status: 'loading' }
      }
      onGiftCardId={setGiftCardId}
      // The amount is the balance the preview showed: one that moved since is refused, not given in part.
      onGive={(cardId) =>
        remove.mutate({ gift: { card_id: cardId, amount_cents: preview.data!.available_cents } }, { onError: onStatementError })
      }
    />
  );
}
