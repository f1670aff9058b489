import type { SitePage } from '@tipcard/shared/site/pages';
import type { SiteInfo } from '@tipcard/shared/site/schemas';
import type { Locale } from '@tipcard/shared/constants';
import type { Config } from '../../config.ts';
import { t } from '../../lib/i18n.ts';

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
