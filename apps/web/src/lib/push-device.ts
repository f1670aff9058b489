/**
 * This browser's Web Push subscription (decision 0046): what the browser can do, what it holds, and its removal. The
 * server's side (the API calls) is the caller's.
 */

/** Push needs a service worker, the Push API and notifications; iOS has them only in an app added to the Home Screen. */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The installed app's worker registration, or null (not supported, or not registered: the dev server has none). */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  return (await navigator.serviceWorker.getRegistration('/')) ?? null;
}

export async function currentPushSubscription(): Promise<PushSubscription | null> {
  return (await (await registration())?.pushManager.getSubscription()) ?? null;
}

/** Whether this browser can subscribe now: supported and the worker is there. */
export async function canSubscribe(): Promise<boolean> {
  return (await registration()) !== null;
}

function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

/**
 * Subscribes this browser with the server's VAPID key. A subscription made with another key (the server's changed)
 * cannot be reused and is replaced.
 */
export async function subscribeThisBrowser(publicKey: string): Promise<PushSubscription> {
  const worker = await registration();
  if (!worker) throw new Error('no service worker');
  const existing = await worker.pushManager.getSubscription();
  if (existing) await existing.unsubscribe();
  return worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(publicKey) });
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Mac OS X/, 'macOS'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
];

/** A short label of this device for the user's list ("Chrome · Android"), never the whole user-agent string. */
export function deviceLabel(userAgent = navigator.userAgent): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Browser';
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return system ? `${browser} · ${system}` : browser;
}

/**
 * Turns push off on this browser: the server forgets the subscription (`removeFromServer`, best effort: offline, the
 * push service's 410 at the next notice removes it anyway), then the browser drops it.
 */
export async function unsubscribeThisBrowser(removeFromServer: (endpoint: string) => Promise<unknown>): Promise<void> {
  const subscription = await currentPushSubscription();
  if (!subscription) return;
  await removeFromServer(subscription.endpoint).catch(() => undefined);
  await subscription.unsubscribe().catch(() => false);
}
