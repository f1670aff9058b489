import { createStore } from './create-store.ts';

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

export const consentStore = createStore<Consent>(
  typeof window === 'undefined' ? { functional: null, analytics: false } : readConsent(),
);

/** Stores both choices (Accept: both true; Reject: both false; the settings modal: what was ticked). */
export function saveConsent(consent: { functional: boolean; analytics: boolean }): void {
  try {
    window.localStorage.setItem(FUNCTIONAL_KEY, String(consent.functional));
    window.localStorage.setItem(ANALYTICS_KEY, String(consent.analytics));
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
