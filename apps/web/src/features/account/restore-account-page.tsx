import { useTranslation } from 'react-i18next';
import { RotateCcw } from 'lucide-react';
import type { Me } from '@tipcard/shared/auth/me-schema';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button } from '../../components/ui/button.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLeaveDeleted, useRestoreAccount } from './api/use-account.ts';

/** What a deleted account sees after signing in within 30 days (spec 4): restore it, or leave. */
export default function RestoreAccountPage({ deletion }: { deletion: NonNullable<Me['deletion']> }) {
  const { t } = useTranslation('settings');
  const restore = useRestoreAccount();
  const leave = useLeaveDeleted();
  useDocumentTitle(t('restore.title'));
  return (
    <main id="main-content" className="grid min-h-dvh place-items-center bg-slate-50 px-4 py-10">
      <section
        className="w-full max-w-md rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200/70"
        aria-labelledby="restore-title"
      >
        <span className="mx-auto grid size-14 place-items-center rounded-2xl bg-primary-50 text-primary-800" aria-hidden="true">
          <RotateCcw className="size-7" />
        </span>
        <h1 id="restore-title" className="mt-4 text-2xl font-bold tracking-tight text-primary-950">
          {t('restore.title')}
        </h1>
        <p className="mt-2 text-sm text-slate-600">
          {t('restore.text', {
            deleted: formatDate(deletion.deleted_at, 'longDate', currentLocale()),
            until: formatDate(deletion.restore_until, 'longDate', currentLocale()),
          })}
        </p>
        <div className="mt-6 flex flex-col gap-2">
          <Button
            size="lg"
            loading={restore.isPending}
            disabled={leave.isPending}
            onClick={() => restore.mutate(undefined, { onSuccess: () => showSnackbar(t('restore.done'), 'success') })}
          >
            {t('restore.yes')}
          </Button>
          <Button
            variant="secondary"
            size="lg"
            loading={leave.isPending}
            disabled={restore.isPending}
            onClick={() => leave.mutate()}
          >
            {t('restore.no')}
          </Button>
        </div>
      </section>
    </main>
  );
}
