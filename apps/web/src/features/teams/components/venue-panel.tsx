import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Download, ExternalLink, Printer, ShoppingBag } from 'lucide-react';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { BASIS_POINTS_WHOLE, formatPercent, type VenuePercentages } from '@tipcard/shared/venue-tips/schemas';
import { cardFileName, useCardQr } from '../../../app/session/use-card-qr.ts';
import { useCardSheet } from '../../../app/session/use-card-sheet.ts';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { LoadError } from '../../../components/ui/list-state.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { Skeleton, SkeletonRows } from '../../../components/ui/skeleton.tsx';
import { ApiError, apiErrorText } from '../../../lib/api-errors.ts';
import { saveObjectUrl } from '../../../lib/download-file.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useSetVenuePercentages, useVenueCard, useVenuePercentages } from '../api/use-venue.ts';
import { basisPointsOf, percentInput } from '../percentages.ts';

/**
 * The venue card for every venue admin, whoever holds it (decisions 0058, 0061): one QR code for the whole place,
 * whose tips are split between the teams by their percentages; downloaded as a PNG, printed on the card sheet, ordered
 * from the card shop with the venue card chosen, or opened as guests see it.
 */
export function VenueCardPanel({ workplaceId, venueName }: { workplaceId: string; venueName: string }) {
  const { t } = useTranslation('teams');
  const to = useLocalePath();
  const venueCard = useVenueCard(workplaceId);
  const card = venueCard.data
    ? { id: venueCard.data.card_id, payment_url: venueCard.data.payment_url, public_name: venueName }
    : null;
  const qr = useCardQr(card);
  const sheet = useCardSheet();
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('venue.card_title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('venue.card_text')}</p>
      {venueCard.isError ? (
        <LoadError text={t('venue.card_error')} onRetry={venueCard.refetch} />
      ) : (
        <div className="mt-4 flex flex-col items-center gap-4 sm:flex-row sm:items-start">
          {qr.url ? (
            <img
              src={qr.url}
              alt={t('venue.qr_alt')}
              data-testid="venue-card-qr"
              className="size-36 rounded-lg bg-white p-1 ring-1 ring-slate-200"
            />
          ) : qr.isError ? (
            <p
              role="alert"
              className="grid size-36 place-items-center rounded-lg bg-slate-50 p-3 text-center text-sm text-slate-600"
            >
              {t('venue.card_error')}
            </p>
          ) : (
            <Skeleton className="size-36" />
          )}
          <div className="flex w-full flex-col gap-2 sm:w-auto [&>*]:h-auto [&>*]:min-h-11 [&>*]:py-2 [&>*]:whitespace-normal">
            <Button
              variant="secondary"
              disabled={!qr.url || !card}
              onClick={() => qr.url && card && saveObjectUrl(qr.url, cardFileName('qr', card, 'png'))}
              icon={<Download className="size-4 shrink-0" aria-hidden="true" />}
            >
              {t('venue.download_qr')}
            </Button>
            <Button
              variant="secondary"
              disabled={!card}
              loading={sheet.isPending}
              onClick={() => card && sheet.mutate(card)}
              icon={<Printer className="size-4 shrink-0" aria-hidden="true" />}
            >
              {t('venue.print')}
            </Button>
            {card ? (
              <ButtonLink
                variant="secondary"
                to={to(`/card-orders?card=${card.id}`)}
                icon={<ShoppingBag className="size-4 shrink-0" aria-hidden="true" />}
              >
                {t('venue.order')}
              </ButtonLink>
            ) : null}
            {card ? (
              <a
                href={card.payment_url}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center justify-center gap-2 rounded-xl px-4 text-sm font-medium text-primary-800 ring-1 ring-slate-200 hover:bg-slate-50"
              >
                <ExternalLink className="size-4 shrink-0" aria-hidden="true" />
                {t('venue.open')}
              </a>
            ) : null}
          </div>
        </div>
      )}
    </Panel>
  );
}

/**
 * The percentages between the venue's teams: every member reads them; the venue admin sets them, one field per team,
 * the sum shown as they type, and saves a new version in force from now.
 */
export function VenuePercentagesPanel({ workplaceId }: { workplaceId: string }) {
  const { t } = useTranslation('teams');
  const percentages = useVenuePercentages(workplaceId);
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('venue.percentages_title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('venue.percentages_text')}</p>
      {percentages.isPending ? (
        <SkeletonRows className="mt-3" label={t('venue.loading')} rows={2} />
      ) : percentages.isError ? (
        <LoadError text={t('venue.percentages_error')} onRetry={percentages.refetch} />
      ) : (
        <>
          <p className="mt-2 text-sm text-primary-950" data-testid="percentages-in-force">
            {percentages.data.created_at
              ? t('venue.in_force_since', { date: formatDate(percentages.data.created_at, 'listDate', currentLocale()) })
              : t('venue.in_force_default')}
          </p>
          {percentages.data.can_edit ? (
            <PercentagesForm key={percentages.data.id ?? 'default'} workplaceId={workplaceId} current={percentages.data} />
          ) : (
            <ul className="mt-3 divide-y divide-slate-100 text-sm">
              {percentages.data.teams.map((team) => (
                <li key={team.team_id} className="flex justify-between gap-3 py-2">
                  <span className="min-w-0 break-words text-primary-950">{team.title}</span>
                  <span className="shrink-0 font-medium tabular-nums">{formatPercent(team.basis_points, currentLocale())}</span>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-3 text-sm text-slate-600">{t('venue.no_member_rule')}</p>
        </>
      )}
    </Panel>
  );
}

function PercentagesForm({ workplaceId, current }: { workplaceId: string; current: VenuePercentages }) {
  const { t } = useTranslation('teams');
  const save = useSetVenuePercentages(workplaceId);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(current.teams.map((team) => [team.team_id, percentInput(team.basis_points)])),
  );
  const parsed = current.teams.map((team) => basisPointsOf(values[team.team_id] ?? ''));
  const valid = parsed.every((points) => points !== null);
  const total = parsed.reduce<number>((sum, points) => sum + (points ?? 0), 0);
  const sumRight = total === BASIS_POINTS_WHOLE;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || !sumRight) return;
    save.mutate(
      { shares: current.teams.map((team, index) => ({ team_id: team.team_id, basis_points: parsed[index]! })) },
      { onSuccess: () => showSnackbar(t('venue.saved'), 'success') },
    );
  };
  return (
    <form className="mt-4 space-y-3 border-t border-slate-100 pt-4" onSubmit={submit} noValidate>
      <div className="grid gap-3 sm:grid-cols-2">
        {current.teams.map((team, index) => (
          <TextField
            key={team.team_id}
            label={t('venue.team_field', { team: team.title })}
            hint={t('venue.members', { members: team.member_count })}
            inputMode="decimal"
            prefix="%"
            value={values[team.team_id] ?? ''}
            error={parsed[index] === null ? t('venue.invalid') : undefined}
            onChange={(event) => setValues({ ...values, [team.team_id]: event.target.value })}
          />
        ))}
      </div>
      <p
        aria-live="polite"
        data-testid="percentages-total"
        className={sumRight ? 'text-sm font-medium text-emerald-800' : 'text-sm font-medium text-red-700'}
      >
        {sumRight
          ? t('venue.total', { percent: formatPercent(total, currentLocale()) })
          : t('venue.total_wrong', { percent: formatPercent(total, currentLocale()) })}
      </p>
      {save.isError ? (
        <p className="text-sm text-red-700" role="alert">
          {save.error instanceof ApiError ? apiErrorText(save.error) : t('venue.percentages_error')}
        </p>
      ) : null}
      <Button type="submit" disabled={!valid || !sumRight} loading={save.isPending}>
        {t('venue.save')}
      </Button>
    </form>
  );
}
