import { useEffect, useState } from 'react';

/**
 * The first view of the app opened on the overview, its installed start (decision 0056): on a weak network what the
 * balances do not need waits until they are on screen, so that it does not share the connection with them: the
 * service worker's install (which downloads the whole app shell) and the live events' stream. Opened on any other
 * page, nothing waits (`firstViewShown` at start); leaving the overview before its balances came ends the wait too.
 */
let shown = false;
let resolveShown!: () => void;
const firstView = new Promise<void>((resolve) => {
  resolveShown = resolve;
});

/** The first view is on screen (or will not be: another page). Only the first call counts. */
export function firstViewShown(): void {
  shown = true;
  resolveShown();
}

/** Runs `run` once the first view is on screen (at once after it). */
export function afterFirstView(run: () => void): void {
  void firstView.then(run);
}

/** Whether the first view is on screen yet; re-renders when it comes. */
export function useFirstViewShown(): boolean {
  const [done, setDone] = useState(shown);
  useEffect(() => {
    if (!done) afterFirstView(() => setDone(true));
  }, [done]);
  return done;
}
