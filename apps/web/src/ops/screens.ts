import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { OpsQueueCounts } from '@tipcard/shared/ops/schemas';
import type { SignedInOperator } from './ops-api.ts';

type Role = SignedInOperator['role'];

export interface Screen {
  /** Hash path, e.g. `/users`; `/users/:id` style children are listed with `nav: false`. */
  path: string;
  label: string;
  /** Who sees it besides admin (the API checks the same roles on every call). */
  roles: Role[];
  nav: boolean;
  page: LazyExoticComponent<ComponentType>;
  /** The work queue whose count the menu shows beside it. */
  queue?: keyof OpsQueueCounts;
}

/**
 * Every back-office screen. Adding one (tickets, card orders, invoices…) is a page under `pages/` and one line here:
 * the side bar, the route and the role check follow from it.
 */
export const SCREENS: Screen[] = [
  {
    path: '/search',
    label: 'Search',
    roles: ['support', 'compliance', 'finance'],
    nav: true,
    page: lazy(() => import('./pages/search-page.tsx')),
  },
  {
    path: '/payments/:id',
    label: 'Payment',
    roles: ['support', 'compliance', 'finance'],
    nav: false,
    page: lazy(() => import('./pages/payment-page.tsx')),
  },
  {
    path: '/account',
    label: 'Your account',
    roles: ['support', 'compliance', 'finance'],
    nav: false,
    page: lazy(() => import('./pages/account-page.tsx')),
  },
  {
    path: '/users',
    label: 'Users',
    roles: ['support', 'compliance', 'finance'],
    nav: true,
    page: lazy(() => import('./pages/users-page.tsx')),
  },
  {
    path: '/users/:id',
    label: 'User',
    roles: ['support', 'compliance', 'finance'],
    nav: false,
    page: lazy(() => import('./pages/user-page.tsx')),
  },
  {
    path: '/venues/:id',
    label: 'Venue',
    roles: ['support', 'compliance', 'finance'],
    nav: false,
    page: lazy(() => import('./pages/venue-page.tsx')),
  },
  {
    path: '/tickets',
    label: 'Support inbox',
    roles: ['support'],
    nav: true,
    queue: 'tickets_waiting',
    page: lazy(() => import('./pages/tickets-page.tsx')),
  },
  {
    path: '/tickets/:id',
    label: 'Ticket',
    roles: ['support'],
    nav: false,
    page: lazy(() => import('./pages/ticket-page.tsx')),
  },
  {
    path: '/card-orders',
    label: 'Card orders',
    roles: ['support'],
    nav: true,
    page: lazy(() => import('./pages/card-orders-page.tsx')),
  },
  {
    path: '/verifications',
    label: 'Verification review',
    roles: ['compliance'],
    nav: true,
    queue: 'verifications_to_review',
    page: lazy(() => import('./pages/verifications-page.tsx')),
  },
  {
    path: '/verifications/:id',
    label: 'Verification',
    roles: ['compliance'],
    nav: false,
    page: lazy(() => import('./pages/verification-page.tsx')),
  },
  {
    path: '/payouts',
    label: 'Payouts',
    roles: ['finance'],
    nav: true,
    queue: 'batches_to_close',
    page: lazy(() => import('./pages/payouts-page.tsx')),
  },
  {
    path: '/payouts/batches/:id',
    label: 'Bank file',
    roles: ['finance'],
    nav: false,
    page: lazy(() => import('./pages/payout-batch-page.tsx')),
  },
  {
    path: '/refunds',
    label: 'Refunds',
    roles: ['finance'],
    nav: true,
    queue: 'refunds_to_approve',
    page: lazy(() => import('./pages/refunds-page.tsx')),
  },
  {
    path: '/ledger',
    label: 'Ledger health',
    roles: ['finance'],
    nav: true,
    queue: 'dead_messages',
    page: lazy(() => import('./pages/ledger-page.tsx')),
  },
  { path: '/audit', label: 'Audit log', roles: ['compliance'], nav: true, page: lazy(() => import('./pages/audit-page.tsx')) },
  { path: '/operators', label: 'Operators', roles: [], nav: true, page: lazy(() => import('./pages/operators-page.tsx')) },
];

export const canSee = (screen: Screen, role: Role) => role === 'admin' || screen.roles.includes(role);
