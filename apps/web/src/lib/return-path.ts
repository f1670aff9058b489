const KEY = 'tipcard.return_path';

/**
 * A page that sends a signed-out visitor through sign-up or log-in (the team invite link) remembers where to come
 * back; signing in takes it once. Session storage: it belongs to this tab and this visit only.
 */
export function rememberReturnPath(path: string): void {
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    // Storage may be off (private mode): the visitor lands on overview instead.
  }
}

export function takeReturnPath(): string | null {
  try {
    const path = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    // Only a path inside the app: never an address elsewhere.
    return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
  } catch {
    return null;
  }
}
