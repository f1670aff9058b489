import { useTranslation } from 'react-i18next';
import { Mail } from 'lucide-react';
import { SUPPORT_EMAIL } from '../error-page.tsx';
import { cn } from '../../components/ui/cn.ts';

export function SiteFooter({ tone = 'light', wide = false }: { tone?: 'light' | 'dark'; wide?: boolean }) {
  const { t } = useTranslation();
  const dark = tone === 'dark';
  return (
    <footer className={cn('border-t', dark ? 'border-white/10 bg-primary-950 text-white/70' : 'border-slate-200/70 bg-white text-slate-500')}>
      <div className={cn('mx-auto flex flex-col', wide ? 'max-w-7xl' : 'max-w-6xl', 'gap-3 px-4 py-6 text-sm sm:flex-row sm:items-center sm:justify-between sm:px-6')}>
        <p>{t('footer.rights', { year: new Date().getFullYear() })}</p>
        <a
          href={`mailto:${SUPPORT_EMAIL}`}
          className={cn(
            'inline-flex items-center gap-1.5 rounded-md font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
            dark ? 'text-white/85 hover:text-white' : 'text-slate-700 hover:text-primary-800',
          )}
        >
          <Mail className="size-4" aria-hidden="true" />
          {t('footer.support')}: {SUPPORT_EMAIL}
        </a>
      </div>
    </footer>
  );
}
