import type { SiteInfo } from '@tipcard/shared/site/schemas';

/** The site details the information pages read (`GET /site`): the operator, and the figures the copy quotes. */
export function siteInfo(overrides: Partial<SiteInfo> = {}): SiteInfo {
  return {
    company: { name: 'Tipcard SIA', registration_number: '40203000000', licence: 'EMI-7', address: 'Brīvības iela 1, Rīga' },
    support: { email: 'help@tipcard.test', phone: null },
    social: { instagram: null, facebook: null, tiktok: null },
    turnstile_site_key: null,
    contact_form: true,
    figures: { hold_hours: 72, verification_limit_cents: 100_000 },
    ...overrides,
  };
}
