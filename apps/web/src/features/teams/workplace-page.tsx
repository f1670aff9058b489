import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import {
  Building2,
  Check,
  Copy,
  Crown,
  Heart,
  History,
  Hourglass,
  LogOut,
  Pencil,
  Plus,
  Share2,
  UserMinus,
  X,
} from 'lucide-react';
import QRCode from 'qrcode';
import { teamPatchBody, type OwnJoinRequest, type Team, type TeamMember, type Workplace } from '@tipcard/shared/teams/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { MySharesPanel, ShiftsPanel, SplitRulePanel } from './components/split-rules.tsx';
import { PeriodPicker } from './components/period-picker.tsx';
import { TeamCardPanel } from './components/team-card-panel.tsx';
import { VenueQrPanel } from './components/venue-qr-panel.tsx';
import { VenueCardPanel, VenuePercentagesPanel } from './components/venue-panel.tsx';
import { MyRecordsPanel, RecordsButtons } from './components/tip-records.tsx';
import { TippingPolicyPanel } from './components/tipping-policy.tsx';
import { DeadlineBanner, PeriodsPanel } from './components/team-periods.tsx';
import { TeamsLoader } from './components/teams-loader.tsx';
import { VenueTeamsPanel } from './components/venue-teams-panel.tsx';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ListState, LoadError } from '../../components/ui/list-state.tsx';
import { Skeleton, SkeletonRows } from '../../components/ui/skeleton.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Money } from '../../components/ui/money.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { canShare, shareLink, useCopyLink } from '../../lib/share-link.ts';
import { serverFieldErrors } from '../../lib/api-errors.ts';
import { currentLocale, translateValidation } from '../../lib/i18n.ts';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import {
  useOwnJoinRequests,
  useTeam,
  useTeamActions,
  useTeamHistory,
  useTeamStatistics,
  useVenueActions,
  useWithdrawJoinRequest,
  useWorkplace,
} from './api/use-teams.ts';
import { rangeOf, type Period } from './periods.ts';

/**
 * /workplace: the team, its members and requests, the invite link, statistics, work history and leaving; for a venue
 * admin also the venue's teams, each of which they manage here, and its admins (decision 0057).
 */
export default function WorkplacePage() {
  const { t } = useTranslation('teams');
  const to = useLocalePath();
  const { clientId, me } = useMyCard();
  const workplace = useWorkplace(clientId);
  const ownRequests = useOwnJoinRequests(clientId, workplace.data === null);
  useDocumentTitle(t('page.title'));

  if (workplace.isPending) return <TeamsLoader />;
  if (workplace.isError) {
    return (
      <Panel>
        <LoadError text={t('page.error')} onRetry={workplace.refetch} />
      </Panel>
    );
  }
  if (!workplace.data) {
    return (
      <div className="mx-auto max-w-xl">
        <PageHeader title={t('page.title')} />
        {ownRequests.data?.map((request) => (
          <PendingRequest key={request.id} request={request} clientId={clientId} />
        ))}
        <Panel className="text-center">
          <Building2 className="mx-auto size-10 text-primary-700" aria-hidden="true" />
          <h2 className="mt-3 text-lg font-semibold text-primary-950">{t('empty.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('empty.text')}</p>
          <ButtonLink className="mt-5" to={to('/workplace/create')} icon={<Plus className="size-4" aria-hidden="true" />}>
            {t('empty.create')}
          </ButtonLink>
        </Panel>
        {/* A former member's records stay theirs after leaving. */}
        {clientId ? (
          <div className="mt-5">
            <MyRecordsPanel clientId={clientId} />
          </div>
        ) : null}
      </div>
    );
  }
  return <Venue venue={workplace.data} clientId={clientId} myId={me?.id} />;
}

/** The user's own team, or another team of the venue its venue admin chose to manage. */
function Venue({ venue, clientId, myId }: { venue: Workplace; clientId: string | undefined; myId: string | undefined }) {
  const { t } = useTranslation('teams');
  const [chosen, setChosen] = useState(venue.team.id);
  const own = chosen === venue.team.id;
  const other = useTeam(own ? undefined : chosen);
  const venuePanel = venue.is_admin ? (
    <VenueTeamsPanel venue={venue} clientId={clientId} selectedTeamId={chosen} onSelect={setChosen} />
  ) : null;
  if (own) return <TeamView team={venue.team} venue={venue} own clientId={clientId} myId={myId} venuePanel={venuePanel} />;
  if (!other.data) {
    return (
      <div className="space-y-5">
        <PageHeader title={venue.name} />
        {venuePanel}
        <Panel>
          {other.isError ? (
            <LoadError text={t('venue_teams.error')} onRetry={other.refetch} />
          ) : (
            <SkeletonRows label={t('venue_teams.loading')} rows={3} />
          )}
        </Panel>
      </div>
    );
  }
  return <TeamView team={other.data} venue={venue} own={false} clientId={clientId} myId={myId} venuePanel={venuePanel} />;
}

function TeamView({
  team,
  venue,
  own,
  clientId,
  myId,
  venuePanel,
}: {
  team: Team;
  venue: Workplace;
  own: boolean;
  clientId: string | undefined;
  myId: string | undefined;
  venuePanel: ReactNode;
}) {
  const { t } = useTranslation('teams');
  // The team card is held by its team admin's client: its QR sheet and thank-you are theirs (decisions 0047, 0048).
  const holdsCard = team.admin_user_id === myId;
  return (
    <div className="space-y-5">
      <TeamHeader team={team} clientId={clientId} workplaceName={venue.name} holdsCard={holdsCard} />
      {venuePanel}
      {own ? null : (
        <p className="rounded-xl bg-primary-50 px-4 py-3 text-sm text-primary-900" data-testid="venue-managing">
          {t('venue_teams.managing')}
        </p>
      )}
      <DeadlineBanner team={team} />
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <Members team={team} venue={venue} clientId={clientId} myId={myId} />
        {team.is_admin ? <Requests team={team} clientId={clientId} /> : null}
        <SplitRulePanel team={team} clientId={clientId} />
        <TippingPolicyPanel team={team} />
        <PeriodsPanel team={team} />
        <ShiftsPanel team={team} clientId={clientId} myId={myId} />
        {own ? <MySharesPanel team={team} /> : null}
        {own && clientId ? <MyRecordsPanel clientId={clientId} /> : null}
        {own && (venue.is_admin || holdsCard) ? <VenueQrPanel workplaceId={venue.id} /> : null}
        {holdsCard ? <TeamCardPanel team={team} publicName={venue.name} /> : null}
        {own && (venue.is_admin || holdsCard) ? <VenueCardPanel workplaceId={venue.id} venueName={venue.name} /> : null}
        {own ? <VenuePercentagesPanel workplaceId={venue.id} /> : null}
        <Invite team={team} />
        <Statistics team={team} />
        <WorkHistory team={team} />
      </div>
      {own ? <Leave team={team} clientId={clientId} teamAdmin={holdsCard} /> : null}
    </div>
  );
}

/** A request the user sent, while its team's admin has not answered: what, where, since when, and a way back. */
function PendingRequest({ request, clientId }: { request: OwnJoinRequest; clientId: string | undefined }) {
  const { t } = useTranslation('teams');
  const withdraw = useWithdrawJoinRequest(clientId);
  return (
    <Panel className="mb-5">
      <div className="flex items-start gap-3" data-testid="pending-request">
        <Hourglass className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold text-primary-950">{t('pending.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('pending.text')}</p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">{t('pending.team')}</dt>
            <dd className="min-w-0 break-words font-medium text-slate-900">{request.team_title}</dd>
            <dt className="text-slate-600">{t('pending.workplace')}</dt>
            <dd className="min-w-0 break-words text-slate-900">{request.workplace_name}</dd>
            <dt className="text-slate-600">{t('pending.sent')}</dt>
            <dd className="text-slate-900">{formatDate(request.created_at, 'dateTime', currentLocale())}</dd>
          </dl>
          <Button
            className="mt-4"
            variant="secondary"
            size="sm"
            loading={withdraw.isPending}
            onClick={() =>
              withdraw.mutate(
                { teamId: request.team_id, requestId: request.id },
                { onSuccess: () => showSnackbar(t('pending.withdrawn'), 'success') },
              )
            }
          >
            {t('pending.withdraw')}
          </Button>
        </div>
      </div>
    </Panel>
  );
}

type RenameInput = z.input<typeof teamPatchBody>;

/** The admin's form for the team's title; it opens with the current title each time. */
function RenameForm({ team, clientId, onDone }: { team: Team; clientId: string | undefined; onDone: () => void }) {
  const { t } = useTranslation('teams');
  const { rename } = useTeamActions(clientId, team.id);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RenameInput, unknown, z.output<typeof teamPatchBody>>({
    resolver: zodResolver(teamPatchBody),
    defaultValues: { title: team.title },
  });
  const onSubmit = handleSubmit(({ title }) =>
    rename.mutate(title, {
      onSuccess: onDone,
      onError: (error) => {
        for (const [field, message] of serverFieldErrors(error))
          if (field === 'title') setError('title', { type: 'server', message }, { shouldFocus: true });
      },
    }),
  );
  return (
    <Panel>
      <form noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={onSubmit}>
        <TextField
          className="flex-1"
          label={t('page.team_title')}
          maxLength={60}
          autoFocus
          error={translateValidation(errors.title?.message)}
          {...register('title')}
        />
        <div className="flex gap-2 sm:mt-7">
          <Button type="submit" loading={rename.isPending}>
            {t('page.save')}
          </Button>
          <Button type="button" variant="ghost" onClick={onDone}>
            {t('page.cancel')}
          </Button>
        </div>
      </form>
    </Panel>
  );
}

function TeamHeader({
  team,
  clientId,
  workplaceName,
  holdsCard,
}: {
  team: Team;
  clientId: string | undefined;
  workplaceName: string;
  holdsCard: boolean;
}) {
  const { t } = useTranslation('teams');
  const to = useLocalePath();
  const [editing, setEditing] = useState(false);
  if (editing) return <RenameForm team={team} clientId={clientId} onDone={() => setEditing(false)} />;
  return (
    <PageHeader
      title={team.title}
      description={workplaceName}
      actions={
        <>
          {team.is_admin ? (
            <Button variant="secondary" onClick={() => setEditing(true)} icon={<Pencil className="size-4" aria-hidden="true" />}>
              {t('page.rename')}
            </Button>
          ) : null}
          {holdsCard ? (
            // The team card is held by its admin's client, so its thank-you is edited where a card's is (decision 0047).
            <ButtonLink
              variant="secondary"
              to={to(`/account/cards/${team.card_id}/thank-you`)}
              icon={<Heart className="size-4" aria-hidden="true" />}
            >
              {t('page.thank_you')}
            </ButtonLink>
          ) : null}
          <a
            className="inline-flex h-11 items-center rounded-xl px-4 text-sm font-medium text-primary-800 hover:bg-primary-50"
            href={team.payment_url}
            target="_blank"
            rel="noreferrer"
          >
            {t('page.open_card')}
          </a>
        </>
      }
    />
  );
}

type Confirm = { kind: 'remove' | 'admin'; member: TeamMember } | null;

function Members({
  team,
  venue,
  clientId,
  myId,
}: {
  team: Team;
  venue: Workplace;
  clientId: string | undefined;
  myId: string | undefined;
}) {
  const { t } = useTranslation('teams');
  const actions = useTeamActions(clientId, team.id);
  const { addAdmin } = useVenueActions(clientId, venue.id);
  const venueAdmins = new Set(venue.admins.map((admin) => admin.user_id));
  const [confirm, setConfirm] = useState<Confirm>(null);
  const nameOf = (member: TeamMember) => member.public_name ?? t('page.no_name');
  const onConfirm = () => {
    if (!confirm) return;
    const mutation = confirm.kind === 'remove' ? actions.remove : actions.grantAdmin;
    mutation.mutate(confirm.member.user_id, {
      onSuccess: () => {
        showSnackbar(t(confirm.kind === 'remove' ? 'members.removed' : 'members.admin_granted'), 'success');
        setConfirm(null);
      },
    });
  };
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('members.title')}</h2>
      {team.members.length === 0 ? <p className="mt-3 text-sm text-slate-600">{t('venue_teams.no_members')}</p> : null}
      <ul className="mt-4 divide-y divide-slate-100 empty:hidden" data-testid="team-members">
        {team.members.map((member) => (
          <li key={member.user_id} className="flex flex-wrap items-center gap-3 py-3">
            <Avatar src={member.image_url} name={member.public_name} alt="" className="size-10" />
            {/* Room for the name before the buttons: when there is less, they go to the next line. */}
            <div className="min-w-40 flex-1">
              {/* A long name wraps rather than cut off the "(you)" and admin marks after it. */}
              <p className="font-medium break-words text-primary-950">
                {nameOf(member)}
                {member.user_id === myId ? <span className="text-slate-500"> ({t('page.you')})</span> : null}
                {member.is_admin ? (
                  <span className="ml-2 inline-flex items-center gap-1 rounded-full bg-accent-100 px-2 py-0.5 text-xs font-medium text-primary-900">
                    <Crown className="size-3" aria-hidden="true" />
                    {t('page.admin_badge')}
                  </span>
                ) : null}
                {venueAdmins.has(member.user_id) ? (
                  <span className="ml-2 inline-flex items-center gap-1 rounded-full bg-primary-50 px-2 py-0.5 text-xs font-medium text-primary-900">
                    {t('venue_teams.admin_badge')}
                  </span>
                ) : null}
              </p>
              <p className="text-xs text-slate-500">
                {t('members.since', { date: formatDate(member.since, 'listDate', currentLocale()) })}
              </p>
            </div>
            {(venue.is_admin && !venueAdmins.has(member.user_id)) || (team.is_admin && !member.is_admin) ? (
              // One wrapping row of actions: a long label takes a line of its own rather than run over the next.
              <div className="flex flex-wrap gap-1">
                {venue.is_admin && !venueAdmins.has(member.user_id) ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    loading={addAdmin.isPending && addAdmin.variables === member.user_id}
                    onClick={() =>
                      addAdmin.mutate(member.user_id, {
                        onSuccess: () => showSnackbar(t('venue_teams.admin_added', { name: nameOf(member) }), 'success'),
                      })
                    }
                  >
                    {t('venue_teams.make_admin')}
                  </Button>
                ) : null}
                {team.is_admin && !member.is_admin ? (
                  <>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setConfirm({ kind: 'admin', member })}
                      icon={<Crown className="size-4" aria-hidden="true" />}
                    >
                      {t('members.make_admin')}
                    </Button>
                    <Button
                      size="sm"
                      variant="danger"
                      onClick={() => setConfirm({ kind: 'remove', member })}
                      icon={<UserMinus className="size-4" aria-hidden="true" />}
                    >
                      {t('members.remove')}
                    </Button>
                  </>
                ) : null}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <Dialog
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        title={
          confirm
            ? t(confirm.kind === 'remove' ? 'members.remove_title' : 'members.admin_title', { name: nameOf(confirm.member) })
            : ''
        }
        footer={
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => setConfirm(null)}>
              {t('page.cancel')}
            </Button>
            <Button
              variant={confirm?.kind === 'remove' ? 'danger' : 'primary'}
              onClick={onConfirm}
              disabled={actions.remove.isPending || actions.grantAdmin.isPending}
            >
              {t(confirm?.kind === 'remove' ? 'members.confirm_remove' : 'members.confirm_admin')}
            </Button>
          </div>
        }
      >
        <p className="text-sm text-slate-700">
          {confirm
            ? t(confirm.kind === 'remove' ? 'members.remove_text' : 'members.admin_text', { name: nameOf(confirm.member) })
            : null}
        </p>
      </Dialog>
    </Panel>
  );
}

function Requests({ team, clientId }: { team: Team; clientId: string | undefined }) {
  const { t } = useTranslation('teams');
  const { approve, decline } = useTeamActions(clientId, team.id);
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('requests.title')}</h2>
      {team.requests.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{t('requests.none')}</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100" data-testid="team-requests">
          {team.requests.map((request) => (
            <li key={request.id} className="flex flex-wrap items-center gap-3 py-3">
              <Avatar src={request.image_url} name={request.public_name} alt="" className="size-10" />
              <p className="min-w-40 flex-1 font-medium break-words text-primary-950">
                {request.public_name ?? t('page.no_name')}
              </p>
              <div className="flex gap-1">
                <Button
                  size="sm"
                  onClick={() => approve.mutate(request.id, { onSuccess: () => showSnackbar(t('requests.approved'), 'success') })}
                  disabled={approve.isPending}
                  icon={<Check className="size-4" aria-hidden="true" />}
                >
                  {t('requests.approve')}
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => decline.mutate(request.id, { onSuccess: () => showSnackbar(t('requests.declined'), 'info') })}
                  disabled={decline.isPending}
                  icon={<X className="size-4" aria-hidden="true" />}
                >
                  {t('requests.decline')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function Invite({ team }: { team: Team }) {
  const { t } = useTranslation('teams');
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(team.invite_url, { margin: 1, width: 320, color: { dark: '#132552' } }).then(
      (url) => live && setQr(url),
    );
    return () => {
      live = false;
    };
  }, [team.invite_url]);
  const { copy } = useCopyLink();
  const copyInvite = async () => {
    if (await copy(team.invite_url)) showSnackbar(t('invite.copied'), 'success');
  };
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('invite.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('invite.text')}</p>
      <div className="mt-4 flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {qr ? (
          <img src={qr} alt={t('invite.qr_alt')} className="size-36 rounded-lg ring-1 ring-slate-200" />
        ) : (
          <Skeleton className="size-36" />
        )}
        <div className="w-full min-w-0 flex-1 space-y-3">
          <input
            readOnly
            value={team.invite_url}
            aria-label={t('invite.title')}
            data-testid="invite-url"
            className="w-full truncate rounded-xl border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700"
            onFocus={(event) => event.target.select()}
          />
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => void copyInvite()} icon={<Copy className="size-4" aria-hidden="true" />}>
              {t('invite.copy')}
            </Button>
            {canShare() ? (
              <Button
                variant="secondary"
                onClick={() => void shareLink({ title: team.title, text: t('invite.share_text'), url: team.invite_url })}
                icon={<Share2 className="size-4" aria-hidden="true" />}
              >
                {t('invite.share')}
              </Button>
            ) : null}
          </div>
        </div>
      </div>
    </Panel>
  );
}

function Statistics({ team }: { team: Team }) {
  const { t } = useTranslation('teams');
  const [period, setPeriod] = useState<Period>({ kind: 'week' });
  const range = rangeOf(period, new Date());
  const stats = useTeamStatistics(team.id, range);
  const names = new Map(team.members.map((member) => [member.user_id, member.public_name]));
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('stats.title')}</h2>
      <PeriodPicker period={period} onChange={setPeriod} kinds={['week', 'month', 'range']} label={t('stats.title')} />
      {stats.data ? (
        <table className="mt-4 w-full text-sm" data-testid="team-statistics">
          <thead>
            <tr className="text-left text-xs text-slate-500">
              <th className="py-2 font-medium">{t('stats.member')}</th>
              <th className="py-2 text-right font-medium">{t('stats.count')}</th>
              <th className="py-2 text-right font-medium">{t('stats.sum')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {stats.data.members.map((row) => (
              <tr key={row.user_id}>
                <td className="py-2 text-primary-950">{row.public_name ?? names.get(row.user_id) ?? t('page.no_name')}</td>
                <td className="py-2 text-right tabular-nums">{row.count}</td>
                <td className="py-2 text-right tabular-nums">
                  <Money cents={row.sum_cents} />
                </td>
              </tr>
            ))}
            <tr className="font-semibold">
              <td className="py-2">{t('stats.total')}</td>
              <td className="py-2 text-right tabular-nums">{stats.data.total_count}</td>
              <td className="py-2 text-right tabular-nums">
                <Money cents={stats.data.total_cents} />
              </td>
            </tr>
          </tbody>
        </table>
      ) : stats.isError ? (
        <LoadError text={t('stats.error')} onRetry={stats.refetch} />
      ) : stats.isFetching ? (
        <SkeletonRows className="mt-4" label={t('stats.loading')} rows={2} />
      ) : null}
      {team.is_admin ? (
        <>
          <h3 className="mt-5 text-sm font-semibold text-primary-950">{t('records.admin_title')}</h3>
          <p className="mt-1 text-sm text-slate-600">{t('records.admin_text')}</p>
          <RecordsButtons path={`/teams/${team.id}/tip-records`} range={range} label={t('records.admin_title')} />
        </>
      ) : null}
    </Panel>
  );
}

function WorkHistory({ team }: { team: Team }) {
  const { t } = useTranslation('teams');
  const history = useTeamHistory(team.id);
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('history.title')}</h2>
      <ListState
        query={history}
        loadingLabel={t('history.loading')}
        errorText={t('history.error')}
        rows={2}
        empty={{ icon: <History className="size-7" />, title: t('history.empty') }}
      >
        {(periods) => (
          <ul className="mt-3 divide-y divide-slate-100 text-sm" data-testid="team-history">
            {periods.map((period) => (
              <li key={`${period.user_id}-${period.joined_at}`} className="flex flex-wrap justify-between gap-2 py-2">
                <span className="text-primary-950">{period.public_name ?? t('page.no_name')}</span>
                <span className="text-slate-600">
                  {t('history.period', {
                    from: formatDate(period.joined_at, 'listDate', currentLocale()),
                    to: period.left_at ? formatDate(period.left_at, 'listDate', currentLocale()) : t('history.now'),
                  })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </ListState>
    </Panel>
  );
}

/** Leaving the own team: its admin hands the team over first; a venue admin's role ends with it (decision 0057). */
function Leave({ team, clientId, teamAdmin }: { team: Team; clientId: string | undefined; teamAdmin: boolean }) {
  const { t } = useTranslation('teams');
  const { leave } = useTeamActions(clientId, team.id);
  const [open, setOpen] = useState(false);
  return (
    <div className="flex justify-end">
      <Button variant="danger" onClick={() => setOpen(true)} icon={<LogOut className="size-4" aria-hidden="true" />}>
        {t('leave.button')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={t('leave.title')}
        footer={
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => setOpen(false)}>
              {t('page.cancel')}
            </Button>
            {teamAdmin ? null : (
              <Button
                variant="danger"
                disabled={leave.isPending}
                onClick={() => leave.mutate(undefined, { onSuccess: () => showSnackbar(t('leave.left'), 'success') })}
              >
                {t('leave.confirm')}
              </Button>
            )}
          </div>
        }
      >
        <p className="text-sm text-slate-700">{teamAdmin ? t('leave.admin_text') : t('leave.text')}</p>
      </Dialog>
    </div>
  );
}
