export const LOCALES = ['en', 'lv', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
/** The pseudo-locale's code, for development and tests only (i18n/pseudo.ts, decision 0035): never one of LOCALES. */
export const PSEUDO_LANGUAGE = 'pseudo';

/** Cookie names fixed by the spec (section 9). */
export const ACCESS_TOKEN_COOKIE = 'qtfo__token';
export const REFRESH_TOKEN_COOKIE = 'refresh__key';
export const LOCALE_COOKIE = 'locale';
export const LOCALE_COOKIE_DAYS = 365;
/**
 * Set once the visitor has made their cookie choice (whatever it is; the choice itself stays in local storage, spec
 * 3), so that the server leaves the cookie banner out of the landing page it renders (decision 0052).
 */
export const CONSENT_CHOSEN_COOKIE = 'consent_chosen';

export const ACTIVITY_TYPES = [
  'WAITER',
  'HOUSEMAID',
  'BEAUTY_INDUSTRY',
  'DISTRIBUTION',
  'OTHER',
  'DONATION',
  'PRODUCTS_AND_SERVICES',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const OTP_LENGTH = 6;
export const OTP_TTL_SECONDS = 5 * 60;
export const OTP_RESEND_WAIT_SECONDS = 60;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_DAILY_SEND_CAP = 5;

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_DAYS = 30;

export const MINIMUM_AGE = 16;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const CURRENCY = 'EUR';

/** A deleted account can be restored for this long; then its personal data is erased (DESIGN "Account deletion"). */
export const ACCOUNT_RESTORE_DAYS = 30;
