import { StrictMode, startTransition } from 'react';
import { DEFAULT_LOCALE } from '@tipcard/shared/constants';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { isLocale } from './lib/is-locale.ts';
import './app/public/public.css';
import { PublicApp } from './app/public/public-app.tsx';
import { guestI18n, loadGuestLocale, setGuestLocale } from './lib/guest-i18n.ts';
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
// Hydration starts from the texts the server rendered with: the page's language is loaded first.
await setGuestLocale(isLocale(rendered) ? rendered : preferredLocale(), false);

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <PublicApp />
  </StrictMode>
);
// The build hydrates with Preact (vite.public.config.ts), in one short task; `vite dev` with React, where as a
// transition hydration yields to the browser between components and a tap that arrives meanwhile hydrates its target
// first. In the pseudo-locale (development and tests only: English is its fallback) the page is rendered anew over
// the server's markup, which is not in it.
const pseudo = pseudoLocaleRequested() && (await loadGuestLocale(DEFAULT_LOCALE).then(() => switchToPseudoLocale(guestI18n)));
if (pseudo) createRoot(root).render(app);
else if (root.hasChildNodes()) {
  keepTypedText(root);
  startTransition(() => void hydrateRoot(root, app));
} else createRoot(root).render(app);
