import { afterFirstView } from './first-view.ts';

/**
 * Registers the installed app's service worker (decision 0046, `src/sw/service-worker.ts`) in a built app: it caches
 * the app shell, so the signed-in app opens offline, and shows push notices. The dev server has no `/sw.js`.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  // After the page's own loading and its first view (the overview's balances, lib/first-view.ts), so that the shell's
  // download does not compete with them; a page whose script started after its first paint (the landing page) may
  // already be loaded.
  const afterLoad = () => afterFirstView(register);
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}
