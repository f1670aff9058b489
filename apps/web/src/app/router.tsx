import { lazy, useEffect } from 'react';
import { Navigate, createHashRouter, isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { DEFAULT_LOCALE, LOCALES } from '@tipcard/shared/constants';
import { importWithReload, lazyWithReload } from '../lib/chunk-reload.ts';
import { reportError } from '../lib/error-reporting.ts';
import { useLocalePath } from '../lib/use-locale-path.ts';
import { ErrorPage } from './error-page.tsx';
import { GuestOnly, PageLoader } from './guards.tsx';
import { LandingLayout } from './layouts/landing-layout.tsx';
import { PublicLayout, PublicLayoutFrame } from './layouts/public-layout.tsx';
import { RootLayout } from './layouts/root-layout.tsx';
import { UnauthorizedLayout } from './layouts/unauthorized-layout.tsx';

import LandingPage from '../features/landing/landing-page.tsx';

// Route-level code splitting: each page is its own chunk, except the landing page, the most visited first paint,
// which ships with the app so that its text does not wait for one more request (bench:web, LCP).
const LoginPage = lazyWithReload(() => import('../features/auth/login-page.tsx'));
const RegistrationPage = lazyWithReload(() => import('../features/auth/registration-page.tsx'));
/** The session guard, the signed-in layout and the overview: one file (signed-in-start.ts). */
const signedInStart = () => importWithReload(() => import('./signed-in-start.ts'));
const OverviewPage = lazy(async () => ({ default: (await signedInStart()).OverviewPage }));
const TransactionsPage = lazyWithReload(() => import('../features/transactions/transactions-page.tsx'));
const PayoutsPage = lazyWithReload(() => import('../features/payouts/payouts-page.tsx'));
const AddPayoutMethodPage = lazyWithReload(() => import('../features/payouts/add-method-page.tsx'));
const PayoutConfirmationPage = lazyWithReload(() => import('../features/payouts/payout-confirmation-page.tsx'));
const SettingsPage = lazyWithReload(() => import('../features/account/settings-page.tsx'));
const PayoutSettingsPage = lazyWithReload(() => import('../features/payouts/payout-settings-page.tsx'));
const PayoutAccountSummary = lazyWithReload(() => import('../features/payouts/components/payout-account-summary.tsx'));
const VerificationPage = lazyWithReload(() => import('../features/verification/verification-page.tsx'));
const CardPage = lazyWithReload(() => import('../features/cards/card-page.tsx'));
const CardCreatePage = lazyWithReload(() => import('../features/cards/card-create-page.tsx'));
const CardEditPage = lazyWithReload(() => import('../features/cards/card-edit-page.tsx'));
const CardThankYouPage = lazyWithReload(() => import('../features/cards/card-thank-you-page.tsx'));
const CardAddPhotoPage = lazyWithReload(() => import('../features/cards/card-add-photo-page.tsx'));
const SupportPage = lazyWithReload(() => import('../features/support/support-page.tsx'));
const TicketPage = lazyWithReload(() => import('../features/support/ticket-page.tsx'));
const HowItWorksPage = lazyWithReload(() => import('../features/marketing/how-it-works-page.tsx'));
const AboutPage = lazyWithReload(() => import('../features/marketing/about-page.tsx'));
const FaqPage = lazyWithReload(() => import('../features/marketing/faq-page.tsx'));
const AffiliatePage = lazyWithReload(() => import('../features/marketing/affiliate-page.tsx'));
const ContactsPage = lazyWithReload(() => import('../features/contact/contacts-page.tsx'));
const TermsPage = lazyWithReload(() => import('../features/legal/terms-page.tsx'));
const PrivacyPage = lazyWithReload(() => import('../features/legal/privacy-page.tsx'));
const CookiePolicyPage = lazyWithReload(() => import('../features/legal/cookie-policy-page.tsx'));
const CardOrdersPage = lazyWithReload(() => import('../features/card-orders/card-orders-page.tsx'));
const CardOrderPaymentPage = lazyWithReload(() => import('../features/card-orders/card-order-payment-page.tsx'));
const InvoicesPage = lazyWithReload(() => import('../features/invoices/invoices-page.tsx'));
const DonationsPage = lazyWithReload(() => import('../features/donations/donations-page.tsx'));
const NoticesPage = lazyWithReload(() => import('../features/notices/notices-page.tsx'));
const WorkplacePage = lazyWithReload(() => import('../features/teams/workplace-page.tsx'));
const WorkplaceCreatePage = lazyWithReload(() => import('../features/teams/workplace-create-page.tsx'));
const TeamJoinPage = lazyWithReload(() => import('../features/teams/team-join-page.tsx'));
const ReferralsPage = lazyWithReload(() => import('../features/referrals/referrals-page.tsx'));
const ReferralsListPage = lazyWithReload(() => import('../features/referrals/referrals-list-page.tsx'));

/** Unknown routes go home (in the current language). */
function GoHome() {
  const to = useLocalePath();
  return <Navigate to={to('/')} replace />;
}

function RouteError() {
  const error = useRouteError() as { status?: number } | undefined;
  useEffect(() => {
    // A 404 is a stale link, not a fault; anything the app threw while rendering is.
    if (!isRouteErrorResponse(error) || error.status >= 500) reportError(error, 'error_page');
  }, [error]);
  return (
    <PublicLayoutFrame>
      <ErrorPage status={typeof error?.status === 'number' ? error.status : 500} />
    </PublicLayoutFrame>
  );
}

/** The pages of one language; en has them at the root, lv/fr/es under their prefix. */
function pageRoutes(): RouteObject[] {
  return [
    {
      // The public site's information pages: for everyone, signed in or not (spec 2 "Public and marketing").
      element: <LandingLayout />,
      children: [
        { path: 'how-it-works', element: <HowItWorksPage /> },
        { path: 'about', element: <AboutPage /> },
        { path: 'faq', element: <FaqPage /> },
        { path: 'contacts', element: <ContactsPage /> },
        { path: 'affiliate-program', element: <AffiliatePage /> },
        { path: 'terms', element: <TermsPage /> },
        { path: 'privacy', element: <PrivacyPage /> },
        { path: 'cookies', element: <CookiePolicyPage /> },
        // The invite link: signed in or not (a signed-out visitor goes through sign-up or log-in and comes back).
        { path: 'teams/:teamId/join', element: <TeamJoinPage /> },
      ],
    },
    {
      // Where the payment provider sends the user back from a card order's checkout: public (spec 2).
      element: <PublicLayout />,
      children: [
        { path: 'card-orders/payment/success', element: <CardOrderPaymentPage outcome="success" /> },
        { path: 'card-orders/payment/canceled', element: <CardOrderPaymentPage outcome="canceled" /> },
      ],
    },
    {
      element: <GuestOnly />,
      children: [
        { element: <LandingLayout />, children: [{ index: true, element: <LandingPage /> }] },
        {
          element: <UnauthorizedLayout />,
          children: [
            { path: 'login', element: <LoginPage /> },
            { path: 'registration', element: <RegistrationPage /> },
          ],
        },
      ],
    },
    {
      // The signed-in shell (the session guard, the side bar and the API hooks they use, with zod and the shared
      // schemas) loads with the first signed-in page, so that the landing page's startup does not evaluate it
      // (bench:web, total blocking time). A navigation waits for it on the page it leaves.
      lazy: async () => ({ Component: (await signedInStart()).RequireSession }),
      children: [
        {
          lazy: async () => ({ Component: (await signedInStart()).DefaultLayout }),
          children: [
            { path: 'overview', element: <OverviewPage /> },
            { path: 'transactions', element: <TransactionsPage /> },
            { path: 'payouts', element: <PayoutsPage /> },
            { path: 'payouts/add-method', element: <AddPayoutMethodPage /> },
            { path: 'payouts/:payoutId/confirmation', element: <PayoutConfirmationPage /> },
            { path: 'settings', element: <SettingsPage payoutAccount={<PayoutAccountSummary />} /> },
            { path: 'settings/payout', element: <PayoutSettingsPage /> },
            { path: 'verification', element: <VerificationPage /> },
            { path: 'account', element: <CardPage /> },
            { path: 'account/create', element: <CardCreatePage /> },
            { path: 'account/edit', element: <CardEditPage /> },
            { path: 'account/cards/:cardId/thank-you', element: <CardThankYouPage /> },
            { path: 'account/add-photo', element: <CardAddPhotoPage /> },
            { path: 'support', element: <SupportPage /> },
            { path: 'support/:ticketId', element: <TicketPage /> },
            { path: 'card-orders', element: <CardOrdersPage /> },
            { path: 'invoices', element: <InvoicesPage /> },
            { path: 'donations', element: <DonationsPage /> },
            { path: 'notices', element: <NoticesPage /> },
            { path: 'workplace', element: <WorkplacePage /> },
            { path: 'workplace/create', element: <WorkplaceCreatePage /> },
            { path: 'referrals', element: <ReferralsPage /> },
            { path: 'referrals/referrals-list', element: <ReferralsListPage /> },
          ],
        },
      ],
    },
    { path: '*', element: <GoHome /> },
  ];
}

export function appRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      element: <RootLayout />,
      errorElement: <RouteError />,
      // Opened on a signed-in page, the app first loads the signed-in shell (above).
      hydrateFallbackElement: <PageLoader />,
      children: [
        ...pageRoutes(),
        ...LOCALES.filter((locale) => locale !== DEFAULT_LOCALE).map((locale) => ({ path: locale, children: pageRoutes() })),
      ],
    },
  ];
}

export function createAppRouter() {
  return createHashRouter(appRoutes());
}
