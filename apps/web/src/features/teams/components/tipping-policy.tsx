import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, FileText, Pencil } from 'lucide-react';
import { TIPPING_POLICY_MAX_LENGTH, type Team, type TippingPolicy } from '@tipcard/shared/teams/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextAreaField } from '../../../components/ui/field.tsx';
import { LoadError } from '../../../components/ui/list-state.tsx';
import { SkeletonRows } from '../../../components/ui/skeleton.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { currentLocale } from '../../../lib/i18n.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useTippingPolicy, useTippingPolicyActions } from '../api/use-teams.ts';

const day = (iso: string) => formatDate(iso, 'longDate', currentLocale());

/**
 * The venue's written tipping policy (issue 29, decision 0054): every member reads the version in force and confirms
 * it; the admin writes a new version from the template and sees who confirmed reading it and when.
 */
export function TippingPolicyPanel({ team }: { team: Team }) {
  const { t } = useTranslation('teams');
  const policy = useTippingPolicy(team.id);
  const actions = useTippingPolicyActions(team.id);
  const [draft, setDraft] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('policy.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('policy.text')}</p>
      {policy.isPending ? (
        <SkeletonRows className="mt-4" label={t('policy.loading')} rows={3} />
      ) : policy.isError ? (
        <LoadError text={t('policy.error')} onRetry={policy.refetch} />
      ) : (
        <PolicyBody
          team={team}
          policy={policy.data}
          actions={actions}
          draft={draft}
          setDraft={setDraft}
          onPublish={() => setConfirming(true)}
        />
      )}

      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={t('policy.publish_confirm_title')}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              {t('page.cancel')}
            </Button>
            <Button
              loading={actions.publish.isPending}
              onClick={() =>
                draft &&
                actions.publish.mutate(draft, {
                  onSuccess: () => {
                    setConfirming(false);
                    setDraft(null);
                    showSnackbar(t('policy.published'), 'success');
                  },
                  onError: () => setConfirming(false),
                })
              }
            >
              {t('policy.publish')}
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-700">{t('policy.publish_confirm_text')}</p>
      </Dialog>
    </Panel>
  );
}

function PolicyBody({
  team,
  policy: { current, template, readers },
  actions,
  draft,
  setDraft,
  onPublish,
}: {
  team: Team;
  policy: TippingPolicy;
  actions: ReturnType<typeof useTippingPolicyActions>;
  draft: string | null;
  setDraft: (draft: string | null) => void;
  onPublish: () => void;
}) {
  const { t } = useTranslation('teams');
  return (
    <div className="mt-4 space-y-4">
      {current ? (
        <article aria-labelledby={`policy-version-${team.id}`} className="rounded-xl bg-slate-50 p-4">
          <p id={`policy-version-${team.id}`} className="text-xs font-medium text-slate-500">
            {t('policy.version', { version: current.version, date: day(current.published_at) })}
          </p>
          <div
            className="mt-2 max-h-80 overflow-y-auto text-sm break-words whitespace-pre-line text-primary-950"
            data-testid="tipping-policy-text"
            tabIndex={0}
          >
            {current.text}
          </div>
        </article>
      ) : (
        <p className="text-sm text-slate-600">{t('policy.none')}</p>
      )}
      {current && current.read_at ? (
        <p className="flex items-center gap-2 text-sm text-emerald-800" data-testid="tipping-policy-read">
          <CheckCircle2 className="size-4 shrink-0" aria-hidden="true" />
          {t('policy.read_on', { date: day(current.read_at) })}
        </p>
      ) : current ? (
        <Button
          loading={actions.confirmRead.isPending}
          onClick={() =>
            actions.confirmRead.mutate(current.version, {
              onSuccess: () => showSnackbar(t('policy.read_done'), 'success'),
            })
          }
          icon={<FileText className="size-4" aria-hidden="true" />}
        >
          {t('policy.read')}
        </Button>
      ) : null}

      {team.is_admin && draft === null ? (
        <Button
          variant="secondary"
          onClick={() => setDraft(current?.text ?? template)}
          icon={<Pencil className="size-4" aria-hidden="true" />}
        >
          {t('policy.edit')}
        </Button>
      ) : null}
      {team.is_admin && draft !== null ? (
        <form
          className="space-y-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim()) onPublish();
          }}
        >
          <TextAreaField
            label={t('policy.editor_label')}
            hint={t('policy.editor_hint')}
            rows={14}
            maxLength={TIPPING_POLICY_MAX_LENGTH}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            required
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={!draft.trim()}>
              {t('policy.publish')}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setDraft(null)}>
              {t('page.cancel')}
            </Button>
          </div>
        </form>
      ) : null}

      {team.is_admin && current ? (
        <div>
          <h3 className="text-sm font-semibold text-primary-950">{t('policy.readers')}</h3>
          <ul className="mt-2 divide-y divide-slate-100 text-sm" data-testid="tipping-policy-readers">
            {readers.map((reader) => (
              <li key={reader.user_id} className="flex flex-wrap justify-between gap-2 py-2">
                <span className="break-words text-primary-950">{reader.public_name ?? t('page.no_name')}</span>
                <span className={reader.read_at ? 'text-slate-700' : 'text-amber-800'}>
                  {reader.read_at ? day(reader.read_at) : t('policy.not_read')}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
