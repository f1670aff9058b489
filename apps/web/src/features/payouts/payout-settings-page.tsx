import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Landmark, Plus, Star, Trash2 } from 'lucide-react';
import type { PayoutMethod } from '@tipcard/shared/payouts/schemas';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useDeletePayoutMethod, usePayoutMethods, useSetDefaultPayoutMethod } from './api/use-payouts.ts';
import { MethodSummary } from './components/payout-method-card.tsx';
import { shortMask } from './format.ts';

function DeleteDialog({
  method,
  onClose,
  onConfirm,
  deleting,
}: {
  method: PayoutMethod | null;
  onClose: () => void;
  onConfirm: () => void;
  deleting: boolean;
}) {
  const { t } = useTranslation('settings');
  return (
    <Dialog
      open={method !== null}
      onClose={onClose}
      title={t('payout.delete_title')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('payout.delete_no')}
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={deleting} icon={<Trash2 className="size-4" aria-hidden="true" />}>
            {t('payout.delete_yes')}
          </Button>
        </>
      }
    >
      {method ? (
        <div className="space-y-4">
          <p className="text-sm text-slate-600">{t('payout.delete_text')}</p>
          <div className="rounded-xl bg-slate-50 p-3 ring-1 ring-inset ring-slate-200/70">
            <MethodSummary method={method} />
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}

export default function PayoutSettingsPage() {
  const { t } = useTranslation('settings');
  const to = useLocalePath();
  const { clientId } = useMyCard();
  const methods = usePayoutMethods(clientId);
  const remove = useDeletePayoutMethod(clientId);
  const makeDefault = useSetDefaultPayoutMethod(clientId);
  const [deleting, setDeleting] = useState<PayoutMethod | null>(null);
  useDocumentTitle(t('payout.title'));
  const items = methods.data ?? [];

  return (
    <div className="mx-auto max-w-3xl">
      <ButtonLink
        to={to('/settings')}
        variant="ghost"
        size="sm"
        className="-ml-3 mb-2"
        icon={<ArrowLeft className="size-4" aria-hidden="true" />}
      >
        {t('title')}
      </ButtonLink>
      <PageHeader
        title={t('payout.title')}
        description={t('payout.description')}
        actions={
          items.length > 0 ? (
            <ButtonLink to={to('/payouts/add-method?return=settings')} icon={<Plus className="size-4" aria-hidden="true" />}>
              {t('payout.add')}
            </ButtonLink>
          ) : null
        }
      />
      <Panel className="py-2! sm:py-2!">
        {methods.isPending ? (
          <div role="status" aria-label={t('payout.loading')} className="divide-y divide-slate-100">
            {[0, 1].map((key) => (
              <div key={key} className="flex animate-pulse items-center gap-3 py-4" aria-hidden="true">
                <span className="size-10 rounded-xl bg-slate-200" />
                <div className="flex-1 space-y-2">
                  <span className="block h-4 w-40 rounded bg-slate-200" />
                  <span className="block h-3 w-56 rounded bg-slate-100" />
                </div>
              </div>
            ))}
          </div>
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center px-6 py-12 text-center" data-testid="methods-empty">
            <span className="grid size-14 place-items-center rounded-2xl bg-primary-50 text-primary-700" aria-hidden="true">
              <Landmark className="size-7" />
            </span>
            <h2 className="mt-4 text-lg font-semibold text-primary-950">{t('payout.empty_title')}</h2>
            <p className="mt-1 max-w-sm text-sm text-slate-600">{t('payout.empty_text')}</p>
            <ButtonLink
              to={to('/payouts/add-method?return=settings')}
              className="mt-5"
              icon={<Plus className="size-4" aria-hidden="true" />}
            >
              {t('payout.add')}
            </ButtonLink>
          </div>
        ) : (
          <ul aria-label={t('payout.list_label')} className="divide-y divide-slate-100">
            {items.map((method) => (
              <li key={method.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center" data-testid="payout-method">
                <MethodSummary method={method} />
                <div className="flex gap-2 pl-13 sm:pl-0">
                  {method.is_default ? null : (
                    <Button
                      variant="secondary"
                      size="sm"
                      loading={makeDefault.isPending && makeDefault.variables === method.id}
                      onClick={() =>
                        makeDefault.mutate(method.id, { onSuccess: () => showSnackbar(t('payout.default_done'), 'success') })
                      }
                      icon={<Star className="size-4" aria-hidden="true" />}
                      aria-label={t('payout.make_default_label', { account: shortMask(method.masked_account) })}
                    >
                      {t('payout.make_default')}
                    </Button>
                  )}
                  <Button
                    variant="danger"
                    size="sm"
                    onClick={() => setDeleting(method)}
                    icon={<Trash2 className="size-4" aria-hidden="true" />}
                    aria-label={t('payout.delete_label', { account: shortMask(method.masked_account) })}
                  >
                    {t('payout.delete')}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <DeleteDialog
        method={deleting}
        deleting={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              showSnackbar(t('payout.deleted'), 'success');
            },
          })
        }
      />
    </div>
  );
}
