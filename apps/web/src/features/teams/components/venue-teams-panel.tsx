import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Crown, Plus, Users } from 'lucide-react';
import { venueTeamBody, type VenueAdmin, type Workplace } from '@tipcard/shared/teams/schemas';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { serverFieldErrors } from '../../../lib/api-errors.ts';
import { translateValidation } from '../../../lib/i18n.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useVenueActions } from '../api/use-teams.ts';

type TeamInput = z.input<typeof venueTeamBody>;

/**
 * The venue admin's view of the venue (decision 0057): its teams, one of which they choose to manage below, a form to
 * add one, and the venue's admins.
 */
export function VenueTeamsPanel({
  venue,
  clientId,
  selectedTeamId,
  onSelect,
}: {
  venue: Workplace;
  clientId: string | undefined;
  selectedTeamId: string;
  onSelect: (teamId: string) => void;
}) {
  const { t } = useTranslation('teams');
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('venue_teams.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('venue_teams.text')}</p>
      <ul
        className="mt-4 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3"
        aria-label={t('venue_teams.teams_label', { venue: venue.name })}
      >
        {venue.teams.map((team) => {
          const selected = team.id === selectedTeamId;
          return (
            <li key={team.id}>
              <button
                type="button"
                aria-pressed={selected}
                onClick={() => onSelect(team.id)}
                className={`flex min-h-11 w-full items-center gap-3 rounded-xl px-3 py-2 text-left ring-1 transition-colors ${
                  selected ? 'bg-primary-50 ring-2 ring-primary-600' : 'bg-white ring-slate-200 hover:bg-slate-50'
                }`}
              >
                <Users className="size-5 shrink-0 text-primary-700" aria-hidden="true" />
                <span className="min-w-0 flex-1">
                  <span className="block font-medium break-words text-primary-950">
                    {team.title}
                    {team.id === venue.team.id ? (
                      <span className="font-normal text-slate-600"> ({t('venue_teams.your_team')})</span>
                    ) : null}
                  </span>
                  <span className="block text-xs text-slate-600">
                    {t('venue_teams.members_count', { count: team.member_count })}
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <AddTeamForm workplaceId={venue.id} clientId={clientId} onAdded={onSelect} />
      <VenueAdmins venue={venue} clientId={clientId} />
    </Panel>
  );
}

function AddTeamForm({
  workplaceId,
  clientId,
  onAdded,
}: {
  workplaceId: string;
  clientId: string | undefined;
  onAdded: (teamId: string) => void;
}) {
  const { t } = useTranslation('teams');
  const { addTeam } = useVenueActions(clientId, workplaceId);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<TeamInput, unknown, z.output<typeof venueTeamBody>>({
    resolver: zodResolver(venueTeamBody),
    defaultValues: { title: '' },
  });
  const onSubmit = handleSubmit(({ title }) =>
    addTeam.mutate(title, {
      onSuccess: (team) => {
        reset();
        showSnackbar(t('venue_teams.added'), 'success');
        onAdded(team.id);
      },
      onError: (error) => {
        for (const [field, message] of serverFieldErrors(error))
          if (field === 'title') setError('title', { type: 'server', message }, { shouldFocus: true });
      },
    }),
  );
  return (
    <form noValidate className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={onSubmit}>
      <TextField
        className="flex-1"
        label={t('venue_teams.add_title')}
        maxLength={60}
        error={translateValidation(errors.title?.message)}
        {...register('title')}
      />
      <Button type="submit" className="sm:mt-7" loading={addTeam.isPending} icon={<Plus className="size-4" aria-hidden="true" />}>
        {t('venue_teams.add')}
      </Button>
    </form>
  );
}

function VenueAdmins({ venue, clientId }: { venue: Workplace; clientId: string | undefined }) {
  const { t } = useTranslation('teams');
  const { removeAdmin } = useVenueActions(clientId, venue.id);
  const [confirm, setConfirm] = useState<VenueAdmin | null>(null);
  const nameOf = (admin: VenueAdmin) => admin.public_name ?? t('page.no_name');
  const teamTitle = (teamId: string | null) => venue.teams.find((team) => team.id === teamId)?.title;
  const last = venue.admins.length <= 1;
  return (
    <div className="mt-6 border-t border-slate-100 pt-5">
      <h3 className="text-sm font-semibold text-primary-950">{t('venue_teams.admins_title')}</h3>
      <p className="mt-1 text-sm text-slate-600">{t('venue_teams.admins_text')}</p>
      <ul className="mt-3 divide-y divide-slate-100" data-testid="venue-admins">
        {venue.admins.map((admin) => (
          <li key={admin.user_id} className="flex flex-wrap items-center gap-3 py-3">
            <Avatar src={admin.image_url} name={admin.public_name} alt="" className="size-9" />
            <div className="min-w-40 flex-1">
              <p className="font-medium break-words text-primary-950">
                <Crown className="mr-1 inline size-3.5 text-primary-700" aria-hidden="true" />
                {nameOf(admin)}
              </p>
              {teamTitle(admin.team_id) ? (
                <p className="text-xs text-slate-600">{t('venue_teams.admin_team', { team: teamTitle(admin.team_id) })}</p>
              ) : null}
            </div>
            {last ? null : (
              <Button size="sm" variant="ghost" onClick={() => setConfirm(admin)}>
                {t('venue_teams.remove_admin')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {last ? <p className="text-xs text-slate-600">{t('venue_teams.last_admin')}</p> : null}
      <Dialog
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm ? t('venue_teams.remove_admin_title', { name: nameOf(confirm) }) : ''}
        footer={
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => setConfirm(null)}>
              {t('page.cancel')}
            </Button>
            <Button
              variant="danger"
              disabled={removeAdmin.isPending}
              onClick={() =>
                confirm &&
                removeAdmin.mutate(confirm.user_id, {
                  onSuccess: () => {
                    showSnackbar(t('venue_teams.admin_removed'), 'success');
                    setConfirm(null);
                  },
                })
              }
            >
              {t('venue_teams.remove_admin')}
            </Button>
          </div>
        }
      >
        <p className="text-sm text-slate-700">{t('venue_teams.remove_admin_text')}</p>
      </Dialog>
    </div>
  );
}
