import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, ArrowRightLeft, CheckCircle2, Lock, MessageSquareWarning } from 'lucide-react';
import { PERIOD_OBJECTION_MAX_LENGTH, type Team, type TeamPeriod } from '@tipcard/shared/teams/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextAreaField } from '../../../components/ui/field.tsx';
import { LoadError } from '../../../components/ui/list-state.tsx';
import { Money } from '../../../components/ui/money.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { SkeletonRows } from '../../../components/ui/skeleton.tsx';
import { currentLocale } from '../../../lib/i18n.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useTeamPeriodActions, useTeamPeriods } from '../api/use-teams.ts';
import { AdjustmentForm, PeriodAdjustmentsList } from './period-adjustments.tsx';

/** A period's name: its month, in UTC as periods are (decision 0055). */
const monthName = (period: TeamPeriod) => formatDate(period.from, 'month', currentLocale(), { timeZone: 'UTC' });
/** The legal deadline's last day: the deadline is the first instant after it. */
const deadlineDay = (period: TeamPeriod) =>
  formatDate(new Date(new Date(period.deadline).getTime() - 1), 'longDate', currentLocale(), { timeZone: 'UTC' });
const moment = (iso: string) => formatDate(iso, 'dateTime', currentLocale());

/**
 * The admin's warning (issue 29): tips of a past period must reach the workers by the end of the following month, and
 * a period not locked by a week before then (or after it) is named here.
 */
export function DeadlineBanner({ team }: { team: Team }) {
  const { t } = useTranslation('teams');
  const periods = useTeamPeriods(team.id);
  const late = (periods.data ?? []).filter((period) => period.deadline_soon);
  if (!team.is_admin || late.length === 0) return null;
  return (
    <div role="alert" className="space-y-2 rounded-2xl border border-amber-300 bg-amber-50 p-4" data-testid="deadline-banner">
      {late.map((period) => (
        <p key={period.month} className="flex gap-2 text-sm text-amber-900">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {t(period.deadline_passed ? 'periods.deadline_passed' : 'periods.deadline_soon', {
            month: monthName(period),
            date: deadlineDay(period),
          })}
        </p>
      ))}
    </div>
  );
}

type Confirming = { kind: 'close' | 'lock'; period: TeamPeriod } | null;

/**
 * The team's periods (decision 0055): each month's state and deadline; the admin closes a month that has ended,
 * answers objections and locks it; a member objects within 24 hours of the close or confirms, and reads the answer.
 */
export function PeriodsPanel({ team }: { team: Team }) {
  const { t } = useTranslation('teams');
  const periods = useTeamPeriods(team.id);
  const actions = useTeamPeriodActions(team.id);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const pending = confirming?.kind === 'close' ? actions.close : actions.lock;

  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('periods.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('periods.text')}</p>
      {periods.isPending ? (
        <SkeletonRows className="mt-4" label={t('periods.loading')} rows={3} />
      ) : periods.isError ? (
        <LoadError text={t('periods.error')} onRetry={periods.refetch} />
      ) : (
        <ul className="mt-4 space-y-3" data-testid="team-periods">
          {periods.data.map((period) => (
            <PeriodItem key={period.month} period={period} team={team} actions={actions} onAsk={setConfirming} />
          ))}
        </ul>
      )}

      <Dialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? t(`periods.${confirming.kind}_confirm_title`, { month: monthName(confirming.period) }) : ''}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(null)}>
              {t('page.cancel')}
            </Button>
            <Button
              loading={pending.isPending}
              onClick={() =>
                confirming &&
                pending.mutate(confirming.period.month, {
                  onSuccess: () => showSnackbar(t(`periods.${confirming.kind}_done`), 'success'),
                  onSettled: () => setConfirming(null),
                })
              }
            >
              {confirming ? t(`periods.${confirming.kind}`) : null}
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-700">{confirming ? t(`periods.${confirming.kind}_confirm_text`) : null}</p>
      </Dialog>
    </Panel>
  );
}

function PeriodItem({
  period,
  team,
  actions,
  onAsk,
}: {
  period: TeamPeriod;
  team: Team;
  actions: ReturnType<typeof useTeamPeriodActions>;
  onAsk: (confirming: Confirming) => void;
}) {
  const { t } = useTranslation('teams');
  const isAdmin = team.is_admin;
  const [objecting, setObjecting] = useState(false);
  const [adjusting, setAdjusting] = useState(false);
  const [text, setText] = useState('');
  const ended = new Date(period.to) <= new Date();
  const state = period.state === 'open' && !ended ? 'current' : period.state;
  return (
    <li className="rounded-xl border border-slate-200 p-3" data-testid={`period-${period.month}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold text-primary-950 first-letter:uppercase">{monthName(period)}</h3>
        <span
          className={
            state === 'locked'
              ? 'flex items-center gap-1 text-xs font-medium text-emerald-800'
              : 'text-xs font-medium text-slate-600'
          }
          data-testid="period-state"
        >
          {state === 'locked' ? <Lock className="size-3.5" aria-hidden="true" /> : null}
          {t(`periods.state.${state}`)}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {t('periods.tips', { count: period.tip_count })} · <Money cents={period.total_cents} />
      </p>
      {period.state === 'closed' && period.objections_until ? (
        <p className="mt-1 text-sm text-slate-700">{t('periods.objections_until', { date: moment(period.objections_until) })}</p>
      ) : null}
      {period.state === 'closed' && period.sharers > 0 ? (
        <p className="mt-1 text-sm text-slate-700">
          {t('periods.confirmed', { confirmed: period.confirmed, sharers: period.sharers })}
        </p>
      ) : null}
      {period.state === 'locked' && period.locked_at ? (
        <p className="mt-1 text-sm text-slate-700">
          {t('periods.locked_on', {
            date: moment(period.locked_at),
            name: period.locked_by?.public_name ?? t('page.no_name'),
          })}
        </p>
      ) : null}
      {period.state !== 'locked' && ended && period.tip_count > 0 ? (
        <p className={period.deadline_soon ? 'mt-1 text-sm font-medium text-amber-800' : 'mt-1 text-sm text-slate-700'}>
          {t('periods.deadline', { date: deadlineDay(period) })}
        </p>
      ) : null}

      {period.objections.length > 0 ? (
        <ul className="mt-3 space-y-2">
          {period.objections.map((objection) => (
            <Objection key={objection.id} period={period} objection={objection} isAdmin={isAdmin} actions={actions} />
          ))}
        </ul>
      ) : null}

      <PeriodAdjustmentsList period={period} />
      {adjusting && period.can_adjust ? <AdjustmentForm team={team} period={period} onClose={() => setAdjusting(false)} /> : null}

      {period.confirmed_by_me && period.state === 'closed' ? (
        <p className="mt-2 flex items-center gap-2 text-sm text-emerald-800">
          <CheckCircle2 className="size-4 shrink-0" aria-hidden="true" />
          {t('periods.confirmed_by_me')}
        </p>
      ) : null}

      {objecting && period.can_object ? (
        <form
          className="mt-3 space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (!text.trim()) return;
            actions.object.mutate(
              { month: period.month, text },
              {
                onSuccess: () => {
                  setObjecting(false);
                  setText('');
                  showSnackbar(t('periods.object_done'), 'success');
                },
              },
            );
          }}
        >
          <TextAreaField
            label={t('periods.object_label')}
            hint={t('periods.object_hint')}
            rows={4}
            maxLength={PERIOD_OBJECTION_MAX_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
            required
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={actions.object.isPending} disabled={!text.trim()}>
              {t('periods.object_send')}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setObjecting(false)}>
              {t('page.cancel')}
            </Button>
          </div>
        </form>
      ) : null}

      <div className="mt-3 flex flex-wrap gap-2 empty:hidden">
        {period.can_close ? <Button onClick={() => onAsk({ kind: 'close', period })}>{t('periods.close')}</Button> : null}
        {period.can_lock ? (
          <Button icon={<Lock className="size-4" aria-hidden="true" />} onClick={() => onAsk({ kind: 'lock', period })}>
            {t('periods.lock')}
          </Button>
        ) : null}
        {period.can_confirm ? (
          <Button
            variant="secondary"
            loading={actions.confirm.isPending}
            onClick={() =>
              actions.confirm.mutate(period.month, { onSuccess: () => showSnackbar(t('periods.confirm_done'), 'success') })
            }
          >
            {t('periods.confirm')}
          </Button>
        ) : null}
        {period.can_adjust && !adjusting ? (
          <Button
            variant="secondary"
            icon={<ArrowRightLeft className="size-4" aria-hidden="true" />}
            onClick={() => setAdjusting(true)}
          >
            {t('periods.adjust')}
          </Button>
        ) : null}
        {period.can_object && !objecting ? (
          <Button
            variant="secondary"
            icon={<MessageSquareWarning className="size-4" aria-hidden="true" />}
            onClick={() => setObjecting(true)}
          >
            {t('periods.object')}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

function Objection({
  period,
  objection,
  isAdmin,
  actions,
}: {
  period: TeamPeriod;
  isAdmin: boolean;
  objection: TeamPeriod['objections'][number];
  actions: ReturnType<typeof useTeamPeriodActions>;
}) {
  const { t } = useTranslation('teams');
  const [answer, setAnswer] = useState('');
  const canAnswer = isAdmin && period.state === 'closed' && objection.answered_at === null;
  return (
    <li className="rounded-lg bg-slate-50 p-3 text-sm" data-testid="period-objection">
      <p className="text-xs font-medium text-slate-500">
        {t('periods.objection_by', { name: objection.public_name ?? t('page.no_name'), date: moment(objection.created_at) })}
      </p>
      <p className="mt-1 break-words whitespace-pre-line text-primary-950">{objection.text}</p>
      {objection.answer !== null && objection.answered_at ? (
        <div className="mt-2 border-l-2 border-primary-300 pl-3">
          <p className="text-xs font-medium text-slate-500">{t('periods.answer_on', { date: moment(objection.answered_at) })}</p>
          <p className="mt-1 break-words whitespace-pre-line text-primary-950" data-testid="period-answer">
            {objection.answer}
          </p>
        </div>
      ) : canAnswer ? (
        <form
          className="mt-2 space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (!answer.trim()) return;
            actions.answer.mutate(
              { month: period.month, objectionId: objection.id, answer },
              { onSuccess: () => showSnackbar(t('periods.answer_done'), 'success') },
            );
          }}
        >
          <TextAreaField
            label={t('periods.answer_label')}
            rows={3}
            maxLength={PERIOD_OBJECTION_MAX_LENGTH}
            value={answer}
            onChange={(event) => setAnswer(event.target.value)}
            required
          />
          <Button type="submit" size="sm" loading={actions.answer.isPending} disabled={!answer.trim()}>
            {t('periods.answer_send')}
          </Button>
        </form>
      ) : (
        <p className="mt-2 text-xs text-slate-600">{t('periods.waiting_answer')}</p>
      )}
    </li>
  );
}
