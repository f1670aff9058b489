import { dehydrate, hydrate, onlineManager, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { ACCESS_TOKEN_COOKIE } from '@tipcard/shared/constants';
import { isUuid } from '@tipcard/shared/uuid';
import { getCookie } from './cookies.ts';
import { OFFLINE_CACHE_PREFIX as PREFIX } from './offline-cache-clear.ts';

/**
 * The last figures a signed-in user saw, kept on the device so the installed app opened offline shows them (decision
 * 0046): only the queries of the overview and of the session guard, stored under the user the access token names, and
 * removed on sign-out (`clearTokens`). Nothing of another user is ever read back: the key is the token's user.
 */
/** The first element of the query keys kept: the session guard's (me, cards) and the overview's (balances, overview). */
const KEPT = new Set(['me', 'cards', 'balances', 'overview']);
const SAVE_AFTER_MS = 200;

/** The user id an access token names (its `sub`), read without checking it: it only picks a storage key. */
function signedInUser(): string | null {
  const token = getCookie(ACCESS_TOKEN_COOKIE);
  try {
    const sub = (JSON.parse(atob(token!.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown }).sub;
    return typeof sub === 'string' && isUuid(sub) ? sub : null;
  } catch {
    return null;
  }
}

/**
 * Opened offline, the app starts from the user's last figures (with the times they were fetched, which the overview
 * shows); online it fetches as always, so a stale figure never stands in for a reachable one.
 */
export function restoreOfflineCache(queryClient: QueryClient): void {
  // TanStack Query takes itself for online until an `offline` event: opened offline, queries would run and fail (the
  // error page) instead of waiting, paused, for the network with the figures kept here.
  onlineManager.setOnline(navigator.onLine);
  if (navigator.onLine) return;
  const user = signedInUser();
  const saved = user ? localStorage.getItem(PREFIX + user) : null;
  if (!saved) return;
  try {
    hydrate(queryClient, JSON.parse(saved) as DehydratedState);
  } catch {
    localStorage.removeItem(PREFIX + user);
  }
}

/** Keeps the kept queries' last successful answers under the signed-in user, a moment after each one arrives. */
export function persistOfflineCache(queryClient: QueryClient): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    timer = undefined;
    const user = signedInUser();
    if (!user) return;
    const state = dehydrate(queryClient, {
      shouldDehydrateQuery: (query) => KEPT.has(String(query.queryKey[0])) && query.state.status === 'success',
    });
    try {
      localStorage.setItem(PREFIX + user, JSON.stringify(state));
    } catch {
      // Storage full or refused (private mode): the app simply has no offline figures.
    }
  };
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || !KEPT.has(String(event.query.queryKey[0]))) return;
    timer ??= setTimeout(save, SAVE_AFTER_MS);
  });
}
