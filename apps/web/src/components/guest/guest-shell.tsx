import type { ReactNode } from 'react';
import { Lock } from 'lucide-react';
import { Logo } from '../ui/logo.tsx';
import { localizePath } from '../../lib/locale.ts';
import { guestLocale, useGuestT } from '../../lib/guest-i18n.ts';
import { LocaleSelect } from './locale-select.tsx';

/** The guest pages' frame: a light header with the language, one centred column, the legal links. */
export function GuestShell({ children }: { children: ReactNode }) {
  const t = useGuestT();
  const locale = guestLocale();
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-primary-50 via-slate-50 to-slate-50">
      <header className="mx-auto flex w-full max-w-md items-center justify-between gap-3 px-4 pt-2">
        <a
          href="/"
          aria-label="Tipcard"
          className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
        >
          <Logo className="scale-90 origin-left" />
        </a>
        <div className="flex items-center gap-2">
          <span className="hidden items-center gap-1 text-xs font-medium text-slate-500 min-[380px]:inline-flex">
            <Lock className="size-3.5" aria-hidden="true" />
            {t('app.secure')}
          </span>
          <LocaleSelect />
        </div>
      </header>
      <main id="main-content" className="mx-auto w-full max-w-md flex-1 px-4 pb-8 pt-2">
        {children}
      </main>
      <footer className="mx-auto w-full max-w-md px-4 pb-6 text-center text-xs text-slate-500">
        <p>{t('app.footer')}</p>
        <p className="mt-1.5 flex justify-center gap-4">
          <a
            className="underline-offset-2 hover:text-primary-800 hover:underline"
            href={localizePath('/terms', locale)}
            target="_blank"
            rel="noopener"
          >
            {t('app.terms')}
          </a>
          <a
            className="underline-offset-2 hover:text-primary-800 hover:underline"
            href={localizePath('/privacy', locale)}
            target="_blank"
            rel="noopener"
          >
            {t('app.privacy')}
          </a>
        </p>
      </footer>
    </div>
  );
}
