import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { isLocale } from './lib/is-locale.ts';
import './app/public/public.css';
import { PublicApp } from './app/public/public-app.tsx';
import { setPaymentLocale } from './features/payment/payment-i18n.ts';
import { installErrorReporting } from './lib/error-reporting.ts';
import { preferredLocale } from './lib/locale.ts';
import { readShellData } from './lib/shell-data.ts';

/**
 * The public pages that people without an account open from a link (/payment/…, /invoice/…, /teams/…/join,
 * /actions/…): a separate entry that loads none of the dashboard, landing or auth code, so a phone on a poor
 * connection gets from the QR scan to the page fast. The server renders the payment pages to HTML (public-server.tsx)
 * in the language it chose and inlines their data: the script hydrates that markup in the same language.
 */
installErrorReporting();
const rendered = readShellData<{ locale?: string }>()?.locale;
setPaymentLocale(isLocale(rendered) ? rendered : preferredLocale(), false);

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <PublicApp />
  </StrictMode>
);
if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
