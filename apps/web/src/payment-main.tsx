import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './features/payment/payment.css';
import { preferredLocale } from './lib/locale.ts';
import { PaymentApp } from './features/payment/payment-app.tsx';
import { setPaymentLocale } from './features/payment/payment-i18n.ts';

/**
 * The guest's payment pages: a separate entry that loads none of the dashboard, landing or auth code, so a phone on a
 * poor connection gets from the QR scan to the form fast. The server inlines the card into payment.html.
 */
setPaymentLocale(preferredLocale(), false);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PaymentApp />
  </StrictMode>,
);
