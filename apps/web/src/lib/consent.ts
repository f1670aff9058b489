import { CONSENT_CHOSEN_COOKIE } from '@tipcard/shared/constants';
import { createStore } from './create-store.ts';
import { deleteCookie, getCookie, setCookie } from './cookies.ts';

/** The spec's local storage keys (spec 3): the functional choice, and the analytics (GDPR) consent. */
export const FUNCTIONAL_KEY = 'Functional:accepted';
export const ANALYTICS_KEY = 'GDPR:accepted';

export interface Consent {
  /** null until the visitor has chosen: the cookie banner shows until then. */
  functional: boolean | null;
  analytics: boolean;
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage blocked by the browser: behave as if nothing was chosen yet.
    return null;
  }
}

function readConsent(): Consent {
  const functional = read(FUNCTIONAL_KEY);
  return { functional: functional === null ? null : functional === 'true', analytics: read(ANALYTICS_KEY) === 'true' };
}

/**
 * The consent_chosen cookie follows whether a choice is stored, so the server renders the landing page with the banner
 * exactly when the app will show it (decision 0052). Strictly necessary: it says that a choice exists, not which.
 * Lax, so that a visitor arriving from another site's link is recognised too.
 */
function markChosen(chosen: boolean): void {
  if (chosen) {
    if (getCookie(CONSENT_CHOSEN_COOKIE) === null) setCookie(CONSENT_CHOSEN_COOKIE, '1', { days: 365, sameSite: 'Lax' });
  } else if (getCookie(CONSENT_CHOSEN_COOKIE) !== null) deleteCookie(CONSENT_CHOSEN_COOKIE);
}

function initialConsent(): Consent {
  if (typeof window === 'undefined') return { functional: null, analytics: false };
  const consent = readConsent();
  // A choice made before the cookie existed, or storage cleared without the cookies: brought in line for the next load.
  markChosen(consent.functional !== null);
  return consent;
}

export const consentStore = createStore<Consent>(initialConsent());

/** Stores both choices (Accept: both true; Reject: both false; the settings modal: what was ticked). */
export function saveConsent(consent: { functional: boolean; analytics: boolean }): void {
  try {
    window.localStorage.setItem(FUNCTIONAL_KEY, String(consent.functional));
    window.localStorage.setItem(ANALYTICS_KEY, String(consent.analytics));
    markChosen(true);
  } catch {
    // Blocked storage: the choice holds for this page view only.
  }
  consentStore.set(consent);
}

/**
 * Whether optional functional storage (the language cookie, the advert's entry) may be written: only once the visitor
 * allowed it. Before any choice the language lives in the URL prefix alone (docs/decisions/0016-four-languages.md).
 */
export function functionalAllowed(): boolean {
  return consentStore.get().functional === true;
}

export function analyticsAllowed(): boolean {
  return consentStore.get().analytics;
}
