import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BellRing, Download, Phone, Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { LoadError } from '../../../components/ui/list-state.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { SkeletonRows } from '../../../components/ui/skeleton.tsx';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import { useDownloadData, useNotificationChoices, useSaveNotificationChoices } from '../api/use-account.ts';
import type { NotificationChoices } from '@tipcard/shared/account/schemas';
import { DeletionDialog } from './deletion-dialog.tsx';

export function PanelHeading({ icon, title, text, danger }: { icon: ReactNode; title: string; text: string; danger?: boolean }) {
  return (
    <div className="flex items-start gap-3">
      <span
        className={`grid size-10 shrink-0 place-items-center rounded-xl ${danger ? 'bg-red-50 text-red-700' : 'bg-primary-50 text-primary-700'}`}
        aria-hidden="true"
      >
        {icon}
      </span>
      <div className="min-w-0">
        <h2 className="font-semibold text-slate-900">{title}</h2>
        <p className="text-sm text-slate-600">{text}</p>
      </div>
    </div>
  );
}

/** The phone number, read-only: it is the sign-in, so changing it goes through support. */
export function PhonePanel({ phone }: { phone: string }) {
  const { t } = useTranslation('settings');
  const to = useLocalePath();
  return (
    <Panel className="mt-5">
      <PanelHeading icon={<Phone className="size-5" />} title={t('phone.title')} text={t('phone.text')} />
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between sm:pl-13">
        <p className="font-mono text-lg text-slate-900" data-testid="settings-phone">
          {phone}
        </p>
        <Link
          to={to('/support')}
          className="text-sm font-semibold text-primary-800 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
        >
          {t('phone.change')}
        </Link>
      </div>
    </Panel>
  );
}

export function DataPanel({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation('settings');
  const download = useDownloadData(clientId);
  return (
    <Panel className="mt-5">
      <PanelHeading icon={<Download className="size-5" />} title={t('data.title')} text={t('data.text')} />
      <div className="mt-4 sm:pl-13">
        <Button
          variant="secondary"
          loading={download.isPending}
          disabled={!clientId}
          onClick={() => download.mutate(undefined, { onError: () => showSnackbar(t('data.failed')) })}
          icon={<Download className="size-4" aria-hidden="true" />}
        >
          {t('data.download')}
        </Button>
      </div>
    </Panel>
  );
}

/**
 * The spec's warning, then the confirmation modal, which first says what the deletion will do (a closing payout of
 * the balance, or why not yet) and offers "Yes, delete" only when it can go through; on success the page reloads signed out.
 */
export function DeletePanel({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation('settings');
  const [confirming, setConfirming] = useState(false);
  return (
    <Panel className="mt-5 ring-red-200">
      <PanelHeading icon={<Trash2 className="size-5" />} title={t('delete.title')} text={t('delete.text')} danger />
      <div className="mt-4 sm:pl-13">
        <Button variant="danger" onClick={() => setConfirming(true)} icon={<Trash2 className="size-4" aria-hidden="true" />}>
          {t('delete.button')}
        </Button>
      </div>
      <DeletionDialog open={confirming} onClose={() => setConfirming(false)} clientId={clientId} />
    </Panel>
  );
}

/** Which texts the user wants; codes and payout-account changes are security messages and always sent. */
export function NotificationsPanel({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation('settings');
  const choices = useNotificationChoices(clientId);
  const save = useSaveNotificationChoices(clientId);
  // From the click until the server answers, the boxes show what was asked for (set in the same render as the click,
  // so a controlled box never flips back for a moment); the server's answer then replaces it.
  const [asked, setAsked] = useState<NotificationChoices | null>(null);
  const shown = asked ?? choices.data;
  const choose = (change: Partial<NotificationChoices>) => {
    if (!choices.data) return;
    const next = { ...choices.data, ...change };
    setAsked(next);
    save.mutate(next, { onSuccess: () => showSnackbar(t('notifications.saved'), 'success'), onSettled: () => setAsked(null) });
  };
  const boxes = [
    { key: 'sms_payouts', label: t('notifications.payouts') },
    { key: 'sms_refunds', label: t('notifications.refunds') },
    { key: 'sms_support_replies', label: t('notifications.support') },
  ] as const;
  return (
    <Panel className="mt-5">
      <PanelHeading icon={<BellRing className="size-5" />} title={t('notifications.title')} text={t('notifications.text')} />
      {choices.isPending ? (
        <SkeletonRows label={t('notifications.loading')} rows={3} className="mt-4 sm:pl-13" />
      ) : choices.isError ? (
        <LoadError onRetry={choices.refetch} />
      ) : (
        boxes.map(({ key, label }) => (
          <label key={key} className="mt-4 flex cursor-pointer items-center gap-3 sm:pl-13">
            <input
              type="checkbox"
              className="size-5 shrink-0 rounded border-slate-300 accent-primary-800"
              checked={shown?.[key] ?? false}
              disabled={asked !== null}
              onChange={(event) => choose({ [key]: event.target.checked })}
            />
            <span className="text-sm font-medium text-slate-800">{label}</span>
          </label>
        ))
      )}
    </Panel>
  );
}
