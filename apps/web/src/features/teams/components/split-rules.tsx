import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Calculator, Clock, FileUp, Play, Square } from 'lucide-react';
import type { RulePreview, SplitRuleInput, Team, TipShare } from '@tipcard/shared/teams/schemas';
import { ROLE_POINTS_MAX } from '@tipcard/shared/teams/schemas';
import { BASIS_POINTS_WHOLE, formatPercent } from '@tipcard/shared/venue-tips/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { ApiError, apiErrorText } from '../../../lib/api-errors.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { formatEuro } from '../../../lib/format-euro.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FileDrop } from '../../../components/ui/file-drop.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { ListState, LoadError } from '../../../components/ui/list-state.tsx';
import { Money } from '../../../components/ui/money.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { SkeletonRows } from '../../../components/ui/skeleton.tsx';
import { useRulePreview, useShifts, useSplitActions, useSplitRules, useTipShares } from '../api/use-teams.ts';
import { inputDay, rangeOf } from '../periods.ts';

type Kind = SplitRuleInput['kind'];
const KINDS: Kind[] = ['even', 'hours', 'points'];
const DAY = 86_400_000;

/** "3 h 05 min" in the reader's language. */
function useDuration() {
  const { t } = useTranslation('teams');
  return (minutes: number) => t('shares.duration', { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, '0') });
}

const nameOf = (team: Team, userId: string, fallback: string) =>
  team.members.find((member) => member.user_id === userId)?.public_name ?? fallback;

/**
 * The team's split rule: what is in force and how it works (with the leftover-cents rule), and for the admin the
 * members' roles, a candidate rule previewed on a past period against what each member received, and saving it.
 */
export function SplitRulePanel({ team, clientId }: { team: Team; clientId: string | undefined }) {
  const { t } = useTranslation('teams');
  const rules = useSplitRules(team.id);
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('rules.title')}</h2>
      {rules.isPending ? (
        <SkeletonRows className="mt-3" label={t('rules.loading')} rows={2} />
      ) : rules.isError ? (
        <LoadError text={t('rules.error')} onRetry={rules.refetch} />
      ) : (
        <>
          <p className="mt-2 text-sm text-primary-950" data-testid="rule-in-force">
            {rules.data.current.created_at
              ? t('rules.in_force_since', {
                  rule: t(`rules.kind.${rules.data.current.kind}`),
                  date: formatDate(rules.data.current.created_at, 'listDate', currentLocale()),
                })
              : t('rules.in_force', { rule: t(`rules.kind.${rules.data.current.kind}`) })}
          </p>
          <p className="mt-1 text-sm text-slate-600">{t(`rules.help.${rules.data.current.kind}`)}</p>
          <p className="mt-1 text-sm text-slate-600">{t('rules.leftover')}</p>
          {team.is_admin ? (
            <RuleEditor key={rules.data.current.id ?? 'default'} team={team} clientId={clientId} current={rules.data.current} />
          ) : null}
        </>
      )}
    </Panel>
  );
}

function RuleEditor({
  team,
  clientId,
  current,
}: {
  team: Team;
  clientId: string | undefined;
  current: { kind: Kind; points: Record<string, number> };
}) {
  const { t } = useTranslation('teams');
  const { saveRule } = useSplitActions(clientId, team.id);
  const preview = useRulePreview(team.id);
  const [kind, setKind] = useState<Kind>(current.kind);
  const roles = [...new Set([...team.members.flatMap((m) => (m.role ? [m.role] : [])), ...Object.keys(current.points)])];
  const [points, setPoints] = useState<Record<string, string>>(() =>
    Object.fromEntries(roles.map((role) => [role, String(current.points[role] ?? 1)])),
  );
  const today = new Date();
  const [period, setPeriod] = useState({
    from: inputDay(new Date(today.getTime() - 7 * DAY)),
    to: inputDay(today),
  });
  const pointsError = kind === 'points' && (roles.length === 0 || roles.some((role) => !validPoints(points[role])));
  const candidate = (): SplitRuleInput | null => {
    if (kind !== 'points') return { kind };
    if (pointsError) return null;
    return { kind, points: Object.fromEntries(roles.map((role) => [role, Number(points[role])])) };
  };
  const range = rangeOf({ kind: 'range', ...period }, today);
  const runPreview = () => {
    const rule = candidate();
    if (rule && range) preview.mutate({ rule, ...range });
  };
  const save = () => {
    const rule = candidate();
    if (rule) saveRule.mutate(rule, { onSuccess: () => showSnackbar(t('rules.saved'), 'success') });
  };
  return (
    <div className="mt-4 space-y-4 border-t border-slate-100 pt-4">
      <RolesForm team={team} clientId={clientId} />
      <fieldset>
        <legend className="text-sm font-medium text-primary-950">{t('rules.choose')}</legend>
        <div className="mt-2 space-y-2">
          {KINDS.map((option) => (
            <label key={option} className="flex items-start gap-2 text-sm text-primary-950">
              <input
                type="radio"
                name={`rule-${team.id}`}
                value={option}
                checked={kind === option}
                onChange={() => setKind(option)}
                className="mt-1 size-4 accent-primary-800"
              />
              <span>
                <span className="font-medium">{t(`rules.kind.${option}`)}</span>
                <span className="block text-slate-600">{t(`rules.help.${option}`)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {kind === 'points' ? (
        roles.length === 0 ? (
          <p className="text-sm text-amber-800" role="status">
            {t('rules.no_roles')}
          </p>
        ) : (
          <div className="grid gap-3 sm:grid-cols-2">
            {roles.map((role) => (
              <TextField
                key={role}
                label={t('rules.points_for', { role })}
                inputMode="numeric"
                value={points[role] ?? ''}
                error={validPoints(points[role]) ? undefined : t('rules.points_range', { max: ROLE_POINTS_MAX })}
                onChange={(event) => setPoints({ ...points, [role]: event.target.value })}
              />
            ))}
          </div>
        )
      ) : null}
      <div>
        <h3 className="text-sm font-medium text-primary-950">{t('rules.preview_title')}</h3>
        <p className="mt-1 text-sm text-slate-600">{t('rules.preview_text')}</p>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          <TextField
            label={t('rules.period_from')}
            type="date"
            value={period.from}
            onChange={(event) => setPeriod({ ...period, from: event.target.value })}
          />
          <TextField
            label={t('rules.period_to')}
            type="date"
            value={period.to}
            onChange={(event) => setPeriod({ ...period, to: event.target.value })}
          />
        </div>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button
            variant="secondary"
            disabled={!range || pointsError}
            loading={preview.isPending}
            onClick={runPreview}
            icon={<Calculator className="size-4" aria-hidden="true" />}
          >
            {t('rules.preview')}
          </Button>
          <Button disabled={pointsError} loading={saveRule.isPending} onClick={save}>
            {t('rules.save')}
          </Button>
        </div>
        <div aria-live="polite">
          {preview.isError ? (
            <p className="mt-3 text-sm text-red-700" role="alert">
              {preview.error instanceof ApiError ? apiErrorText(preview.error) : t('rules.preview_error')}
            </p>
          ) : preview.data ? (
            <PreviewTable team={team} preview={preview.data} />
          ) : null}
        </div>
      </div>
    </div>
  );
}

const validPoints = (value: string | undefined) =>
  value !== undefined && /^\d{1,4}$/.test(value) && Number(value) <= ROLE_POINTS_MAX;

function PreviewTable({ team, preview }: { team: Team; preview: RulePreview }) {
  const { t } = useTranslation('teams');
  if (preview.tip_count === 0) return <p className="mt-3 text-sm text-slate-600">{t('rules.preview_empty')}</p>;
  return (
    <table className="mt-3 w-full text-sm" data-testid="rule-preview">
      <caption className="text-left text-xs text-slate-500">
        {t('rules.preview_caption', { n: preview.tip_count, total: formatEuro(preview.total_cents) })}
      </caption>
      <thead>
        <tr className="text-left text-xs text-slate-500">
          <th className="py-2 font-medium">{t('stats.member')}</th>
          <th className="py-2 text-right font-medium">{t('rules.received')}</th>
          <th className="py-2 text-right font-medium">{t('rules.would_receive')}</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {preview.members.map((row) => (
          <tr key={row.user_id}>
            <td className="py-2 text-primary-950">{row.public_name ?? nameOf(team, row.user_id, t('page.no_name'))}</td>
            <td className="py-2 text-right tabular-nums">
              <Money cents={row.received_cents} />
            </td>
            <td className="py-2 text-right font-medium tabular-nums">
              <Money cents={row.candidate_cents} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The admin names each member's role (what the points rule prices); an empty field is no role. */
function RolesForm({ team, clientId }: { team: Team; clientId: string | undefined }) {
  const { t } = useTranslation('teams');
  const { setRole } = useSplitActions(clientId, team.id);
  const [roles, setRoles] = useState<Record<string, string>>(() =>
    Object.fromEntries(team.members.map((m) => [m.user_id, m.role ?? ''])),
  );
  const changed = team.members.filter((m) => (roles[m.user_id] ?? '').trim() !== (m.role ?? ''));
  const save = async () => {
    for (const member of changed)
      await setRole.mutateAsync({ userId: member.user_id, role: roles[member.user_id]!.trim() || null });
    showSnackbar(t('roles.saved'), 'success');
  };
  return (
    <div>
      <h3 className="text-sm font-medium text-primary-950">{t('roles.title')}</h3>
      <p className="mt-1 text-sm text-slate-600">{t('roles.text')}</p>
      <div className="mt-2 grid gap-3 sm:grid-cols-2">
        {team.members.map((member) => (
          <TextField
            key={member.user_id}
            label={member.public_name ?? t('page.no_name')}
            maxLength={40}
            value={roles[member.user_id] ?? ''}
            onChange={(event) => setRoles({ ...roles, [member.user_id]: event.target.value })}
          />
        ))}
      </div>
      <Button
        className="mt-3"
        variant="secondary"
        disabled={changed.length === 0}
        loading={setRole.isPending}
        onClick={() => void save()}
      >
        {t('roles.save')}
      </Button>
    </div>
  );
}

/** Shifts: the member starts and ends theirs; the admin also enters one by hand or imports a CSV file. */
export function ShiftsPanel({ team, clientId, myId }: { team: Team; clientId: string | undefined; myId: string | undefined }) {
  const { t } = useTranslation('teams');
  const [now] = useState(() => Date.now());
  const range = { from: new Date(now - 7 * DAY).toISOString(), to: new Date(now + DAY).toISOString() };
  const shifts = useShifts(team.id, range);
  const { clockIn, clockOut } = useSplitActions(clientId, team.id);
  const open = shifts.data?.find((shift) => shift.user_id === myId && shift.ended_at === null);
  // A venue admin managing a team they are not a member of has no shift of their own in it.
  const member = team.members.some((m) => m.user_id === myId);
  return (
    <Panel>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-primary-950">{t('shifts.title')}</h2>
        {shifts.data && member ? (
          open ? (
            <Button
              variant="secondary"
              loading={clockOut.isPending}
              onClick={() => clockOut.mutate(undefined, { onSuccess: () => showSnackbar(t('shifts.ended'), 'success') })}
              icon={<Square className="size-4" aria-hidden="true" />}
            >
              {t('shifts.end')}
            </Button>
          ) : (
            <Button
              loading={clockIn.isPending}
              onClick={() => clockIn.mutate(undefined, { onSuccess: () => showSnackbar(t('shifts.started'), 'success') })}
              icon={<Play className="size-4" aria-hidden="true" />}
            >
              {t('shifts.start')}
            </Button>
          )
        ) : null}
      </div>
      <ListState
        query={shifts}
        loadingLabel={t('shifts.loading')}
        errorText={t('shifts.error')}
        rows={2}
        empty={{ icon: <Clock className="size-7" />, title: t('shifts.empty') }}
      >
        {(rows) => (
          <ul className="mt-3 divide-y divide-slate-100 text-sm" data-testid="shifts">
            {rows.map((shift) => (
              <li key={shift.id} className="flex flex-wrap justify-between gap-2 py-2">
                <span className="text-primary-950">{shift.public_name ?? t('page.no_name')}</span>
                <span className="text-slate-600">
                  {t('shifts.period', {
                    from: formatDate(shift.started_at, 'dateTime', currentLocale()),
                    to: shift.ended_at ? formatDate(shift.ended_at, 'dateTime', currentLocale()) : t('shifts.on_shift'),
                  })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </ListState>
      {team.is_admin ? <AdminShifts team={team} clientId={clientId} /> : null}
    </Panel>
  );
}

/** A `datetime-local` value (the admin's own time) as the API's instant; empty when the field is incomplete. */
const instantOf = (value: string) => {
  const at = new Date(value);
  return value && !Number.isNaN(at.getTime()) ? at.toISOString() : '';
};

function AdminShifts({ team, clientId }: { team: Team; clientId: string | undefined }) {
  const { t } = useTranslation('teams');
  const { addShift, importShifts } = useSplitActions(clientId, team.id);
  const [entry, setEntry] = useState({ user_id: team.members[0]?.user_id ?? '', from: '', to: '' });
  const [problems, setProblems] = useState<[string, string[]][]>([]);
  const problemsId = useId();
  const started = instantOf(entry.from);
  const ended = instantOf(entry.to);
  const add = () =>
    addShift.mutate(
      { user_id: entry.user_id, started_at: started, ended_at: ended },
      { onSuccess: () => showSnackbar(t('shifts.added'), 'success') },
    );
  const upload = async (files: File[]) => {
    const [file] = files;
    if (!file) return;
    setProblems([]);
    importShifts.mutate(await file.text(), {
      onSuccess: ({ imported }) => showSnackbar(t('shifts.imported', { n: imported }), 'success'),
      onError: (error) => {
        const rows = error instanceof ApiError ? Object.entries(error.body?.validation_errors ?? {}) : [];
        setProblems(
          rows.length > 0 ? rows : [['', [error instanceof ApiError ? apiErrorText(error) : t('shifts.import_error')]]],
        );
      },
    });
  };
  return (
    <div className="mt-4 space-y-4 border-t border-slate-100 pt-4">
      <div>
        <h3 className="text-sm font-medium text-primary-950">{t('shifts.add_title')}</h3>
        <div className="mt-2 grid gap-3 sm:grid-cols-3">
          <SelectField
            label={t('stats.member')}
            value={entry.user_id}
            options={team.members.map((m) => ({ value: m.user_id, label: m.public_name ?? t('page.no_name') }))}
            onChange={(event) => setEntry({ ...entry, user_id: event.target.value })}
          />
          <TextField
            label={t('shifts.from')}
            type="datetime-local"
            value={entry.from}
            onChange={(event) => setEntry({ ...entry, from: event.target.value })}
          />
          <TextField
            label={t('shifts.to')}
            type="datetime-local"
            value={entry.to}
            error={started && ended && ended <= started ? t('shifts.end_after_start') : undefined}
            onChange={(event) => setEntry({ ...entry, to: event.target.value })}
          />
        </div>
        <Button
          className="mt-3"
          variant="secondary"
          disabled={!entry.user_id || !started || !ended || ended <= started}
          loading={addShift.isPending}
          onClick={add}
        >
          {t('shifts.add')}
        </Button>
      </div>
      <div>
        <h3 className="text-sm font-medium text-primary-950">{t('shifts.import_title')}</h3>
        <p className="mt-1 text-sm text-slate-600">{t('shifts.import_text')}</p>
        <FileDrop
          className="mt-2"
          accept=".csv,text/csv"
          invalid={problems.length > 0}
          describedBy={problems.length > 0 ? problemsId : undefined}
          disabled={importShifts.isPending}
          onFiles={(files) => void upload(files)}
          inputTestId="shift-import"
        >
          <FileUp className="size-5 text-primary-700" aria-hidden="true" />
          <span className="text-sm text-primary-900">{t('shifts.import_choose')}</span>
        </FileDrop>
        <div id={problemsId} aria-live="polite">
          {problems.length > 0 ? (
            <ul className="mt-2 space-y-1 text-sm text-red-700" role="alert">
              {problems.map(([row, found]) => (
                <li key={row}>
                  {row
                    ? t('shifts.problem_line', {
                        line: row.replace('rows.', ''),
                        problems: found.map((p) => t(`shifts.problem.${p}`)).join(', '),
                      })
                    : found.join(', ')}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** "Why my share is what it is": the member's shares of the latest team tips, each with its maths. */
export function MySharesPanel({ team }: { team: Team }) {
  const { t } = useTranslation('teams');
  const shares = useTipShares(team.id);
  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('shares.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('rules.leftover')}</p>
      <ListState
        query={shares}
        loadingLabel={t('shares.loading')}
        errorText={t('shares.error')}
        rows={2}
        empty={{ icon: <Calculator className="size-7" />, title: t('shares.empty') }}
      >
        {(rows) => (
          <ul className="mt-3 divide-y divide-slate-100 text-sm" data-testid="tip-shares">
            {rows.map((share) => (
              <ShareRow key={share.payment_id} share={share} />
            ))}
          </ul>
        )}
      </ListState>
    </Panel>
  );
}

/**
 * Whether the team's effective part of a venue tip was more than its percentage: teams with no member were left out.
 * Within a basis point of it is the percentage itself (the default even split rounds 1/3 to 33.34 %).
 */
const redistributed = (venue: NonNullable<TipShare['venue']>) =>
  Math.abs(venue.weight * BASIS_POINTS_WHOLE - venue.basis_points * venue.total_weight) >= venue.total_weight;

function ShareRow({ share }: { share: TipShare }) {
  const { t } = useTranslation('teams');
  const duration = useDuration();
  const net = share.total_cents - share.fee_cents;
  const why =
    share.basis === 'hours'
      ? share.weight > 0
        ? t('shares.why_hours', {
            worked: duration(share.minutes ?? 0),
            total: duration(share.total_weight),
            n: share.sharing,
          })
        : t('shares.why_off_shift')
      : share.basis === 'points'
        ? share.weight > 0
          ? t('shares.why_points', { role: share.role ?? '', points: share.points ?? 0, total: share.total_weight })
          : t('shares.why_no_points')
        : share.basis === 'even'
          ? t('shares.why_even', { n: share.sharing })
          : t(`shares.why_${share.basis}`, { n: share.sharing });
  return (
    <li className="py-3">
      <div className="flex flex-wrap justify-between gap-2">
        <span className="text-slate-600">{formatDate(share.at, 'dateTime', currentLocale())}</span>
        <span className="font-semibold text-primary-950 tabular-nums">
          <Money cents={share.net_cents} />
        </span>
      </div>
      {share.venue ? (
        <p className="mt-1 text-primary-950" data-testid="venue-part">
          {t(redistributed(share.venue) ? 'shares.why_venue_redistributed' : 'shares.why_venue', {
            percent: formatPercent(share.venue.basis_points, currentLocale()),
            venue_tip: formatEuro(share.venue.total_cents - share.venue.fee_cents),
          })}
        </p>
      ) : null}
      <p className="mt-1 text-primary-950">{why}</p>
      <p className="mt-0.5 text-slate-600">
        {t('shares.totals', {
          rule: t(`rules.kind.${share.rule}`),
          tip: formatEuro(net),
          fee: formatEuro(share.share_fee_cents),
        })}
      </p>
    </li>
  );
}
