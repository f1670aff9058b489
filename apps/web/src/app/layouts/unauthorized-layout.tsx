import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { BadgeCheck, Clock3, Smartphone } from 'lucide-react';
import { AnimatedOutlet } from '../../components/ui/animated-outlet.tsx';
import { PageLoader } from '../guards.tsx';
import { LandingHeader } from './landing-layout.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SkipLink } from './skip-link.tsx';

/** Login and registration: the form, with the service's promises beside it on wide screens. */
export function UnauthorizedLayout() {
  const { t } = useTranslation();
  const points = [
    { icon: Smartphone, text: t('auth_aside.point_one') },
    { icon: Clock3, text: t('auth_aside.point_two') },
    { icon: BadgeCheck, text: t('auth_aside.point_three') },
  ];
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <SkipLink />
      <LandingHeader />
      <div className="flex flex-1">
        <aside className="relative hidden w-[42%] max-w-xl overflow-hidden bg-primary-950 px-12 py-16 text-white lg:flex lg:flex-col lg:justify-center">
          <div
            className="pointer-events-none absolute inset-0 bg-[radial-gradient(40rem_24rem_at_100%_0%,rgba(45,212,191,0.16),transparent)]"
            aria-hidden="true"
          />
          <div className="relative">
            <h2 className="text-3xl font-bold leading-tight tracking-tight">{t('auth_aside.title')}</h2>
            <ul className="mt-8 space-y-5">
              {points.map(({ icon: Icon, text }) => (
                <li key={text} className="flex items-start gap-3 text-white/80">
                  <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-white/10 text-accent-300">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <span className="pt-1.5">{text}</span>
                </li>
              ))}
            </ul>
          </div>
        </aside>
        <main
          id="main-content"
          tabIndex={-1}
          className="flex flex-1 justify-center px-4 py-8 focus:outline-none sm:items-center sm:py-14"
        >
          <Suspense fallback={<PageLoader />}>
            <AnimatedOutlet className="w-full max-w-md" />
          </Suspense>
        </main>
      </div>
      <SiteFooter />
    </div>
  );
}
