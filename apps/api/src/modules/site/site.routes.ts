import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACCESS_TOKEN_COOKIE, CONSENT_CHOSEN_COOKIE, DEFAULT_LOCALE, LOCALES, type Locale } from '@tipcard/shared/constants';
import { SITE_PAGES } from '@tipcard/shared/site/pages';
import { errorReportingSchema, siteInfoSchema, type ErrorReportingInfo, type SiteInfo } from '@tipcard/shared/site/schemas';
import { requestLocale } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import { landingPageRenderer, sendShell } from '../web-shell/web-shell.service.ts';
import { pageMetaOf, skeletonFiguresOf, type FirstViewService } from './site.service.ts';

/** GET /api/site: the operator's details and the anti-bot site key, for the web app's header, footer and forms. */
export const siteInfoRoutes: FastifyPluginAsyncZod<{ info: SiteInfo; errorReporting: ErrorReportingInfo }> = async (
  app,
  { info, errorReporting },
) => {
  app.get(
    '/site',
    {
      schema: {
        tags: ['site'],
        summary: 'Company details, contacts and the anti-bot site key',
        response: { 200: data(siteInfoSchema) },
      },
    },
    // Configuration changes only with a restart: a few minutes of caching is safe.
    async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send({ data: info }),
  );

  app.get(
    '/error-reporting',
    {
      schema: {
        tags: ['site'],
        summary: "Where the web app reports its errors (Sentry's public DSN), or null when reporting is off",
        response: { 200: data(errorReportingSchema) },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send({ data: errorReporting }),
  );
};

/**
 * The public pages' path forms (`/about`, `/lv/faq`, …) answered with the app and each page's head in its language,
 * the site details inlined so the header and footer need no extra request.
 */
export const sitePagesRoutes: FastifyPluginAsyncZod<{ info: SiteInfo; firstViews: FirstViewService }> = async (
  app,
  { info, firstViews },
) => {
  // The landing's markup depends on nothing but its language and whether the cookie banner is on it: rendered once
  // per language and banner and process.
  const landing = new Map<string, Promise<string | undefined>>();
  const landingHtml = (locale: Locale, cookieBanner: boolean) => {
    const key = `${locale}:${cookieBanner}`;
    let html = landing.get(key);
    if (!html) {
      html = landingPageRenderer(app.config.webLandingEntry)
        .then((render) => render?.(locale, { cookieBanner }))
        .catch((error: unknown) => {
          // Served unrendered (the app renders it) rather than failing the home page.
          app.log.error({ err: error }, 'landing page server render failed');
          return undefined;
        });
      landing.set(key, html);
    }
    return html;
  };
  // The page is served without the figures rather than failing when they cannot be read (the app asks for them).
  const firstViewOf = (token: string, locale: Locale) =>
    firstViews.ofToken(token, locale).catch((error: unknown) => {
      app.log.warn({ err: error }, 'the first view of a signed-in home page could not be read');
      return null;
    });
  for (const locale of LOCALES) {
    for (const page of SITE_PAGES) {
      const url = locale === DEFAULT_LOCALE ? page : page === '/' ? `/${locale}` : `/${locale}${page}`;
      app.get(url, { schema: { hide: true } }, async (request, reply) => {
        // The landing page, the most visited first paint, comes rendered with its CSS inlined (bench:web, LCP);
        // the other pages are served for the app to render. Unprefixed, the app shows the visitor's language
        // (cookie, then the browser's): rendered only when that is the path's, so no other language flashes first.
        const sameLanguage = locale !== DEFAULT_LOCALE || requestLocale(request) === DEFAULT_LOCALE;
        // The cookie banner is drawn with it until the visitor has chosen (decision 0052), so the answer depends on
        // the cookies (and, unprefixed, on the visitor's languages).
        const cookieBanner = request.cookies?.[CONSENT_CHOSEN_COOKIE] === undefined;
        // A signed-in visitor never sees the landing (the app goes on to the overview, where the installed app also
        // starts): the home page is the signed-in layout's skeleton instead (decision 0056). The access token's
        // cookie is only a hint here; the app checks the session as on any page.
        const token = page === '/' ? request.cookies?.[ACCESS_TOKEN_COOKIE] : undefined;
        const signedIn = token !== undefined;
        // For a token that verifies, the overview's first answers come with the page and its balances are drawn into
        // the skeleton, in the language the app will start in (decision 0063); anything else is the plain skeleton.
        const firstView = token === undefined ? null : await firstViewOf(token, requestLocale(request));
        const html = page === '/' && sameLanguage && !signedIn ? await landingHtml(locale, cookieBanner) : undefined;
        if (page === '/') reply.header('vary', locale === DEFAULT_LOCALE ? 'Accept-Language, Cookie' : 'Cookie');
        return sendShell(reply, {
          locale,
          path: page,
          localized: true,
          ...pageMetaOf(page, locale),
          data: { site: info },
          ...(signedIn ? { signedIn } : {}),
          ...(firstView ? { firstView: skeletonFiguresOf(firstView) } : {}),
          // After the paint the landing's own script starts, and the app only when the visitor goes into it.
          ...(html === undefined ? {} : { html, bootAfterPaint: true, landingIsland: true }),
        });
      });
    }
  }
};

/** SHORT_LINKS: each configured short path redirects to its card's payment page. */
export const shortLinksRoutes: FastifyPluginAsyncZod<{ links: Record<string, string> }> = async (app, { links }) => {
  for (const [name, cardId] of Object.entries(links)) {
    app.get(`/${name}`, { schema: { hide: true } }, (request, reply) => {
      // The query goes along, so an advert parameter on a printed short link still counts.
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.redirect(`/payment/${cardId}${query}`, 302);
    });
  }
};
