import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pseudoCatalogs } from '../../lib/i18n.ts';

/**
 * GET /api/dev/pseudo-catalogs: every namespace in the pseudo-locale, for a web app whose `locale` cookie asks for it
 * (lib/pseudo-locale.ts). Registered only outside production (`config.pseudoLocale`), so a production user cannot get
 * the pseudo-locale whatever they set: the web app finds no catalogs and stays in its language (decision 0035).
 */
export const pseudoLocaleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dev/pseudo-catalogs',
    { schema: { tags: ['dev'], summary: 'Every text in the pseudo-locale (development only)' } },
    async () => ({ data: pseudoCatalogs() }),
  );
};
