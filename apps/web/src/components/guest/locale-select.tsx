import { useId } from 'react';
import { ChevronDown, Globe } from 'lucide-react';
import { LOCALES, type Locale } from '@tipcard/shared/constants';
import { isLocale } from '../../lib/is-locale.ts';
import { guestLocale, setGuestLocale, useGuestT } from '../../lib/guest-i18n.ts';

/**
 * A compact language switcher: a native select (the phone's own picker, keyboard and screen reader support, no menu
 * code to ship) laid transparently over a small "EN" pill, so the closed control stays narrow.
 */
export function LocaleSelect() {
  const t = useGuestT();
  const id = useId();
  const locale = guestLocale();
  return (
    <div className="relative inline-flex h-10 items-center gap-1 rounded-full border border-slate-200 bg-white pl-2.5 pr-2 text-sm font-semibold uppercase text-slate-700 shadow-xs focus-within:ring-2 focus-within:ring-accent-400 hover:border-slate-300">
      <Globe className="size-4 text-slate-500" aria-hidden="true" />
      <span aria-hidden="true">{locale}</span>
      <ChevronDown className="size-4 text-slate-400" aria-hidden="true" />
      <label htmlFor={id} className="sr-only">
        {t('common:language.label')}
      </label>
      <select
        id={id}
        value={locale}
        onChange={(event) => {
          if (isLocale(event.target.value)) setGuestLocale(event.target.value as Locale, true);
        }}
        className="absolute inset-0 size-full cursor-pointer appearance-none opacity-0"
      >
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {t(`common:language.names.${code}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
