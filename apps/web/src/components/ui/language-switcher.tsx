import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, ChevronDown, Globe } from 'lucide-react';
import { LOCALES, type Locale } from '@tipcard/shared/constants';
import { currentLocale } from '../../lib/i18n.ts';
import { switchLocale } from '../../lib/locale.ts';
import { cn } from './cn.ts';

/** The desktop dropdown: choosing a language stores it and reloads the page in it. */
export function LanguageSwitcher({ className, tone = 'light' }: { className?: string; tone?: 'light' | 'dark' }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const locale = currentLocale();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    // Spec 9: the dropdown closes on scroll when the window is wider than 800 px.
    const onScroll = () => {
      if (window.innerWidth > 800) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', onScroll);
    };
  }, [open]);

  return (
    <div ref={rootRef} data-language-switcher="" className={cn('relative', className)}>
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`${t('language.label')}: ${t(`language.names.${locale}`)}`}
        onClick={() => setOpen((value) => !value)}
        className={cn(
          'inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-semibold uppercase transition-colors',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
          tone === 'light' ? 'text-slate-700 hover:bg-slate-100' : 'text-white/90 hover:bg-white/10',
        )}
      >
        <Globe className="size-4" aria-hidden="true" />
        {locale}
        <ChevronDown className={cn('size-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>
      {open ? <LanguageMenu id={menuId} onChoose={() => setOpen(false)} /> : null}
    </div>
  );
}

/** The dropdown's list, open; the landing page's server render draws it for its script too (decision 0065). */
export function LanguageMenu({ id, onChoose }: { id?: string; onChoose?: () => void }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  return (
    <ul
      id={id}
      aria-label={t('language.choose')}
      className="absolute right-0 z-40 mt-2 w-44 animate-[menu-in_120ms_ease-out] overflow-hidden rounded-xl bg-white py-1 shadow-lg ring-1 ring-slate-200"
    >
      {LOCALES.map((code) => (
        <li key={code}>
          <LanguageOption code={code} active={code === locale} onChoose={onChoose} />
        </li>
      ))}
    </ul>
  );
}

/** What must be done before the page reloads in the chosen language; a rejection keeps the page as it is. */
type BeforeSwitch = (locale: Locale) => Promise<unknown>;

function LanguageOption({
  code,
  active,
  onChoose,
  beforeSwitch,
}: {
  code: Locale;
  active: boolean;
  onChoose?: (() => void) | undefined;
  beforeSwitch?: BeforeSwitch | undefined;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      lang={code}
      aria-current={active ? 'true' : undefined}
      onClick={() => {
        onChoose?.();
        if (active) return;
        if (!beforeSwitch) switchLocale(code);
        else
          beforeSwitch(code).then(
            () => switchLocale(code),
            () => undefined,
          );
      }}
      className={cn(
        'flex w-full items-center justify-between gap-2 px-3.5 py-2.5 text-left text-sm focus-visible:bg-primary-50 focus-visible:outline-none',
        active ? 'font-semibold text-primary-900' : 'text-slate-700 hover:bg-slate-50',
      )}
    >
      {t(`language.names.${code}`)}
      {active ? <Check className="size-4 text-primary-700" aria-hidden="true" /> : null}
    </button>
  );
}

/** The mobile menu's list of languages; Settings' too, which stores the choice first (`beforeSwitch`). */
export function LanguageList({ className, beforeSwitch }: { className?: string; beforeSwitch?: BeforeSwitch }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  return (
    <div className={className}>
      <p className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{t('language.label')}</p>
      <ul className="grid grid-cols-2 gap-1">
        {LOCALES.map((code) => (
          <li key={code}>
            <LanguageOption code={code} active={code === locale} beforeSwitch={beforeSwitch} />
          </li>
        ))}
      </ul>
    </div>
  );
}
