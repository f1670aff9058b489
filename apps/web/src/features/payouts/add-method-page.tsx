import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Clock, Lock, ShieldCheck } from 'lucide-react';
import type { PayeeCheck, PayoutMethodBody } from '@tipcard/shared/payouts/schemas';
import { ButtonLink } from '../../components/ui/button.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useAddPayoutMethod, useCheckPayee } from './api/use-payouts.ts';
import { PayoutMethodForm } from './components/payout-method-form.tsx';
import { serverFieldErrors } from '../../lib/api-errors.ts';

/**
 * Where to go once the method is saved (or the form is left): back to the withdrawal (with the amount chosen before
 * and, once saved, the new account), the settings or the payouts.
 */
function useReturnPath(): { path: (addedId?: string) => string; toWithdrawal: boolean } {
  const [search] = useSearchParams();
  const to = useLocalePath();
  const from = search.get('return');
  if (from === 'withdraw') {
    return {
      toWithdrawal: true,
      path: (addedId) => {
        const query = new URLSearchParams({ withdraw: '1' });
        const amount = search.get('amount');
        if (amount && /^\d+$/.test(amount)) query.set('amount', amount);
        if (addedId) query.set('method', addedId);
        return to(`/payouts?${query.toString()}`);
      },
    };
  }
  return { toWithdrawal: false, path: () => to(from === 'settings' ? '/settings/payout' : '/payouts') };
}

export default function AddMethodPage() {
  const { t } = useTranslation('payouts');
  const navigate = useNavigate();
  const { clientId } = useMyCard();
  const add = useAddPayoutMethod(clientId);
  const checkPayee = useCheckPayee(clientId);
  const [payeeCheck, setPayeeCheck] = useState<PayeeCheck | null>(null);
  const clearPayeeCheck = useCallback(() => setPayeeCheck(null), []);
  const returnTo = useReturnPath();
  const back = returnTo.path();
  useDocumentTitle(t('add.title'));

  /**
   * Saving asks the bank first (decision 0043): a match saves at once; any other answer is shown before anything is
   * saved, and the user corrects the details or saves knowingly (`confirm_mismatch`).
   */
  function onSubmit(body: PayoutMethodBody, setFieldError: (field: string, message: string) => void) {
    const onError = (error: Error) => {
      for (const [field, message] of serverFieldErrors(error)) setFieldError(field, message);
    };
    const save = () =>
      add.mutate(body, {
        onSuccess: (method) => {
          // Mid-withdrawal the dialog shows the new account chosen, which says it was added; a toast would follow the
          // user on to the code page.
          if (!returnTo.toWithdrawal) showSnackbar(t('add.saved'), 'success');
          void navigate(returnTo.path(method.id));
        },
        onError,
      });
    if (body.confirm_mismatch) return save();
    checkPayee.mutate(body, {
      onSuccess: (answer) => (answer.result === 'match' ? save() : setPayeeCheck(answer)),
      onError,
    });
  }

  const points = [
    { icon: ShieldCheck, text: t('add.points.own') },
    { icon: Clock, text: t('add.points.arrival') },
    { icon: Lock, text: t('add.points.masked') },
  ];

  return (
    <div className="mx-auto max-w-4xl">
      <ButtonLink
        to={back}
        variant="ghost"
        size="sm"
        className="-ml-3 mb-2"
        icon={<ArrowLeft className="size-4" aria-hidden="true" />}
      >
        {t('add.back')}
      </ButtonLink>
      <PageHeader title={t('add.title')} description={t('add.description')} />
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[1.6fr_1fr]">
        <Panel>
          <PayoutMethodForm
            submitting={add.isPending || checkPayee.isPending}
            onSubmit={onSubmit}
            onCancel={() => void navigate(back)}
            payeeCheck={payeeCheck}
            onEdited={clearPayeeCheck}
          />
        </Panel>
        <aside
          aria-label={t('add.aside_label')}
          className="h-fit rounded-2xl bg-primary-50/70 p-5 ring-1 ring-inset ring-primary-100 sm:p-6"
        >
          <ul className="space-y-4">
            {points.map(({ icon: Icon, text }) => (
              <li key={text} className="flex gap-3 text-sm text-primary-950">
                <span
                  className="grid size-8 shrink-0 place-items-center rounded-lg bg-white text-primary-700 shadow-xs"
                  aria-hidden="true"
                >
                  <Icon className="size-4" />
                </span>
                <span className="pt-1.5">{text}</span>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </div>
  );
}
