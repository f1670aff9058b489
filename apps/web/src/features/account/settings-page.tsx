import { Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronRight, Globe, Landmark, UserRound, type LucideIcon } from 'lucide-react';
import { LanguageList } from '../../components/ui/language-switcher.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { DataPanel, DeletePanel, NotificationsPanel, PhonePanel } from './components/account-panels.tsx';
import { PushPanel } from './components/push-panel.tsx';
import { useSaveLanguage } from './api/use-account.ts';

function SettingsLink({ to, icon: Icon, title, text }: { to: string; icon: LucideIcon; title: string; text: ReactNode }) {
  return (
    <Link
      to={to}
      className="group flex items-center gap-4 px-5 py-4 transition-colors hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-accent-400 sm:px-6"
    >
      <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-primary-50 text-primary-700" aria-hidden="true">
        <Icon className="size-5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-semibold text-slate-900">{title}</span>
        <span className="block text-sm text-slate-600">{text}</span>
      </span>
      <ChevronRight
        className="size-5 shrink-0 text-slate-400 transition-transform group-hover:translate-x-0.5"
        aria-hidden="true"
      />
    </Link>
  );
}

/** `payoutAccount`: the line about the payout account, which the payouts feature renders (the app passes it in). */
export default function SettingsPage({ payoutAccount }: { payoutAccount: ReactNode }) {
  const { t } = useTranslation('settings');
  const to = useLocalePath();
  const { card, me, clientId } = useMyCard();
  const saveLanguage = useSaveLanguage(clientId);
  useDocumentTitle(t('title'));

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('title')} description={t('description')} />
      <section className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/70" aria-label={t('sections')}>
        <ul className="divide-y divide-slate-100">
          <li>
            <SettingsLink
              to={to('/settings/payout')}
              icon={Landmark}
              title={t('payout.title')}
              text={<Suspense fallback={t('payout.loading')}>{payoutAccount}</Suspense>}
            />
          </li>
          {card ? (
            <li>
              <SettingsLink to={to('/account/edit')} icon={UserRound} title={t('profile.title')} text={t('profile.text')} />
            </li>
          ) : null}
        </ul>
      </section>
      <Panel className="mt-5">
        <div className="flex items-center gap-3">
          <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-primary-50 text-primary-700" aria-hidden="true">
            <Globe className="size-5" />
          </span>
          <div>
            <h2 className="font-semibold text-slate-900">{t('language.title')}</h2>
            <p className="text-sm text-slate-600">{t('language.text')}</p>
          </div>
        </div>
        <LanguageList
          className="mt-4 sm:pl-11 [&>p]:sr-only"
          beforeSwitch={clientId ? (language) => saveLanguage.mutateAsync(language) : undefined}
        />
      </Panel>
      {me ? <PhonePanel phone={me.phone} /> : null}
      <NotificationsPanel clientId={clientId} />
      <PushPanel clientId={clientId} />
      <DataPanel clientId={clientId} />
      <DeletePanel clientId={clientId} />
    </div>
  );
}
