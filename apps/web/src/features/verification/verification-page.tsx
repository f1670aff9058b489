import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Building2, UserRound } from 'lucide-react';
import type { VerificationKind } from '@tipcard/shared/verification/schemas';
import { cn } from '../../components/ui/cn.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LoadError } from '../../components/ui/list-state.tsx';
import { SkeletonRows } from '../../components/ui/skeleton.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useVerification } from './api/use-verification.ts';
import { StatusCard } from './components/status-card.tsx';
import { CompanyForm, PersonForm } from './components/verification-forms.tsx';

const KINDS: { kind: VerificationKind; icon: typeof UserRound }[] = [
  { kind: 'person', icon: UserRound },
  { kind: 'company', icon: Building2 },
];

/** Person or company: tabs over the two forms (arrow keys move between them). */
function KindTabs({ value, onChange }: { value: VerificationKind; onChange: (kind: VerificationKind) => void }) {
  const { t } = useTranslation('verification');
  const refs = useRef<Partial<Record<VerificationKind, HTMLButtonElement | null>>>({});
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight' && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const next = value === 'person' ? 'company' : 'person';
    const target = event.key === 'Home' ? 'person' : event.key === 'End' ? 'company' : next;
    onChange(target);
    refs.current[target]?.focus();
  };
  return (
    <div>
      <p id="verification-kind-label" className="mb-2 text-sm font-medium text-slate-700">
        {t('kind.label')}
      </p>
      <div
        role="tablist"
        aria-labelledby="verification-kind-label"
        className="grid grid-cols-2 gap-1 rounded-2xl bg-slate-200/60 p-1"
        onKeyDown={onKeyDown}
      >
        {KINDS.map(({ kind, icon: Icon }) => {
          const selected = kind === value;
          return (
            <button
              key={kind}
              ref={(element) => {
                refs.current[kind] = element;
              }}
              type="button"
              role="tab"
              id={`verification-tab-${kind}`}
              aria-selected={selected}
              aria-controls={`verification-panel-${kind}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(kind)}
              className={cn(
                'flex h-11 items-center justify-center gap-2 rounded-xl text-sm font-semibold transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
                selected ? 'bg-white text-primary-900 shadow-sm' : 'text-slate-600 hover:text-primary-900',
              )}
            >
              <Icon className="size-4" aria-hidden="true" />
              {t(`kind.${kind}`)}
            </button>
          );
        })}
      </div>
    </div>
  );
}

export default function VerificationPage() {
  const { t } = useTranslation('verification');
  useDocumentTitle(t('title'));
  const verification = useVerification();
  const [kind, setKind] = useState<VerificationKind | null>(null);
  const data = verification.data;
  const canSubmit = data?.status === 'not_started' || data?.status === 'rejected';
  // After a rejection the form opens on the kind sent last time.
  const shownKind = kind ?? data?.kind ?? 'person';

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('title')} description={t('description')} />
      {verification.isPending ? (
        <SkeletonRows label={t('loading')} rows={4} />
      ) : verification.isError || !data ? (
        <LoadError onRetry={verification.refetch} />
      ) : (
        <div className="space-y-6">
          <StatusCard verification={data} />
          {canSubmit ? (
            <>
              <KindTabs value={shownKind} onChange={setKind} />
              <div role="tabpanel" id={`verification-panel-${shownKind}`} aria-labelledby={`verification-tab-${shownKind}`}>
                {shownKind === 'person' ? (
                  <PersonForm clientId={verification.clientId} />
                ) : (
                  <CompanyForm clientId={verification.clientId} />
                )}
              </div>
            </>
          ) : null}
        </div>
      )}
    </div>
  );
}
