/** The app's catalogs in Spanish: one module, so that the language loads in one request (lib/i18n.ts, decision 0056). */
export default import.meta.glob<Record<string, unknown>>(
  [
    '../../../../../packages/shared/src/i18n/locales/es/*.json',
    '!../../../../../packages/shared/src/i18n/locales/es/{sms,documents,checkout,marketing,legal}.json',
  ],
  { eager: true, import: 'default' },
);
