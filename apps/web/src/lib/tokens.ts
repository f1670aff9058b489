import { ACCESS_TOKEN_COOKIE, REFRESH_TOKEN_COOKIE, REFRESH_TOKEN_TTL_DAYS } from '@tipcard/shared/constants';
import type { Tokens } from '@tipcard/shared/auth/schemas';
import { deleteCookie, getCookie, setCookie } from './cookies.ts';
import { clearOfflineCache } from './offline-cache-clear.ts';

/**
 * The access token lives in the cookie the spec names (qtfo__token). The refresh token (refresh__key) is the server's
 * HttpOnly cookie at /api alone, out of reach of page scripts; this tab also keeps the one it was given in memory, for
 * the spec's `refreshToken` body. A script-readable refresh__key at / (written by earlier versions) is still read once,
 * and removed whenever tokens are saved or cleared.
 */
let refreshInMemory: string | null = null;

export function getAccessToken(): string | null {
  return getCookie(ACCESS_TOKEN_COOKIE);
}

export function getRefreshToken(): string | null {
  return getCookie(REFRESH_TOKEN_COOKIE) ?? refreshInMemory;
}

export function hasSession(): boolean {
  return Boolean(getAccessToken() || getRefreshToken());
}

export function saveTokens(tokens: Tokens): void {
  setCookie(ACCESS_TOKEN_COOKIE, tokens.jwt, { days: REFRESH_TOKEN_TTL_DAYS });
  deleteCookie(REFRESH_TOKEN_COOKIE);
  refreshInMemory = tokens.refresh_token;
}

export function clearAccessToken(): void {
  deleteCookie(ACCESS_TOKEN_COOKIE);
}

/** Signed out (or the session ended): the tokens go, and so do the figures kept for offline use (lib/offline-cache.ts). */
export function clearTokens(): void {
  deleteCookie(ACCESS_TOKEN_COOKIE);
  deleteCookie(REFRESH_TOKEN_COOKIE);
  refreshInMemory = null;
  clearOfflineCache();
}
