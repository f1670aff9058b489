import type { AnalyticsEventBody } from '@tipcard/shared/site/schemas';
import type { Locale } from '@tipcard/shared/constants';
import { analyticsAllowed, functionalAllowed } from '../../lib/consent.ts';
import { advertOfLocation, storePromoSource } from '../../lib/promo-source.ts';

/**
 * First-party analytics: an event goes to our own API only when the visitor allowed analytics. No third-party
 * script, no cookie, no identifier. A lost event is not worth an error message. A plain request, not the API client:
 * the landing page's script sends these too, and loads nothing of the app (decision 0065).
 */
export function sendAnalyticsEvent(event: AnalyticsEventBody): void {
  if (!analyticsAllowed()) return;
  void fetch('/api/analytics/events', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'Accept-Language': event.locale },
    body: JSON.stringify(event),
    credentials: 'same-origin',
  }).catch(() => undefined);
}

/** The advert this page load came with, if any (read once: the hash route keeps changing). */
const landingAdvert = typeof window === 'undefined' ? null : advertOfLocation(window.location);

/** Whether this page load's ad visit was counted: by the landing page's script or by the app, whichever ran first. */
let adVisitCounted = false;

/**
 * What consent allows (spec 4), called by the app's `CookieConsent` and by the landing page's script, one page load
 * shared by both: the advert that brought the visitor is a functional entry, kept only once they allow it (now or later
 * on this page).
 */
export function keepAdvertIfAllowed(): void {
  if (landingAdvert && functionalAllowed()) storePromoSource(landingAdvert);
}

/** The ad visit counts once per page load, as soon as analytics is allowed (at load or when accepted later). */
export function countAdVisitIfAllowed(path: string, locale: Locale): void {
  if (!landingAdvert || adVisitCounted || !analyticsAllowed()) return;
  adVisitCounted = true;
  sendAnalyticsEvent({ name: 'ad_visit', path, locale, promo_source: landingAdvert });
}

/** A page view, once analytics is allowed. */
export function countPageView(path: string, locale: Locale): void {
  sendAnalyticsEvent({ name: 'page_view', path, locale });
}
