import { useTranslation } from 'react-i18next';
import { Download, Printer, ShoppingBag } from 'lucide-react';
import type { Team } from '@tipcard/shared/teams/schemas';
import { cardFileName, useCardQr } from '../../../app/session/use-card-qr.ts';
import { useCardSheet } from '../../../app/session/use-card-sheet.ts';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { saveObjectUrl } from '../../../lib/download-file.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';

/**
 * The team card's QR code for its admin, whose client holds the card (decision 0048): downloaded as a PNG, printed on
 * the card sheet, or ordered from the card shop with the team card chosen.
 */
export function TeamCardPanel({ team, publicName }: { team: Team; publicName: string }) {
  const { t } = useTranslation('teams');
  const to = useLocalePath();
  const card = { id: team.card_id, payment_url: team.payment_url, public_name: publicName };
  const qr = useCardQr(card);
  const sheet = useCardSheet();
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('team_card.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('team_card.text')}</p>
      <div className="mt-4 flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {qr.url ? (
          <img
            src={qr.url}
            alt={t('team_card.qr_alt')}
            data-testid="team-card-qr"
            className="size-36 rounded-lg bg-white p-1 ring-1 ring-slate-200"
          />
        ) : qr.isError ? (
          <p
            role="alert"
            className="grid size-36 place-items-center rounded-lg bg-slate-50 p-3 text-center text-sm text-slate-600"
          >
            {t('team_card.error')}
          </p>
        ) : (
          <Skeleton className="size-36" />
        )}
        {/* The longest label (French) wraps within the button on a 360 px phone rather than overflow it. */}
        <div className="flex w-full flex-col gap-2 sm:w-auto [&>*]:h-auto [&>*]:min-h-11 [&>*]:py-2 [&>*]:whitespace-normal">
          <Button
            variant="secondary"
            disabled={!qr.url}
            onClick={() => qr.url && saveObjectUrl(qr.url, cardFileName('qr', card, 'png'))}
            icon={<Download className="size-4 shrink-0" aria-hidden="true" />}
          >
            {t('team_card.download_qr')}
          </Button>
          <Button
            variant="secondary"
            loading={sheet.isPending}
            onClick={() => sheet.mutate(card)}
            icon={<Printer className="size-4 shrink-0" aria-hidden="true" />}
          >
            {t('team_card.print')}
          </Button>
          <ButtonLink
            variant="secondary"
            to={to(`/card-orders?card=${team.card_id}`)}
            icon={<ShoppingBag className="size-4 shrink-0" aria-hidden="true" />}
          >
            {t('team_card.order')}
          </ButtonLink>
        </div>
      </div>
    </Panel>
  );
}
