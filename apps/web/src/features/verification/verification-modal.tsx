import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Hourglass, ShieldAlert } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { useStore } from '../../lib/use-store.ts';
import { formatEuro } from '../../lib/format-euro.ts';
import { closeModal, uiStore } from '../../lib/ui-store.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useVerification } from './api/use-verification.ts';

/**
 * The verification modal (spec 2), opened by any 451 answer and by the reminder. It says why (the tips reached the
 * limit, in the reader's money format) and that payouts are paused; a request under review is its own state, which
 * never asks again for what was sent and says an SMS will tell the outcome.
 */
export function VerificationModal() {
  const { t } = useTranslation();
  const open = useStore(uiStore, (state) => state.modals.verification);
  const navigate = useNavigate();
  const to = useLocalePath();
  const verification = useVerification(open);
  const data = verification.data;
  const close = () => closeModal('verification');
  const underReview = data?.status === 'pending';

  const footer = underReview ? (
    <Button onClick={close}>{t('verification.review_ok')}</Button>
  ) : (
    <Button
      disabled={!data}
      onClick={() => {
        close();
        void navigate(to('/verification'));
      }}
    >
      {t('verification.action')}
    </Button>
  );

  return (
    <Dialog
      open={open}
      onClose={close}
      title={underReview ? t('verification.review_title') : t('verification.title')}
      footer={footer}
    >
      {!data ? (
        <div role="status" aria-label={t('verification.loading')} className="space-y-2">
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      ) : (
        <div className="flex items-start gap-3" data-testid="verification-modal" data-status={data.status}>
          <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-amber-50 text-amber-600">
            {underReview ? (
              <Hourglass className="size-5" aria-hidden="true" />
            ) : (
              <ShieldAlert className="size-5" aria-hidden="true" />
            )}
          </span>
          <div className="space-y-2 pt-2 text-slate-700">
            {underReview ? (
              <>
                <p>{t('verification.review_text')}</p>
                <p className="font-medium text-slate-900">{t('verification.review_paused')}</p>
              </>
            ) : (
              <>
                <p>
                  {data.status === 'rejected' && data.reason
                    ? t('verification.rejected_text', { reason: data.reason })
                    : t('verification.required_text', { limit: formatEuro(data.limit_cents) })}
                </p>
                <p className="font-medium text-slate-900">{t('verification.paused')}</p>
              </>
            )}
          </div>
        </div>
      )}
    </Dialog>
  );
}
