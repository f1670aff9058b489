import type { AnalyticsEventBody } from '@tipcard/shared/site/schemas';
import { api } from '../../lib/api-client.ts';
import { analyticsAllowed } from '../../lib/consent.ts';

/**
 * First-party analytics: an event goes to our own API only when the visitor allowed analytics. No third-party
 * script, no cookie, no identifier. A lost event is not worth an error message.
 */
export function sendAnalyticsEvent(event: AnalyticsEventBody): void {
  if (!analyticsAllowed()) return;
  void api.post('/analytics/events', event, null, { auth: false, errorHandling: 'none' }).catch(() => undefined);
}
