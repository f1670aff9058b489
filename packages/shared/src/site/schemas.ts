import { z } from 'zod';
import { LOCALES } from '../constants.ts';
import { requiredString, rule } from '../validation.ts';

/** What the web app needs to know about the operator: every detail comes from configuration and may be absent. */
export const siteInfoSchema = z.object({
  company: z.object({
    name: z.string().nullable(),
    registration_number: z.string().nullable(),
    licence: z.string().nullable(),
    address: z.string().nullable(),
  }),
  support: z.object({ email: z.string().nullable(), phone: z.string().nullable() }),
  social: z.object({ instagram: z.string().nullable(), facebook: z.string().nullable(), tiktok: z.string().nullable() }),
  /** Set when the anti-bot check is on: forms render the widget and send its token. */
  turnstile_site_key: z.string().nullable(),
  /** Whether the contact form can deliver (a support address and a way to send e-mail exist). */
  contact_form: z.boolean(),
  /** The configured figures the terms and FAQ quote, so the copy says what the service does. */
  figures: z.object({ hold_hours: z.number(), verification_limit_cents: z.number().int() }),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;

/** Where the web app sends its errors (SENTRY_DSN), asked for only once an error happens; dsn null: nowhere. */
export const errorReportingSchema = z.object({ dsn: z.string().nullable(), environment: z.string().nullable() });
export type ErrorReportingInfo = z.infer<typeof errorReportingSchema>;

/** The Turnstile token travels in this body field or in the `cf-turnstile-response` header. */
export const turnstileToken = z.string().max(2048).optional();

export const contactBody = z.object({
  name: requiredString(100),
  email: requiredString(254).pipe(z.email({ error: rule('email') })),
  message: requiredString(5000),
  turnstile_token: turnstileToken,
});
export type ContactBody = z.input<typeof contactBody>;

/** First-party analytics (only sent after consent): a page view or a visit from an advert. */
export const ANALYTICS_EVENTS = ['page_view', 'ad_visit'] as const;
export const analyticsEventBody = z.object({
  name: z.enum(ANALYTICS_EVENTS, { error: rule('choice') }),
  path: requiredString(200),
  locale: z.enum(LOCALES, { error: rule('choice') }),
  promo_source: z.string().trim().max(100, rule('max_length')).optional(),
});
export type AnalyticsEventBody = z.input<typeof analyticsEventBody>;
