/**
 * The advert a visitor came from (`?advert=…`, spec 3 "promo source"), kept for this browser session so that the
 * registration form can send it as `promo_source`. Session storage, not local storage: it is not a lasting
 * identifier, and the spec's local storage keys stay exactly the two consent keys.
 */
export const PROMO_SOURCE_KEY = 'tipcard:promo_source';
export const ADVERT_PARAM = 'advert';
const MAX_LENGTH = 100;

export function storePromoSource(value: string): void {
  try {
    window.sessionStorage.setItem(PROMO_SOURCE_KEY, value.trim().slice(0, MAX_LENGTH));
  } catch {
    // Storage blocked: the registration form still reads the parameter when it is in its own URL.
  }
}

export function readPromoSource(): string | null {
  try {
    return window.sessionStorage.getItem(PROMO_SOURCE_KEY);
  } catch {
    return null;
  }
}

/** The advert parameter of the page the visitor landed on: in the query (`/?advert=x`) or the hash route's query. */
export function advertOfLocation(location: Pick<Location, 'search' | 'hash'>): string | null {
  const fromSearch = new URLSearchParams(location.search).get(ADVERT_PARAM);
  const hashQuery = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?') + 1) : '';
  const value = fromSearch ?? new URLSearchParams(hashQuery).get(ADVERT_PARAM);
  return value?.trim() ? value.trim().slice(0, MAX_LENGTH) : null;
}
