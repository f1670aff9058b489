import { Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AnimatedOutlet } from '../../components/ui/animated-outlet.tsx';
import { LanguageSwitcher } from '../../components/ui/language-switcher.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { hasSession } from '../../lib/tokens.ts';
import { PageLoader } from '../guards.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SkipLink } from './skip-link.tsx';

/** Pages anyone may open (payment pages later, the error page now): logo, language, content. */
export function PublicLayoutFrame({ children }: { children: ReactNode }) {
  const to = useLocalePath();
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <SkipLink />
      <header className="border-b border-slate-200/70 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
          <Link
            to={to(hasSession() ? '/overview' : '/')}
            aria-label={t('nav.home')}
            className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
          >
            <Logo />
          </Link>
          <LanguageSwitcher />
        </div>
      </header>
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

export function PublicLayout() {
  return (
    <PublicLayoutFrame>
      <Suspense fallback={<PageLoader />}>
        <AnimatedOutlet />
      </Suspense>
    </PublicLayoutFrame>
  );
}
