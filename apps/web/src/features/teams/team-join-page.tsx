import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { CheckCircle2, LogIn, UserPlus, Users } from 'lucide-react';
import { TeamsLoader } from './components/teams-loader.tsx';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Panel } from '../../components/ui/page-header.tsx';
import { ApiError, apiErrorText } from '../../lib/api-errors.ts';
import { rememberReturnPath } from '../../lib/return-path.ts';
import { hasSession } from '../../lib/tokens.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { usePublicTeam, useRequestToJoin, useWorkplace } from './api/use-teams.ts';

/**
 * /teams/{teamId}/join (the invite link; the path form comes here through the public entry): the team, then sign-up
 * or log-in for a signed-out visitor, who comes back here, and the join request for a signed-in user.
 */
export default function TeamJoinPage() {
  const { t } = useTranslation('teams');
  const { teamId = '' } = useParams();
  const team = usePublicTeam(teamId);
  useDocumentTitle(team.isError ? t('join.not_found') : t('join.title'));

  if (team.isPending) return <TeamsLoader />;
  if (team.isError || !team.data) {
    return (
      <JoinFrame>
        <h1 className="text-xl font-bold text-primary-950" data-testid="team-not-found">
          {t('join.not_found')}
        </h1>
        <p className="mt-2 text-sm text-slate-600">{t('join.not_found_text')}</p>
      </JoinFrame>
    );
  }
  const { title, workplace_name, member_count, members } = team.data;
  return (
    <JoinFrame>
      <p className="text-sm font-medium text-primary-700">{t('join.title')}</p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-primary-950" data-testid="join-team-title">
        {title}
      </h1>
      <p className="mt-1 text-sm text-slate-600">{t('join.at', { workplace: workplace_name })}</p>
      <div className="mt-4 flex items-center gap-3">
        <div className="flex -space-x-2">
          {members.slice(0, 5).map((member, index) => (
            <Avatar key={index} src={member.image_url} name={member.public_name} alt="" className="size-9 ring-2 ring-white" />
          ))}
        </div>
        <span className="inline-flex items-center gap-1.5 text-sm text-slate-700">
          <Users className="size-4" aria-hidden="true" />
          {t('join.member_count', { count: member_count })}
        </span>
      </div>
      <div className="mt-6">{hasSession() ? <SignedInJoin teamId={teamId} /> : <SignedOutJoin teamId={teamId} />}</div>
    </JoinFrame>
  );
}

function JoinFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10">
      <Panel>{children}</Panel>
    </div>
  );
}

function SignedOutJoin({ teamId }: { teamId: string }) {
  const { t } = useTranslation('teams');
  const to = useLocalePath();
  const comeBack = () => rememberReturnPath(`/teams/${teamId}/join`);
  return (
    <>
      <p className="text-sm text-slate-700">{t('join.signed_out')}</p>
      <div className="mt-4 grid gap-2 sm:grid-cols-2">
        <ButtonLink to={to('/registration')} onClick={comeBack} block icon={<UserPlus className="size-4" aria-hidden="true" />}>
          {t('join.sign_up')}
        </ButtonLink>
        <ButtonLink
          to={to('/login')}
          onClick={comeBack}
          variant="secondary"
          block
          icon={<LogIn className="size-4" aria-hidden="true" />}
        >
          {t('join.log_in')}
        </ButtonLink>
      </div>
    </>
  );
}

function SignedInJoin({ teamId }: { teamId: string }) {
  const { t } = useTranslation('teams');
  const to = useLocalePath();
  const { clientId } = useMyCard();
  const workplace = useWorkplace(clientId);
  const request = useRequestToJoin(teamId);

  if (workplace.isPending) return <TeamsLoader />;
  const current = workplace.data?.team.id;
  if (current === teamId) {
    return (
      <>
        <p className="text-sm text-slate-700">{t('join.member_here')}</p>
        <ButtonLink className="mt-4" to={to('/workplace')} block>
          {t('join.open_workplace')}
        </ButtonLink>
      </>
    );
  }
  const refusedAsMember = request.error instanceof ApiError && request.error.code === 'already_in_team';
  if (current || refusedAsMember) {
    return (
      <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900" role="status" data-testid="join-already">
        {t('join.already')}
      </p>
    );
  }
  if (request.isSuccess) {
    return (
      <p
        className="flex items-start gap-2 rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900"
        role="status"
        data-testid="join-requested"
      >
        <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {t('join.requested')}
      </p>
    );
  }
  return (
    <>
      {request.error instanceof ApiError ? (
        <p className="mb-3 text-sm text-red-700" role="alert">
          {apiErrorText(request.error)}
        </p>
      ) : null}
      <Button
        block
        size="lg"
        onClick={() => request.mutate()}
        disabled={request.isPending}
        icon={<UserPlus className="size-5" aria-hidden="true" />}
      >
        {t('join.request')}
      </Button>
    </>
  );
}
