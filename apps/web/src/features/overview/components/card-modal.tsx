import { useTranslation } from 'react-i18next';
import { Check, Copy, Download, Pencil, Printer, Share2 } from 'lucide-react';
import type { Card } from '@tipcard/shared/cards/schemas';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useStore } from '../../../lib/use-store.ts';
import { closeModal, uiStore } from '../../../lib/ui-store.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import { cardFileName, useCardQr } from '../../../app/session/use-card-qr.ts';
import { saveObjectUrl } from '../../../lib/download-file.ts';
import { canShare, shareLink, useCopyLink } from '../../../lib/share-link.ts';
import { useCardSheet } from '../../../app/session/use-card-sheet.ts';

/**
 * Card modal (spec 2): image or placeholder, title, QR code, edit button to account-edit, copy the link, share (where
 * the device can), print, download QR.
 */
export function CardModal({ card }: { card: Card }) {
  const { t } = useTranslation('overview');
  const to = useLocalePath();
  const open = useStore(uiStore, (state) => state.modals.card);
  const qr = useCardQr(open ? card : null);
  const sheet = useCardSheet();
  const { copied, copy } = useCopyLink();

  return (
    <Dialog
      open={open}
      onClose={() => closeModal('card')}
      title={t('card.modal_title')}
      footer={
        <>
          <ButtonLink to={to('/account/edit')} variant="secondary" icon={<Pencil className="size-4" aria-hidden="true" />}>
            {t('card.edit')}
          </ButtonLink>
          <Button
            variant="secondary"
            onClick={() => void copy(card.payment_url)}
            icon={copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
          >
            {copied ? t('common:actions.copied') : t('card.copy_link')}
          </Button>
          {canShare() ? (
            <Button
              variant="secondary"
              onClick={() => void shareLink({ title: card.public_name, url: card.payment_url })}
              icon={<Share2 className="size-4" aria-hidden="true" />}
            >
              {t('card.share')}
            </Button>
          ) : null}
          <Button
            variant="secondary"
            loading={sheet.isPending}
            onClick={() => sheet.mutate(card)}
            icon={<Printer className="size-4" aria-hidden="true" />}
          >
            {t('card.print')}
          </Button>
          <Button
            disabled={!qr.url}
            onClick={() => qr.url && saveObjectUrl(qr.url, cardFileName('qr', card, 'png'))}
            icon={<Download className="size-4" aria-hidden="true" />}
          >
            {t('card.download_qr')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col items-center text-center">
        <Avatar
          src={card.image_url}
          name={card.public_name}
          alt={t('card.photo_alt', { name: card.public_name })}
          className="size-20"
        />
        <p className="mt-3 text-lg font-bold text-primary-950">{card.title}</p>
        <p className="text-sm text-slate-600">{card.public_name}</p>
        <div className="mt-5 grid size-60 place-items-center rounded-2xl bg-white p-3 ring-1 ring-slate-200">
          {qr.url ? (
            <img src={qr.url} alt={t('card.qr_alt', { name: card.public_name })} data-testid="card-qr" className="size-full" />
          ) : qr.isError ? (
            <p className="text-sm text-slate-500">{t('card.qr_error')}</p>
          ) : (
            <Spinner className="text-primary-700" label={t('common:loading')} />
          )}
        </div>
        <p className="mt-3 text-sm text-slate-600">{t('card.scan_hint')}</p>
      </div>
    </Dialog>
  );
}
