import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LOCALES, type Locale } from '@tipcard/shared/constants';
import { venuePagePath, type PublicVenue } from '@tipcard/shared/teams/venue-page';
import { isUuid } from '@tipcard/shared/uuid';
import { requestLocale, t } from '../../lib/i18n.ts';
import { answeredFromCache, weakEtag } from '../../lib/http-cache.ts';
import { sendShell, shellHtml, venuePageRenderer, type ShellPage } from '../web-shell/web-shell.service.ts';
import type { VenuePages } from './teams.service.ts';

const MINUTE = 60_000;
/** As the guest's form page (docs/decisions/0018): how long a browser or shared cache may show it before asking again. */
const VENUE_PAGE_MAX_AGE_SECONDS = 30;
/** The page's language comes from its path prefix, the `locale` cookie or Accept-Language (requestLocale). */
const VENUE_PAGE_VARY = 'Accept-Language, Cookie, Accept-Encoding';

/** What the venue page is rendered from and inlined for hydration (apps/web features/venues/venue-page.tsx). */
export interface VenuePageData {
  venue: PublicVenue | null;
  locale: Locale;
}

/**
 * The venue's public page, `/venue/{workplaceId}` (also under a language prefix): the page its QR code opens, where a
 * guest picks a person or a team and goes on to that card's own page to tip. Rendered on the server with the web
 * app's component, like the guest's form page (docs/decisions/0030-guest-page-ssr.md): plain links, so it works
 * whole before any script, and the script only brings the language switch. An unknown or malformed id gets the
 * guest pages' "no longer active" page with 404.
 */
export const venuePagesRoutes: FastifyPluginAsyncZod<{ venuePages: VenuePages }> = async (app, { venuePages }) => {
  const { webServerEntry } = app.config;
  const limit = app.rateLimit({ max: 240, timeWindow: MINUTE });
  // Any text is accepted here: a malformed id gets the same 404 page as an unknown one.
  const params = z.object({ workplaceId: z.string().max(100) });

  app.get('/venue/:workplaceId', { onRequest: limit, schema: { hide: true, params } }, async (request, reply) => {
    const { workplaceId } = request.params;
    const venue = isUuid(workplaceId) ? await venuePages.venue(workplaceId) : null;
    const locale = requestLocale(request);
    const data: VenuePageData = { venue, locale };
    const render = await venuePageRenderer(webServerEntry);
    const page: ShellPage = {
      entry: 'public.html',
      locale,
      title: venue ? t('payment:venue.meta_title', { name: venue.name }, locale) : t('payment:meta.generic_title', {}, locale),
      description: t('payment:venue.meta_description', {}, locale),
      path: venue ? venuePagePath(venue.id) : '/venue',
      data,
      status: venue ? 200 : 404,
      ...(render ? { html: render(data, locale), bootAfterPaint: true } : {}),
    };
    if (!venue) return sendShell(reply, page);
    const html = await shellHtml(app.config, page);
    if (html === null) return reply.callNotFound();
    if (
      answeredFromCache(request, reply, {
        etag: weakEtag(html),
        maxAgeSeconds: VENUE_PAGE_MAX_AGE_SECONDS,
        vary: VENUE_PAGE_VARY,
      })
    )
      return reply;
    return reply.type('text/html; charset=utf-8').send(html);
  });
};

const PNG = 'image/png';
const PDF = 'application/pdf';

/** The venue page's QR code and print sheet for the venue's admin: `/api/workplaces/{id}/qr.png` and `/print.pdf`. */
export const venueQrRoutes: FastifyPluginAsyncZod<{ venuePages: VenuePages }> = async (app, { venuePages }) => {
  const secured = { tags: ['teams'], security: [{ bearer: [] }] };
  const params = z.object({ workplaceId: z.uuid() });
  const perUser = app.rateLimit({
    max: 30,
    timeWindow: MINUTE,
    keyGenerator: (request) => `venue-qr:user:${request.userId || request.ip}`,
  });

  app.get(
    '/workplaces/:workplaceId/qr.png',
    {
      onRequest: app.authenticate,
      preHandler: perUser,
      schema: { ...secured, summary: "The venue page's QR code as a PNG (the venue's admin)", params },
    },
    async (request, reply) =>
      reply
        .type(PNG)
        .header('cache-control', 'private, no-store')
        .header('content-disposition', 'attachment; filename="tipcard-venue-qr.png"')
        .send(await venuePages.qrCode(request.userId, request.params.workplaceId)),
  );

  app.get(
    '/workplaces/:workplaceId/print.pdf',
    {
      onRequest: app.authenticate,
      preHandler: perUser,
      schema: {
        ...secured,
        summary: "The venue page's QR code on a printable sheet (the venue's admin)",
        params,
        querystring: z.object({ locale: z.enum(LOCALES).default('en') }),
      },
    },
    async (request, reply) =>
      reply
        .type(PDF)
        .header('cache-control', 'private, no-store')
        .header('content-disposition', 'attachment; filename="tipcard-venue.pdf"')
        .send(await venuePages.printSheet(request.userId, request.params.workplaceId, request.query.locale)),
  );
};
