/**
 * The landing page's script (decision 0065). The page is the server's markup (landing-server.tsx); this makes its few
 * controls work without the app: the cookie banner with its settings and what consent allows (analytics), the language
 * list, the phone menu and the skip link. Whatever it opens (the menu, the list, the settings, their confirmation) the
 * server drew with the app's own components into <template>s: this script only shows, fills and hides that markup.
 * The app itself loads when the visitor goes into it: a link to one of its pages, a hash route, a session (the app
 * goes on to the overview), a message a reload carries, or the pseudo-locale, which only the app draws. Plain DOM, not a component library: the
 * markup is the server's already, and the page's script stays a few kilobytes.
 */
import { DEFAULT_LOCALE } from '@tipcard/shared/constants';
import { consentStore, saveConsent, type Consent } from './lib/consent.ts';
import { isLocale } from './lib/is-locale.ts';
import { localizePath, rememberLocale } from './lib/locale.ts';
import { noticeIsWaiting } from './lib/notice-after-reload.ts';
import { pseudoLocaleRequested } from './lib/pseudo-locale.ts';
import { hasSession } from './lib/tokens.ts';
import { SNACKBAR_DURATION_MS } from './lib/ui-store.ts';
import { countAdVisitIfAllowed, countPageView, keepAdvertIfAllowed } from './features/cookies/analytics.ts';
import { reserveRoomBelowPage } from './features/cookies/banner-room.ts';

const root = document.getElementById('root')!;
const pageLocale = isLocale(document.documentElement.lang) ? document.documentElement.lang : DEFAULT_LOCALE;
/** The landing's route as the app names it (`/`, `/lv`, …): what its page views count. */
const landingPath = localizePath('/', pageLocale);
/** The app's entry, as the page's boot script names it (web-shell `bootAfterPaint`). */
const appEntry = document.querySelector<HTMLScriptElement>('script[data-entry]')?.dataset.entry;
/** Every listener of this script: removed when the app takes the page over. */
const listening = new AbortController();
const { signal } = listening;

/** The same test as the boot script's: a hash that names a page (`#/faq`, `#/lv`), not the skip link's `#main-content`. */
const namesAppPage = (hash: string) => /^#\/./.test(hash);

/** A fresh copy of a part the server drew for this script (landing-server.tsx `IslandParts`). */
function part(name: string): HTMLElement {
  const template = root.querySelector<HTMLTemplateElement>(`template[data-landing-part="${name}"]`)!;
  return template.content.firstElementChild!.cloneNode(true) as HTMLElement;
}

function startApp(): void {
  if (listening.signal.aborted || !appEntry) return;
  closeLanguages();
  closeSiteMenu();
  closeSettings();
  // The room below the page stays for the app's banner, which keeps it from then on.
  stopBannerRoom?.();
  listening.abort();
  void import(/* @vite-ignore */ appEntry);
}

// The cookie banner, drawn by the server until the visitor has chosen (decision 0052).
const banner = root.querySelector<HTMLElement>('[data-cookie-banner]');
let stopBannerRoom = banner ? reserveRoomBelowPage(banner) : undefined;

function followConsent(previous: Consent): void {
  const consent = consentStore.get();
  if (consent.functional !== null && banner?.isConnected) {
    stopBannerRoom?.();
    stopBannerRoom = undefined;
    banner.remove();
    document.body.style.paddingBottom = '';
  }
  // As the app's CookieConsent does on a route (features/cookies/analytics.ts).
  if (consent.functional !== previous.functional) keepAdvertIfAllowed();
  if (consent.analytics !== previous.analytics) {
    countAdVisitIfAllowed(landingPath, pageLocale);
    if (consent.analytics) countPageView(landingPath, pageLocale);
  }
}

// The cookie settings: the app's dialog, opened on the native <dialog> as components/ui/dialog.tsx does.
let settings: HTMLDialogElement | null = null;

function closeSettings(): void {
  settings?.close();
  settings?.remove();
  settings = null;
}

function openSettings(): void {
  closeSettings();
  const dialog = part('cookie-settings') as HTMLDialogElement;
  // The switches start from what is stored at this moment; nothing is ticked before the visitor chooses.
  const { functional, analytics } = consentStore.get();
  dialog.querySelector<HTMLInputElement>('#cookie-functional')!.checked = functional ?? false;
  dialog.querySelector<HTMLInputElement>('#cookie-analytics')!.checked = analytics;
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    closeSettings();
  });
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) closeSettings();
  });
  root.append(dialog);
  settings = dialog;
  dialog.showModal();
}

function saveSettings(choice: { functional: boolean; analytics: boolean }): void {
  saveConsent(choice);
  closeSettings();
  showSaved();
}

// The confirmation, in the snackbar's live region the server drew empty (components/ui/snackbar.tsx).
let savedTimer: ReturnType<typeof setTimeout> | undefined;

function showSaved(): void {
  const region = root.querySelector('[data-snackbar-region]');
  if (!region) return;
  region.replaceChildren(part('cookie-saved'));
  clearTimeout(savedTimer);
  savedTimer = setTimeout(() => region.replaceChildren(), SNACKBAR_DURATION_MS.success);
}

// The header's language list (components/ui/language-switcher.tsx).
const switcher = root.querySelector<HTMLElement>('header [data-language-switcher]');
const switcherButton = switcher?.querySelector<HTMLButtonElement>('button');
let languages: HTMLElement | null = null;

function openLanguages(): void {
  if (!switcher || !switcherButton) return;
  languages = part('languages');
  languages.id = switcherButton.getAttribute('aria-controls') ?? '';
  switcher.append(languages);
  switcherButton.setAttribute('aria-expanded', 'true');
  switcherButton.querySelector('svg:last-of-type')?.classList.add('rotate-180');
}

function closeLanguages(): void {
  if (!languages) return;
  languages.remove();
  languages = null;
  switcherButton?.setAttribute('aria-expanded', 'false');
  switcherButton?.querySelector('svg:last-of-type')?.classList.remove('rotate-180');
}

/** A language chosen: stored when allowed, and the landing in it, which the server draws (`/lv`, `/fr`, …). */
function switchLanguage(option: HTMLButtonElement): void {
  closeLanguages();
  const locale = option.lang;
  if (option.hasAttribute('aria-current') || !isLocale(locale)) return;
  rememberLocale(locale);
  window.location.assign(`${localizePath('/', locale)}${window.location.search}`);
}

// The header's menu on phones (app/layouts/landing-layout.tsx `SiteMenu`), in the header's own <dialog>.
const menuButton = root.querySelector<HTMLButtonElement>('header [data-site-menu-button]');
const menu = root.querySelector<HTMLDialogElement>('header dialog');

function openSiteMenu(): void {
  if (!menu || !menuButton) return;
  menu.replaceChildren(...part('site-menu').children);
  menuButton.setAttribute('aria-expanded', 'true');
  menu.showModal();
}

function closeSiteMenu(): void {
  if (!menu?.open) return;
  menu.close();
  menu.replaceChildren();
  menuButton?.setAttribute('aria-expanded', 'false');
}

menu?.addEventListener(
  'cancel',
  (event) => {
    event.preventDefault();
    closeSiteMenu();
  },
  { signal },
);

/** A link into the app (`/login`, `/lv/faq`): the same page on the hash route, which the app starts on. */
function followLink(link: HTMLAnchorElement, event: MouseEvent): void {
  const href = link.getAttribute('href') ?? '';
  if (href.startsWith('#')) {
    // The skip link: hash routing owns the URL's hash, so the focus moves without navigating (app/layouts/skip-link.tsx).
    event.preventDefault();
    document.getElementById(href.slice(1))?.focus();
    return;
  }
  const url = new URL(link.href);
  const opensElsewhere = link.target !== '' || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey;
  // Files (the tariff's PDF) and other sites open as they are; so does a link opened in a new tab (its path form).
  if (opensElsewhere || url.origin !== window.location.origin || /\.\w+$/.test(url.pathname)) return;
  event.preventDefault();
  closeSiteMenu();
  // The home link leads to this very page.
  if (url.pathname === landingPath) return;
  window.location.hash = `#${url.pathname}${url.search}`;
}

document.addEventListener(
  'click',
  (event) => {
    const target = event.target as Element;
    if (menu?.open && target === menu) return closeSiteMenu();
    const consent = target.closest<HTMLElement>('[data-consent]')?.dataset.consent;
    if (consent === 'settings') return openSettings();
    if (consent === 'accept') return saveConsent({ functional: true, analytics: true });
    if (consent === 'reject') {
      return settings?.contains(target)
        ? saveSettings({ functional: false, analytics: false })
        : saveConsent({ functional: false, analytics: false });
    }
    if (consent === 'save' && settings) {
      return saveSettings({
        functional: settings.querySelector<HTMLInputElement>('#cookie-functional')!.checked,
        analytics: settings.querySelector<HTMLInputElement>('#cookie-analytics')!.checked,
      });
    }
    if (target.closest('[data-dialog-close]')) {
      if (settings?.contains(target)) closeSettings();
      else closeSiteMenu();
      return;
    }
    if (target.closest('[data-snackbar-region] button'))
      return void root.querySelector('[data-snackbar-region]')?.replaceChildren();
    const option = target.closest<HTMLButtonElement>('button[lang]');
    if (option) return switchLanguage(option);
    if (switcherButton?.contains(target)) return languages ? closeLanguages() : openLanguages();
    if (menuButton?.contains(target)) return openSiteMenu();
    const link = target.closest<HTMLAnchorElement>('a[href]');
    if (link) {
      // Leaving the settings for the cookie policy closes them, as in the app.
      if (settings?.contains(link)) closeSettings();
      followLink(link, event);
    }
  },
  { signal },
);

// The language list closes on a press outside it, on Escape (the focus back on its button) and, wider than 800 px,
// on scroll (spec 9).
document.addEventListener(
  'pointerdown',
  (event) => {
    if (languages && !switcher?.contains(event.target as Node)) closeLanguages();
  },
  { signal },
);
document.addEventListener(
  'keydown',
  (event) => {
    if (event.key !== 'Escape' || !languages) return;
    closeLanguages();
    switcherButton?.focus();
  },
  { signal },
);
window.addEventListener(
  'scroll',
  () => {
    if (window.innerWidth > 800) closeLanguages();
  },
  { passive: true, signal },
);
window.addEventListener(
  'hashchange',
  () => {
    if (namesAppPage(window.location.hash)) startApp();
  },
  { signal },
);

let consentBefore = consentStore.get();
const unsubscribe = consentStore.subscribe(() => {
  followConsent(consentBefore);
  consentBefore = consentStore.get();
});
signal.addEventListener('abort', unsubscribe);

// A visitor with a session goes on to the overview, which only the app draws (app/guards.tsx `GuestOnly`); so does a
// hash route set since the boot script looked, and the pseudo-locale of development and tests. A message a reload
// carries (the sign-out after an account's deletion, lib/notice-after-reload.ts) is shown by the app's snackbar.
if (hasSession() || noticeIsWaiting() || pseudoLocaleRequested() || namesAppPage(window.location.hash)) startApp();
else {
  keepAdvertIfAllowed();
  countAdVisitIfAllowed(landingPath, pageLocale);
  if (consentStore.get().analytics) countPageView(landingPath, pageLocale);
}
