/** Pages for everyone, opened signed out ('' is the landing page). */
export const PUBLIC_PAGES = [
  '',
  'login',
  'registration',
  'how-it-works',
  'about',
  'faq',
  'contacts',
  'affiliate-program',
  'terms',
  'privacy',
  'cookies',
];

/**
 * The signed-in app's pages (apps/web/src/app/router.tsx); `:ticket` is a seeded ticket, `:card` the user's card,
 * `:payout` a payout id (one the user does not have shows the page's not-found state).
 */
export const APP_PAGES = [
  'overview',
  'transactions',
  'payouts',
  'payouts/add-method',
  'payouts/:payout/confirmation',
  'settings',
  'settings/payout',
  'verification',
  'account',
  'account/create',
  'account/edit',
  'account/add-photo',
  'account/cards/:card/thank-you',
  'support',
  'support/:ticket',
  'card-orders',
  'invoices',
  'donations',
  'notices',
  'workplace',
  'workplace/create',
  'referrals',
  'referrals/referrals-list',
];
