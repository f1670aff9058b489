import i18next from 'i18next';
import common from '../../../../packages/shared/src/i18n/locales/en/common.json';

/**
 * The back office is English only, but the app's widgets it shares (a list's load error and its "Try again", a
 * dialog's close button) speak through react-i18next's `common` namespace. This instance holds just the English
 * `common` catalog (a few KB), so those widgets read as in the app without lib/i18n.ts and its catalogs.
 */
export const opsI18n = i18next.createInstance();

void opsI18n.init({
  resources: { en: { common } },
  lng: 'en',
  fallbackLng: 'en',
  ns: ['common'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
