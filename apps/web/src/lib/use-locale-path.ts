import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isLocale } from './i18n.ts';
import { localizePath } from './locale.ts';

/** Builds app paths in the current language: to('/overview') → '/lv/overview' in Latvian. */
export function useLocalePath(): (path: string) => string {
  const { i18n } = useTranslation();
  const locale = isLocale(i18n.language) ? i18n.language : 'en';
  return useCallback((path: string) => localizePath(path, locale), [locale]);
}
