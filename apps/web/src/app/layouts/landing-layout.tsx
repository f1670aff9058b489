import { Suspense } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AnimatedOutlet } from '../../components/ui/animated-outlet.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { LanguageSwitcher } from '../../components/ui/language-switcher.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import { stripLocale } from '../../lib/locale.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { PageLoader } from '../guards.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SkipLink } from './skip-link.tsx';

/** The landing header: logo, how it works, language, and a button toggling between log in and registration. */
export function LandingHeader({ dark }: { dark?: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const path = stripLocale(useLocation().pathname);
  const onLogin = path === '/login';
  return (
    <header className={cn(dark ? 'bg-primary-950 text-white' : 'border-b border-slate-200/70 bg-white/90 backdrop-blur')}>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
        <Link to={to('/')} aria-label={t('nav.home')} className="mr-auto rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400">
          <Logo inverted={dark} />
        </Link>
        {path === '/' ? (
          <a
            href="#how-it-works"
            onClick={(event) => {
              event.preventDefault();
              document.getElementById('how-it-works')?.scrollIntoView({ behavior: 'smooth' });
            }}
            className={cn(
              'hidden rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 sm:block',
              dark ? 'text-white/80 hover:text-white' : 'text-slate-700 hover:text-primary-900',
            )}
          >
            {t('nav.how_it_works')}
          </a>
        ) : null}
        <LanguageSwitcher tone={dark ? 'dark' : 'light'} />
        {onLogin ? (
          <ButtonLink to={to('/registration')} size="sm" variant={dark ? 'light' : 'primary'}>
            {t('actions.sign_up')}
          </ButtonLink>
        ) : (
          <ButtonLink to={to('/login')} size="sm" variant={dark ? 'light' : 'primary'}>
            {t('actions.log_in')}
          </ButtonLink>
        )}
      </div>
    </header>
  );
}

export function LandingLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <LandingHeader dark />
      <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={<PageLoader />}>
          <AnimatedOutlet />
        </Suspense>
      </main>
      <SiteFooter tone="dark" />
    </div>
  );
}
