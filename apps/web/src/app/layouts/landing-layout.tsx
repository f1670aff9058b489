import { Suspense, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Menu } from 'lucide-react';
import { AnimatedOutlet } from '../../components/ui/animated-outlet.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Drawer } from '../../components/ui/drawer.tsx';
import { LanguageList, LanguageSwitcher } from '../../components/ui/language-switcher.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import { SocialLinks } from '../../components/ui/social-links.tsx';
import { stripLocale } from '../../lib/locale.ts';
import { hasSession } from '../../lib/tokens.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { PageLoader } from '../guards.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SkipLink } from './skip-link.tsx';

/** The header's links to the public information pages (spec 2 "Landing header"). */
function useSiteNav() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return [
    { to: to('/how-it-works'), label: t('nav.how_it_works') },
    { to: to('/about'), label: t('nav.about') },
    { to: to('/faq'), label: t('nav.faq') },
  ];
}

/** Log in on every page but the login page, where it becomes registration; a signed-in visitor goes to overview. */
function AuthToggle({ dark, path, block }: { dark?: boolean; path: string; block?: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const variant = dark ? 'light' : 'primary';
  if (hasSession()) {
    return (
      <ButtonLink to={to('/overview')} size="sm" variant={variant} block={block}>
        {t('nav.overview')}
      </ButtonLink>
    );
  }
  return path === '/login' ? (
    <ButtonLink to={to('/registration')} size="sm" variant={variant} block={block}>
      {t('actions.sign_up')}
    </ButtonLink>
  ) : (
    <ButtonLink to={to('/login')} size="sm" variant={variant} block={block}>
      {t('actions.log_in')}
    </ButtonLink>
  );
}

/**
 * The landing header: logo, how it works, about, FAQ, social icons, language, and a button toggling between log in
 * and registration. On phones the links, the language list and the social icons move into a menu.
 */
export function LandingHeader({ dark }: { dark?: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const location = useLocation();
  const path = stripLocale(location.pathname);
  const nav = useSiteNav();
  // The menu belongs to the page it was opened on: it closes by itself on route change.
  const [menuPath, setMenuPath] = useState<string | null>(null);
  const menuOpen = menuPath === location.pathname;
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      'rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
      dark
        ? isActive
          ? 'text-white'
          : 'text-white/75 hover:text-white'
        : isActive
          ? 'text-primary-900'
          : 'text-slate-700 hover:text-primary-900',
    );
  return (
    <header className={cn(dark ? 'bg-primary-950 text-white' : 'border-b border-slate-200/70 bg-white/90 backdrop-blur')}>
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-1 px-4 sm:gap-2 sm:px-6">
        <Link
          to={to('/')}
          aria-label={t('nav.home')}
          className="mr-auto rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
        >
          <Logo inverted={dark} compact />
        </Link>
        <nav aria-label={t('nav.site')} className="hidden md:block">
          <ul className="flex items-center">
            {nav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={linkClass}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <SocialLinks tone={dark ? 'dark' : 'light'} className="hidden lg:flex" />
        <LanguageSwitcher tone={dark ? 'dark' : 'light'} />
        <AuthToggle dark={dark} path={path} />
        <button
          type="button"
          onClick={() => setMenuPath(location.pathname)}
          aria-expanded={menuOpen}
          data-site-menu-button=""
          className={cn(
            '-mr-2 rounded-lg p-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 md:hidden',
            dark ? 'text-white/90 hover:bg-white/10' : 'text-slate-700 hover:bg-slate-100',
          )}
        >
          <Menu className="size-6" aria-hidden="true" />
          <span className="sr-only">{t('nav.open_menu')}</span>
        </button>
      </div>
      <SiteMenu open={menuOpen} onClose={() => setMenuPath(null)} path={path} />
    </header>
  );
}

/**
 * The header's menu on phones: the site's links, the languages, the social icons and log in. The landing page's server
 * render draws it open for its script too (decision 0065).
 */
export function SiteMenu({ open, onClose, path }: { open: boolean; onClose: () => void; path: string }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const nav = useSiteNav();
  return (
    <Drawer open={open} onClose={onClose} label={t('nav.menu')}>
      <nav aria-label={t('nav.site')} className="flex-1 overflow-y-auto p-4">
        <ul className="space-y-1">
          {[...nav, { to: to('/contacts'), label: t('nav.contacts') }].map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                onClick={onClose}
                className={({ isActive }) =>
                  cn(
                    'block rounded-xl px-3 py-2.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
                    isActive ? 'bg-primary-900 text-white' : 'text-slate-700 hover:bg-slate-100',
                  )
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <LanguageList className="mt-8 border-t border-slate-100 pt-6" />
        <SocialLinks tone="light" className="mt-6 border-t border-slate-100 pt-4" />
      </nav>
      <div className="border-t border-slate-100 p-4">
        <AuthToggle path={path} block />
      </div>
    </Drawer>
  );
}

export function LandingLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <LandingHeader dark />
      {/* The footer waits with the page: shown under a loader it would jump down when the page arrives (layout shift). */}
      <Suspense
        fallback={
          <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
            <PageLoader />
          </main>
        }
      >
        <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
          <AnimatedOutlet />
        </main>
        <SiteFooter tone="dark" />
      </Suspense>
    </div>
  );
}
