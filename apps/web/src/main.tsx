import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
// From react-router/dom: the one that can commit a navigation at once (`flushSync`), as signing out does.
import { RouterProvider } from 'react-router/dom';
import './index.css';
import { createQueryClient, Providers } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';
import { setSignedOutHandler } from './lib/api-client.ts';
import { installChunkReloadGuard } from './lib/chunk-reload.ts';
import { installErrorReporting } from './lib/error-reporting.ts';
import { currentLocale, i18n, loadLocale } from './lib/i18n.ts';
import { localeOfHash, localizePath, preferredLocale, stripLocale } from './lib/locale.ts';
import { rememberReturnPath } from './lib/return-path.ts';
import { showNoticeAfterReload } from './lib/notice-after-reload.ts';
import { pathFormOf } from './lib/path-form.ts';
import { pseudoLocaleRequested, switchToPseudoLocale } from './lib/pseudo-locale.ts';
import { persistOfflineCache, restoreOfflineCache } from './lib/offline-cache.ts';
import { registerServiceWorker } from './lib/service-worker.ts';
import { firstViewShown } from './lib/first-view.ts';
import { hasSession } from './lib/tokens.ts';

installErrorReporting();
installChunkReloadGuard();

// Old links and printed QR codes in hash form (`/#/payment/{id}`): the guest's pages live at their path form.
const pathForm = pathFormOf(window.location.hash);
if (pathForm) window.location.replace(pathForm);

// The server answers path forms (/about, /lv/faq) with the app and that page's head; continue on its hash route.
if (window.location.pathname !== '/' && !window.location.hash) {
  window.history.replaceState(null, '', `/#${window.location.pathname}${window.location.search}`);
}

// The URL prefix decides the language when present; otherwise the stored choice or the browser's.
const initialLocale = localeOfHash(window.location.hash) ?? preferredLocale();
document.documentElement.lang = initialLocale;

// Opened on the overview (the installed app's start; home, signed in, leads there too), the service worker and the
// live events wait for its balances (lib/first-view.ts).
const startPath = stripLocale(window.location.hash.slice(1).split('?')[0] ?? '');
if (startPath !== '/overview' && !(startPath === '/' && hasSession())) firstViewShown();

const queryClient = createQueryClient();
// The installed app opened offline shows the user's last figures (decision 0046).
restoreOfflineCache(queryClient);
persistOfflineCache(queryClient);
registerServiceWorker();
const router = createAppRouter();

// A session that ended under the user (the refresh was refused): the log-in form, and back to this page after it.
setSignedOutHandler(() => {
  queryClient.clear();
  const { pathname, search } = router.state.location;
  rememberReturnPath(`${stripLocale(pathname)}${search}`);
  void router.navigate(localizePath('/login', currentLocale()), { replace: true, flushSync: true });
});

// The first render waits for the language's catalogs (English is bundled); if they fail to load, English shows. A
// developer's or test's pseudo-locale replaces English where the server has it (lib/pseudo-locale.ts).
void loadLocale(initialLocale)
  .catch(() => undefined)
  .then(() => i18n.changeLanguage(initialLocale))
  .then(() => (pseudoLocaleRequested() && !localeOfHash(window.location.hash) ? switchToPseudoLocale(i18n) : false))
  .then(() => {
    showNoticeAfterReload();
    const container = document.getElementById('root')!;
    const root = createRoot(container);
    const app = (
      <StrictMode>
        <Providers queryClient={queryClient}>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>
    );
    // Over markup the server rendered (the landing page) nobody waits for this render: as a transition React yields
    // to the browser between components instead of holding the main thread in one long task (bench:web, TBT).
    if (container.hasChildNodes()) startTransition(() => root.render(app));
    else root.render(app);
  });
