import type { z } from 'zod';
import type { analyticsEventBody } from '@tipcard/shared/site/schemas';
import type { Database } from '../../db/client.ts';
import * as repo from './analytics.repository.ts';

type AnalyticsEvent = z.output<typeof analyticsEventBody>;

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

export function createAnalyticsService({ db }: { db: Database }) {
  return {
    /**
     * Keeps one event as sent by a browser whose visitor allowed analytics. Deliberately minimal: no IP address, no
     * user agent, no user or device id, and the path without its query, so an event cannot be tied to a person.
     */
    async record(event: AnalyticsEvent): Promise<void> {
      await repo.insertAnalyticsEvent(db, {
        name: event.name,
        path: event.path.split('?')[0]!,
        locale: event.locale,
        promoSource: event.promo_source ?? null,
      });
    },
  };
}
