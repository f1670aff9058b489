import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Landmark, Plus, Star, Trash2 } from 'lucide-react';
import type { PayoutMethod } from '@tipcard/shared/payouts/schemas';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
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
          methods.data?.length ? (
            <ButtonLink to={to('/payouts/add-method?return=settings')} icon={<Plus className="size-4" aria-hidden="true" />}>
              {t('payout.add')}
            </ButtonLink>
          ) : null
        }
      />
      <Panel className="py-2! sm:py-2!">
        <ListState
          query={methods}
          loadingLabel={t('payout.loading')}
          errorText={t('payout.error')}
          rows={2}
          empty={{
            icon: <Landmark className="size-7" />,
            title: t('payout.empty_title'),
            text: t('payout.empty_text'),
            testId: 'methods-empty',
            action: (
              <ButtonLink to={to('/payouts/add-method?return=settings')} icon={<Plus className="size-4" aria-hidden="true" />}>
                {t('payout.add')}
              </ButtonLink>
            ),
          }}
        >
          {(items) => (
            <ul aria-label={t('payout.list_label')} className="divide-y divide-slate-100">
              {items.map((method) => (
                <li key={method.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center" data-testid="payout-method">
                  <MethodSummary method={method} withCheckDate />
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
        </ListState>
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
