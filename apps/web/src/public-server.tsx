import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@tipcard/shared/constants';
import { PaymentApp, type PaymentShellData } from './features/payment/payment-app.tsx';
import { parsePaymentRoute } from './features/payment/payment-route.ts';
import { paymentI18n } from './features/payment/payment-i18n.ts';

export type { PaymentShellData };

/**
 * The server's half of the guest's payment pages (built by `vite build --ssr` into dist-server/, imported by
 * apps/api payment-pages.ts): the same components as the browser's entry, rendered to HTML from the data the page
 * then inlines for hydration. renderToString is synchronous, so switching the page's one i18n instance to the
 * request's language just before it cannot leak into another request (docs/decisions/0016-guest-page-ssr.md).
 */
export function renderPaymentPage(url: { pathname: string; search: string }, data: PaymentShellData, locale: Locale): string {
  void paymentI18n.changeLanguage(LOCALES.includes(locale) ? locale : DEFAULT_LOCALE);
  const route = parsePaymentRoute(url.pathname, url.search);
  return renderToString(
    <StrictMode>
      <PaymentApp shell={data} route={route} />
    </StrictMode>,
  );
}
