import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/**
 * First-party analytics, recorded only for visitors who allowed it: a page view or a visit from an advert. No IP,
 * user agent, user or device id is kept (docs/decisions/0004-public-site.md).
 */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name', { enum: ['page_view', 'ad_visit'] }).notNull(),
    path: text('path').notNull(),
    locale: text('locale').notNull(),
    promoSource: text('promo_source'),
    createdAt: createdAt(),
  },
  (t) => [index('analytics_events_name_created_idx').on(t.name, t.createdAt)],
);
