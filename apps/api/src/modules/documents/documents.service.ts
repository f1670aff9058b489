import type { Locale } from '@tipcard/shared/constants';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { cardQrCode, listClientCards, paymentUrlOf } from '../cards/cards.service.ts';
import { listClients } from '../users/users.service.ts';
import { renderAgentsPdf } from './agents-pdf.ts';
import { renderCardPdf } from './card-pdf.ts';
import { renderTariffPdf } from './tariff-pdf.ts';

export interface DocumentsService {
  tariff(locale: Locale): Promise<Buffer>;
  agents(locale: Locale): Promise<Buffer>;
  /** The owner's card as a printable sheet; another user's card (or none) is a 404. */
  cardSheet(db: Executor, userId: string, cardId: string, locale: Locale): Promise<Buffer>;
}

/** The operator's configured details for the small print, then the site's address. */
function footerOf(config: Config): string[] {
  const { site } = config;
  return [
    site.companyName,
    site.companyRegistrationNumber,
    site.companyLicence,
    site.companyAddress,
    site.supportEmail,
    site.supportPhone,
    config.publicUrl.replace(/^https?:\/\//, ''),
  ].filter((line): line is string => Boolean(line));
}

export function createDocumentsService(config: Config): DocumentsService {
  const footer = footerOf(config);
  // The tariff and agent sheets depend only on configuration, which changes with a restart: render each once.
  const cache = new Map<string, Promise<Buffer>>();
  const once = (key: string, render: () => Promise<Buffer>) => {
    let pdf = cache.get(key);
    if (!pdf) {
      pdf = render();
      cache.set(key, pdf);
      pdf.catch(() => cache.delete(key));
    }
    return pdf;
  };
  const figures = {
    feePercent: config.payments.feePercent,
    holdHours: config.payments.holdHours,
    verificationLimitEur: config.verificationLimitCents / 100,
  };

  return {
    tariff: (locale) => once(`tariff-${locale}`, () => renderTariffPdf(locale, figures, footer)),
    agents: (locale) => once(`agents-${locale}`, () => renderAgentsPdf(locale, config.publicUrl, footer)),
    async cardSheet(db, userId, cardId, locale) {
      const paymentUrl = paymentUrlOf(config.publicUrl, cardId);
      // The QR call checks ownership first: another user's card id answers 404 here.
      const qr = await cardQrCode(db, config.publicUrl, userId, cardId, { url: paymentUrl, format: 'png' });
      const clients = await listClients(db, userId);
      const cards = (await Promise.all(clients.map((client) => listClientCards(db, config.publicUrl, userId, client.id)))).flat();
      const card = cards.find((item) => item.id === cardId);
      if (!card) throw new AppError('not_found');
      return renderCardPdf(
        {
          publicName: card.public_name,
          title: card.title,
          donation: card.activity_type === 'DONATION',
          paymentUrl,
          qrPng: qr.body as Buffer,
        },
        locale,
      );
    },
  };
}
