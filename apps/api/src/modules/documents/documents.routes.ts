import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LOCALES } from '@tipcard/shared/constants';
import { AGENT_SHEET_LOCALES, agentsPdfPath, tariffPdfPath } from '@tipcard/shared/site/pages';
import type { DocumentsService } from './documents.service.ts';

const PDF = 'application/pdf';

/** The tariff and print-for-agents PDFs as plain files, linked from the footer and the affiliate page. */
export const documentFilesRoutes: FastifyPluginAsyncZod<{ documents: DocumentsService }> = async (app, { documents }) => {
  const serve = (path: string, render: () => Promise<Buffer>) =>
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(PDF)
        .header('cache-control', 'public, max-age=3600')
        .header('content-disposition', `inline; filename="tipcard-${path.split('/').pop()}"`)
        .send(await render()),
    );
  for (const locale of LOCALES) serve(tariffPdfPath(locale), () => documents.tariff(locale));
  for (const locale of AGENT_SHEET_LOCALES) serve(agentsPdfPath(locale), () => documents.agents(locale));
};

/** GET /api/cards/{id}/print.pdf: the owner's card, ready to print. */
export const cardSheetRoutes: FastifyPluginAsyncZod<{ documents: DocumentsService }> = async (app, { documents }) => {
  app.get(
    '/cards/:cardId/print.pdf',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['cards'],
        security: [{ bearer: [] }],
        summary: 'The card as a printable PDF: QR code, public name and a one-line instruction',
        params: z.object({ cardId: z.uuid() }),
        querystring: z.object({ locale: z.enum(LOCALES).default('en') }),
      },
    },
    async (request, reply) => {
      const pdf = await documents.cardSheet(request.userId, request.params.cardId, request.query.locale);
      return reply
        .type(PDF)
        .header('cache-control', 'private, no-store')
        .header('content-disposition', 'attachment; filename="tipcard-card.pdf"')
        .send(pdf);
    },
  );
};
