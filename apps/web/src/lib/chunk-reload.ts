import { lazy, type ComponentType } from 'react';
import { reportError } from './error-reporting.ts';

export const CHUNK_RELOAD_KEY = 'chunk-reload-at';
export const CHUNK_RELOAD_INTERVAL_MS = 60_000;

/**
 * After a deploy an old page may ask for chunks that no longer exist. Reload once to get the new build, but at
 * most once per 60 s (timestamp in sessionStorage) so a real outage cannot cause a reload loop.
 */
export function reloadForFailedChunk(
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  reload: () => void = () => window.location.reload(),
  now: number = Date.now(),
): boolean {
  const last = Number(storage.getItem(CHUNK_RELOAD_KEY) ?? 0);
  if (Number.isFinite(last) && now - last < CHUNK_RELOAD_INTERVAL_MS) return false;
  storage.setItem(CHUNK_RELOAD_KEY, String(now));
  reload();
  return true;
}

/** A dynamic import with the reload guard: a failed import reloads the page (at most once a minute). */
export async function importWithReload<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (reloadForFailedChunk()) return new Promise<T>(() => {});
    // Reloading did not help (or just happened): a real outage or a broken deploy, worth a report.
    reportError(error, 'chunk_load');
    throw error;
  }
}

/** React.lazy with the reload guard. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyWithReload<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(() => importWithReload(load));
}

/** Vite reports failed preloads with this event; handle them with the same guard. */
export function installChunkReloadGuard(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForFailedChunk()) event.preventDefault();
    else reportError(event.payload, 'chunk_preload');
  });
}
