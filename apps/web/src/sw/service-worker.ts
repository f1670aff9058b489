/**
 * The installed app's service worker (decision 0046), built by Vite into `dist/sw.js` (vite.config.ts, `serviceWorker`)
 * with the app shell's file list put in place of `__PRECACHE__`. It imports nothing, so the build is one classic script.
 *
 * - The app shell (index.html and every script, style and icon the signed-in app loads) is cached at install and served
 *   from the cache; a new build is a new sw.js (its list changes), which installs beside the old and takes over.
 * - A page opened offline gets the cached index.html; the API is never cached here: the last balances a signed-in user
 *   saw are kept by the app itself, under that user (lib/offline-cache.ts), and removed on sign-out.
 * - A push shows its notice; a tap focuses the app (or opens it) on the notice's page.
 */

// The few service-worker types used (the web app compiles against the DOM library, not WebWorker's).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification & { data: unknown };
}
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface ServiceWorkerScope {
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

const worker = self as unknown as ServiceWorkerScope;

/** Replaced at build time by the shell's URLs and a version that changes with them. */
declare const __PRECACHE__: { version: string; urls: string[] };
const SHELL_CACHE = `tipcard-shell-${__PRECACHE__.version}`;
const SHELL_URLS = new Set(__PRECACHE__.urls);
/** The documents of the signed-in app (hash routing: the language is the only path); others are not the app's shell. */
const APP_DOCUMENTS = new Set(['/', '/index.html', '/lv', '/fr', '/es']);

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll([...SHELL_URLS]))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name.startsWith('tipcard-shell-') && name !== SHELL_CACHE).map((name) => caches.delete(name)),
        ),
      )
      // The page that registered this worker is controlled at once: it works offline from its first visit.
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    if (!APP_DOCUMENTS.has(url.pathname)) return;
    // The network's page first (the server puts the language's head in it); the cached shell when there is none.
    event.respondWith(
      fetch(request).catch(async () => (await caches.match('/index.html', { cacheName: SHELL_CACHE })) ?? Response.error()),
    );
    return;
  }
  if (SHELL_URLS.has(url.pathname)) {
    event.respondWith(caches.match(url.pathname, { cacheName: SHELL_CACHE }).then((cached) => cached ?? fetch(request)));
  }
});

/** What the server pushes (`pushPayloadSchema` in @tipcard/shared/push/schemas), checked by hand: no imports here. */
function payloadOf(event: PushEvent): { title: string; body: string; url: string; tag: string } | null {
  try {
    const value = event.data?.json() as Record<string, unknown> | undefined;
    const { title, body, url, tag } = value ?? {};
    if (typeof title !== 'string' || typeof body !== 'string' || typeof url !== 'string' || typeof tag !== 'string') return null;
    return { title, body, tag, url: url.startsWith('/') ? url : '/' };
  } catch {
    return null;
  }
}

worker.addEventListener('push', (event) => {
  const payload = payloadOf(event);
  // A push without a readable notice shows nothing: the server sends only notices.
  if (!payload) return;
  event.waitUntil(
    worker.registration.showNotification(payload.title, {
      body: payload.body,
      tag: payload.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: payload.url },
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data as { url?: string } | null)?.url ?? '/';
  const target = new URL(path, worker.location.origin).href;
  event.waitUntil(
    worker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((client) => new URL(client.url).origin === worker.location.origin);
      if (!open) return void (await worker.clients.openWindow(target));
      await open.focus();
      // Only a page this worker controls can be sent elsewhere; another stays where it is, in front.
      await open.navigate(target).catch(() => null);
    }),
  );
});
