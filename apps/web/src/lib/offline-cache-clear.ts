/**
 * Where offline-cache.ts keeps a user's last figures, and their removal on sign-out: apart from it, so that the
 * session's cookies (tokens.ts) load without the query library it works with (the landing page's script reads them).
 */
export const OFFLINE_CACHE_PREFIX = 'tipcard:offline:';

/** Sign-out: every user's kept figures leave this device. */
export function clearOfflineCache(): void {
  for (const key of Object.keys(localStorage)) if (key.startsWith(OFFLINE_CACHE_PREFIX)) localStorage.removeItem(key);
}
