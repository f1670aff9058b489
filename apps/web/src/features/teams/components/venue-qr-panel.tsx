import { useTranslation } from 'react-i18next';
import { Download, ExternalLink, Printer } from 'lucide-react';
import { venuePagePath } from '@tipcard/shared/teams/venue-page';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { saveObjectUrl } from '../../../lib/download-file.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { localizePath } from '../../../lib/locale.ts';
import { useVenueQr, useVenueSheet } from '../api/use-venue-qr.ts';

/**
 * The venue's one QR code for its admin: it opens the venue page, where a guest picks a person or a team (issue 29).
 * Downloaded as a PNG or printed on the same sheet as the team card (decision 0048).
 */
export function VenueQrPanel({ workplaceId }: { workplaceId: string }) {
  const { t } = useTranslation('teams');
  const qr = useVenueQr(workplaceId);
  const sheet = useVenueSheet(workplaceId);
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('venue_qr.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('venue_qr.text')}</p>
      <div className="mt-4 flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {qr.url ? (
          <img
            src={qr.url}
            alt={t('venue_qr.qr_alt')}
            data-testid="venue-qr"
            className="size-36 rounded-lg bg-white p-1 ring-1 ring-slate-200"
          />
        ) : qr.isError ? (
          <p
            role="alert"
            className="grid size-36 place-items-center rounded-lg bg-slate-50 p-3 text-center text-sm text-slate-600"
          >
            {t('venue_qr.error')}
          </p>
        ) : (
          <Skeleton className="size-36" />
        )}
        {/* As the team card's buttons: the longest label wraps within its button on a 360 px phone. */}
        <div className="flex w-full flex-col gap-2 sm:w-auto [&>*]:h-auto [&>*]:min-h-11 [&>*]:py-2 [&>*]:whitespace-normal">
          <Button
            variant="secondary"
            disabled={!qr.url}
            onClick={() => qr.url && saveObjectUrl(qr.url, 'tipcard-venue-qr.png')}
            icon={<Download className="size-4 shrink-0" aria-hidden="true" />}
          >
            {t('venue_qr.download_qr')}
          </Button>
          <Button
            variant="secondary"
            loading={sheet.isPending}
            onClick={() => sheet.mutate()}
            icon={<Printer className="size-4 shrink-0" aria-hidden="true" />}
          >
            {t('venue_qr.print')}
          </Button>
          <a
            href={localizePath(venuePagePath(workplaceId), currentLocale())}
            target="_blank"
            rel="noopener"
            className={buttonClasses('secondary')}
          >
            <ExternalLink className="size-4 shrink-0" aria-hidden="true" />
            {t('venue_qr.open_page')}
          </a>
        </div>
      </div>
    </Panel>
  );
}
