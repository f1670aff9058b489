import { ACCESS_TOKEN_COOKIE, REFRESH_TOKEN_COOKIE, REFRESH_TOKEN_TTL_DAYS } from '@tipcard/shared/constants';
import type { Tokens } from '@tipcard/shared/auth/schemas';
import { deleteCookie, getCookie, setCookie } from './cookies.ts';

/**
 * The two tokens live in the cookies the spec names (qtfo__token, refresh__key). The server also sets an HttpOnly
 * refresh__key; when that one shadows ours, the in-memory copy keeps the refresh token usable for this tab.
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
  setCookie(REFRESH_TOKEN_COOKIE, tokens.refresh_token, { days: REFRESH_TOKEN_TTL_DAYS });
  refreshInMemory = tokens.refresh_token;
}

export function clearAccessToken(): void {
  deleteCookie(ACCESS_TOKEN_COOKIE);
}

export function clearTokens(): void {
  deleteCookie(ACCESS_TOKEN_COOKIE);
  deleteCookie(REFRESH_TOKEN_COOKIE);
  refreshInMemory = null;
}
