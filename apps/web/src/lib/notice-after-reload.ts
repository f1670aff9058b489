import { showSnackbar, type SnackbarColor } from './ui-store.ts';

const KEY = 'tipcard.notice_after_reload';

/**
 * A message for the page that comes after a full reload (the sign-out after an account's deletion): the reload clears
 * the snackbar, so the message waits in this tab's session storage and the next start shows it once.
 */
export function noticeAfterReload(message: string, color: SnackbarColor): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ message, color }));
  } catch {
    // Storage may be off (private mode): the reload then says nothing.
  }
}

/** Whether a reload was asked to carry a message (the landing's own script then starts the app, which shows it). */
export function noticeIsWaiting(): boolean {
  try {
    return sessionStorage.getItem(KEY) !== null;
  } catch {
    return false;
  }
}

/** Shows the message a reload was asked to carry, once. */
export function showNoticeAfterReload(): void {
  try {
    const saved = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    if (!saved) return;
    const { message, color } = JSON.parse(saved) as { message?: unknown; color?: SnackbarColor };
    if (typeof message === 'string') showSnackbar(message, color ?? 'info');
  } catch {
    // Unreadable: nothing to show.
  }
}
