import { useTranslation } from 'react-i18next';
import { ACCESS_TOKEN_COOKIE, CONSENT_CHOSEN_COOKIE, LOCALE_COOKIE, REFRESH_TOKEN_COOKIE } from '@tipcard/shared/constants';
import { Button } from '../../components/ui/button.tsx';
import { ANALYTICS_KEY, FUNCTIONAL_KEY } from '../../lib/consent.ts';
import { PROMO_SOURCE_KEY } from '../../lib/promo-source.ts';
import { openModal } from '../../lib/ui-store.ts';
import { LegalDocument } from './components/legal-document.tsx';

/** Every cookie and storage entry the site writes, by its real name. */
const ENTRIES = [
  { key: 'access', name: ACCESS_TOKEN_COOKIE, category: 'necessary' },
  { key: 'refresh', name: REFRESH_TOKEN_COOKIE, category: 'necessary' },
  { key: 'locale', name: LOCALE_COOKIE, category: 'functional' },
  { key: 'functional', name: FUNCTIONAL_KEY, category: 'necessary' },
  { key: 'consent', name: CONSENT_CHOSEN_COOKIE, category: 'necessary' },
  { key: 'gdpr', name: ANALYTICS_KEY, category: 'necessary' },
  { key: 'promo', name: PROMO_SOURCE_KEY, category: 'functional' },
] as const;

function CookieTable() {
  const { t } = useTranslation('legal');
  return (
    <div className="mt-8">
      {/* A region that scrolls must be reachable by keyboard and named (axe scrollable-region-focusable). */}
      <div
        role="region"
        aria-label={t('cookies.table_label')}
        tabIndex={0}
        className="overflow-x-auto rounded-2xl ring-1 ring-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
      >
        <table className="w-full min-w-[36rem] text-left text-sm">
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                {t('cookies.table_name')}
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                {t('cookies.table_purpose')}
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                {t('cookies.table_duration')}
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                {t('cookies.table_category')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {ENTRIES.map(({ key, name, category }) => (
              <tr key={key}>
                <th scope="row" className="px-4 py-3 font-mono text-xs font-medium text-primary-950">
                  {name}
                </th>
                <td className="px-4 py-3 text-slate-700">{t(`cookies.entries.${key}.purpose`)}</td>
                <td className="px-4 py-3 text-slate-700">{t(`cookies.entries.${key}.duration`)}</td>
                <td className="px-4 py-3 text-slate-700">{t(`cookies.categories.${category}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Button variant="secondary" className="mt-5" onClick={() => openModal('cookie')}>
        {t('common:footer.cookie_settings')}
      </Button>
    </div>
  );
}

export default function CookiePolicyPage() {
  return (
    <LegalDocument name="cookies">
      <CookieTable />
    </LegalDocument>
  );
}
