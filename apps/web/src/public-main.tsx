import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/public/public.css';
import { PublicApp } from './app/public/public-app.tsx';
import { setPaymentLocale } from './features/payment/payment-i18n.ts';
import { installErrorReporting } from './lib/error-reporting.ts';
import { preferredLocale } from './lib/locale.ts';

/**
 * The public pages that people without an account open from a link (/payment/…, /invoice/…, /teams/…/join,
 * /actions/…): a separate entry that loads none of the dashboard, landing or auth code, so a phone on a poor
 * connection gets from the QR scan to the page fast. The server inlines a card's data into public.html.
 */
installErrorReporting();
setPaymentLocale(preferredLocale(), false);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PublicApp />
  </StrictMode>,
);
