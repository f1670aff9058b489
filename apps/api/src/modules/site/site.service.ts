import type { SitePage } from '@tipcard/shared/site/pages';
import type { SiteInfo } from '@tipcard/shared/site/schemas';
import type { Locale } from '@tipcard/shared/constants';
import { formatMoney } from '@tipcard/shared/money/format';
import type { FirstView } from '@tipcard/shared/site/first-view';
import type { Config } from '../../config.ts';
import { t } from '../../lib/i18n.ts';
import type { SkeletonFigures } from '../web-shell/web-shell.service.ts';

/** The operator's details as configured; an unset detail is null and the site leaves its line out. */
export function siteInfoOf(config: Config, contactFormEnabled: boolean): SiteInfo {
  const { site } = config;
  return {
    company: {
      name: site.companyName ?? null,
      registration_number: site.companyRegistrationNumber ?? null,
      licence: site.companyLicence ?? null,
      address: site.companyAddress ?? null,
    },
    support: { email: site.supportEmail ?? null, phone: site.supportPhone ?? null },
    social: { instagram: site.instagramUrl ?? null, facebook: site.facebookUrl ?? null, tiktok: site.tiktokUrl ?? null },
    turnstile_site_key: config.turnstileSiteKey ?? null,
    contact_form: contactFormEnabled,
    figures: { hold_hours: config.payments.holdHours, verification_limit_cents: config.verificationLimitCents },
  };
}

/** `/how-it-works` → `how_it_works`, `/` → `home`: the page's key in the marketing catalog. */
export function pageKeyOf(page: SitePage): string {
  return page === '/' ? 'home' : page.slice(1).replaceAll('-', '_');
}

/** The page's title and description in a locale, from the same catalog the app uses. */
export function pageMetaOf(page: SitePage, locale: Locale): { title: string; description: string } {
  const key = pageKeyOf(page);
  return {
    title: t(`marketing.meta.${key}.title`, undefined, locale),
    description: t(`marketing.meta.${key}.description`, undefined, locale),
  };
}

export { createFirstViewService, type FirstViewService } from './first-view.ts';

/**
 * The overview's balance tiles as the app draws them in the first view's language (its texts, the shared money
 * format), for the signed-in skeleton to paint before the app's script (decision 0063).
 */
export function skeletonFiguresOf(view: FirstView): SkeletonFigures {
  const { locale } = view;
  const cents = (type: 'main' | 'hold') => view.balances.account_balances.find((item) => item.type === type)?.balance ?? 0;
  const tile = (type: 'main' | 'hold') => ({
    label: t(`overview:balance.${type}`, undefined, locale),
    amount: formatMoney(cents(type), locale),
    hint: t(`overview:balance.${type}_hint`, undefined, locale),
  });
  return { locale, main: tile('main'), hold: tile('hold'), firstCard: view.overview.latest.length === 0 };
}
