import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { isLocale } from './lib/is-locale.ts';
import './app/public/public.css';
import { PublicApp } from './app/public/public-app.tsx';
import { guestI18n, setGuestLocale } from './lib/guest-i18n.ts';
import { pseudoLocaleRequested, switchToPseudoLocale } from './lib/pseudo-locale.ts';
import { keepTypedText } from './features/tips/typed-before-hydration.ts';
import { installErrorReporting } from './lib/error-reporting.ts';
import { preferredLocale } from './lib/locale.ts';
import { readShellData } from './lib/shell-data.ts';

/**
 * The public pages that people without an account open from a link (/payment/…, /invoice/…, /teams/…/join,
 * /actions/…): a separate entry that loads none of the dashboard, landing or auth code, so a phone on a poor
 * connection gets from the QR scan to the page fast. The server renders the payment pages to HTML (public-server.tsx)
 * in the language it chose and inlines their data: the script hydrates that markup in the same language. It starts
 * after that markup's first paint (apps/api web-shell `bootAfterPaint`); the form works before it (a plain POST).
 */
installErrorReporting();
const rendered = readShellData<{ locale?: string }>()?.locale;
setGuestLocale(isLocale(rendered) ? rendered : preferredLocale(), false);

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <PublicApp />
  </StrictMode>
);
// As a transition, hydration yields to the browser between components rather than holding the main thread in one
// long task, and a tap that arrives meanwhile hydrates its target first (bench:web, total blocking time). In the
// pseudo-locale (development and tests only) the page is rendered anew over the server's markup, which is not in it.
if (pseudoLocaleRequested() && (await switchToPseudoLocale(guestI18n))) createRoot(root).render(app);
else if (root.hasChildNodes()) {
  keepTypedText(root);
  startTransition(() => void hydrateRoot(root, app));
} else createRoot(root).render(app);
