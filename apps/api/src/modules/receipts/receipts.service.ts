import type { Locale } from '@tipcard/shared/constants';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { formatMoney } from '@tipcard/shared/money/format';
import { paymentReference } from '@tipcard/shared/payments/guest-form';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { t, type TextLanguage } from '../../lib/i18n.ts';
import type { SignedIds } from '../../lib/signed-id.ts';
import { findCardFace, findCardThankYou, findThankYouPhoto } from '../cards/cards.service.ts';
import { cardOfDonation, donorOfPayment } from '../donations/donations.service.ts';
import { invoiceOfReceipt } from '../invoices/invoices.service.ts';
import { enqueueSmsAt, type MessagingService } from '../messaging/messaging.service.ts';
import { findPaymentWithShares } from '../payments/payments.service.ts';
import { findUserById } from '../users/users.service.ts';
import { renderReceiptNotFound, renderReceiptPage, type EmailOutcome } from './receipt-page.ts';
import { renderReceiptPdf } from './receipt-pdf.ts';
import { receiptPath } from './receipt-view.ts';
import type { ReceiptCompany, ReceiptView } from './receipt-view.ts';
import * as repo from './receipts.repository.ts';

export type { ReceiptCompany, ReceiptView } from './receipt-view.ts';

/** Payments a payer without an account made, which get a receipt (a card order's buyer has the app's own screens). */
const PAYER_PURPOSES = new Set(['tip', 'team_tip', 'venue_tip', 'donation', 'invoice']);

export { EMAIL_OUTCOMES, type EmailOutcome } from './receipt-page.ts';

export type ReceiptsService = ReturnType<typeof createReceiptsService>;

/**
 * Receipts for payers (docs/decisions/0042): one receipt per payment a guest, donor or invoice payer made, at a signed
 * link (`/receipts/{token}`, HTML and PDF) that names the payment but cannot be guessed from its id; the receipt
 * e-mailed to the payer who gave an address, and a refund receipt to that address with a text to each recipient,
 * once per refund, in the transaction that takes the refund from the books.
 */
export function createReceiptsService(deps: {
  db: Database;
  clock: Clock;
  messages: Pick<MessagingService, 'enqueueEmail'>;
  links: SignedIds;
  publicUrl: string;
  company: ReceiptCompany;
}) {
  const { db } = deps;

  const tokenOf = (paymentId: string) => deps.links.tokenOf(paymentId);

  /** The receipt's address in a language: the default language at the root, others under their prefix. */
  const urlOf = (paymentId: string, locale: Locale) => `${deps.publicUrl}${receiptPath(locale, tokenOf(paymentId))}`;

  /** The receipt of a payment that reached the books (credited: its shares exist), or null. */
  async function viewOf(executor: Executor, paymentId: string): Promise<ReceiptView | null> {
    const found = await findPaymentWithShares(executor, paymentId);
    if (!found || !PAYER_PURPOSES.has(found.payment.purpose) || found.shares.length === 0) return null;
    const { payment, shares } = found;
    let cardId: string | null;
    let description: string | null = null;
    let donor: ReceiptView['donor'] = null;
    if (payment.purpose === 'tip' || payment.purpose === 'team_tip' || payment.purpose === 'venue_tip')
      cardId = payment.subjectId;
    else if (payment.purpose === 'donation') {
      cardId = await cardOfDonation(executor, payment.id);
      const found = await donorOfPayment(executor, payment.id);
      donor = found ? { name: found.name, code: found.code } : null;
    } else {
      const invoice = await invoiceOfReceipt(executor, payment.subjectId);
      cardId = invoice?.cardId ?? null;
      description = invoice?.description ?? null;
    }
    const face = cardId ? await findCardFace(executor, cardId) : null;
    const thankYou = cardId ? await findCardThankYou(executor, cardId) : null;
    const refunded = Math.min(payment.refundedCents, payment.totalCents);
    return {
      paymentId: payment.id,
      reference: paymentReference(payment.id),
      recipientName: face?.public_name ?? '',
      donor,
      description,
      amountCents: payment.amountCents,
      feeCoveredCents: payment.coverFee ? payment.feeCents : 0,
      totalCents: payment.totalCents,
      refundedCents: refunded,
      status: refunded === 0 ? 'paid' : refunded === payment.totalCents ? 'refunded' : 'partly_refunded',
      // Credited when it succeeded: the shares' time is the payment's.
      paidAt: shares.reduce((first, share) => (share.createdAt < first ? share.createdAt : first), shares[0]!.createdAt),
      card: payment.cardBrand && payment.cardLast4 ? { brand: payment.cardBrand, last4: payment.cardLast4 } : null,
      thankYou: thankYou && cardId ? { cardId, text: thankYou.text, imageUrl: thankYou.image_url } : null,
      company: deps.company,
    };
  }

  /** The receipt behind a link, or not_found for anything we did not sign or that has no receipt. */
  async function viewOfToken(token: string): Promise<ReceiptView> {
    const paymentId = deps.links.idOf(token);
    const view = paymentId ? await viewOf(db, paymentId) : null;
    if (!view) throw new AppError('not_found');
    return view;
  }

  /** The receipt e-mail to the payment's stored address, in the payer's language, in the caller's transaction. */
  async function mailReceipt(tx: Executor, paymentId: string): Promise<void> {
    const contact = await repo.findContact(tx, paymentId);
    const view = contact ? await viewOf(tx, paymentId) : null;
    if (!contact || !view) return;
    const locale = contact.locale;
    const vars = {
      name: view.recipientName,
      amount: formatMoney(view.amountCents, locale),
      fee: formatMoney(view.feeCoveredCents, locale),
      total: formatMoney(view.totalCents, locale),
      date: formatDate(view.paidAt, 'longDate', locale, { timeZone: 'UTC' }),
      reference: view.reference,
      url: urlOf(paymentId, locale),
    };
    await deps.messages.enqueueEmail(tx, {
      to: contact.email,
      subject: t('receipts:mail.subject', vars, locale),
      text:
        t(view.feeCoveredCents > 0 ? 'receipts:mail.text_with_fee' : 'receipts:mail.text', vars, locale) +
        // A plain-text e-mail: the owner's words go as they are, nothing in them is markup here.
        (view.thankYou
          ? `\n\n${t('receipts:mail.thank_you', { name: view.recipientName, text: view.thankYou.text }, locale)}`
          : ''),
    });
  }

  return {
    tokenOf,
    urlOf,
    viewOfToken,

    /** The receipt's link for a payment's success page, or null while it has none (not yet credited, a card order). */
    async linkOf(paymentId: string, locale: Locale): Promise<string | null> {
      return (await viewOf(db, paymentId)) ? urlOf(paymentId, locale) : null;
    },

    /** The receipt page in a language, with what its e-mail form's last sending came to. */
    async pageOf(token: string, locale: TextLanguage, outcome: EmailOutcome | null): Promise<string> {
      return renderReceiptPage(await viewOfToken(token), token, locale, outcome);
    },
    notFoundPage: renderReceiptNotFound,

    /** The receipt as a PDF in a language. */
    async pdfOf(token: string, locale: Locale): Promise<{ filename: string; content: Buffer }> {
      const view = await viewOfToken(token);
      const photo = view.thankYou?.imageUrl ? await findThankYouPhoto(db, view.thankYou.cardId) : null;
      return { filename: `receipt-${view.reference}.pdf`, content: await renderReceiptPdf(view, locale, photo) };
    },

    /**
     * Remembers where the payer wants the payment's receipts (in the caller's transaction: a donation's checkout
     * stores its donor's address with the payment). Nothing is sent yet.
     */
    async remember(tx: Executor, paymentId: string, email: string, locale: Locale): Promise<void> {
      await repo.saveContact(tx, paymentId, email, locale, deps.clock.now());
    },

    mailReceipt,

    /** Where the payer asked the payment's receipts to go (address and language), or null: a tip's answer goes there. */
    async contactOf(executor: Executor, paymentId: string): Promise<{ email: string; locale: Locale } | null> {
      const contact = await repo.findContact(executor, paymentId);
      return contact ? { email: contact.email, locale: contact.locale } : null;
    },

    /**
     * A payer asks for the receipt by e-mail (the success page, the receipt page): the address is kept for the
     * payment's refund receipts too. not_found for a payment without a receipt.
     */
    async sendTo(paymentId: string, email: string, locale: Locale): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await viewOf(tx, paymentId))) throw new AppError('not_found');
        await repo.saveContact(tx, paymentId, email, locale, deps.clock.now());
        await mailReceipt(tx, paymentId);
      });
    },

    /**
     * A refund reached the books (payments' `onRefunded`, in the transaction that took it back): the payer gets the
     * refund receipt at their stored address and each recipient a text in their language (unless they turned refund
     * texts off). The notice row names the refunded total, so a replayed or re-asked provider event tells nobody twice.
     */
    async noticeRefund(tx: Transaction, paymentId: string, now: Date): Promise<void> {
      const view = await viewOf(tx, paymentId);
      if (!view || view.refundedCents === 0) return;
      const before = await repo.lastNoticedRefund(tx, paymentId);
      if (view.refundedCents <= before || !(await repo.insertNoticeOnce(tx, paymentId, view.refundedCents, now))) return;
      const refundCents = view.refundedCents - before;
      const contact = await repo.findContact(tx, paymentId);
      if (contact) {
        const locale = contact.locale;
        const vars = {
          name: view.recipientName,
          amount: formatMoney(refundCents, locale),
          total: formatMoney(view.totalCents, locale),
          refunded: formatMoney(view.refundedCents, locale),
          date: formatDate(now, 'longDate', locale, { timeZone: 'UTC' }),
          reference: view.reference,
          url: urlOf(paymentId, locale),
        };
        await deps.messages.enqueueEmail(tx, {
          to: contact.email,
          subject: t('receipts:mail.refund_subject', vars, locale),
          text: t('receipts:mail.refund_text', vars, locale),
        });
      }
      const found = await findPaymentWithShares(tx, paymentId);
      const recipients = new Set(found?.shares.flatMap((share) => (share.userId ? [share.userId] : [])));
      for (const userId of recipients) {
        const user = await findUserById(tx, userId);
        // A deleted or erased account is told nothing: its money goes back to the payer by itself (decision 0024).
        if (!user?.smsRefunds || user.deletedAt || user.erasedAt) continue;
        const body = t(
          'sms.payment_refunded',
          { amount: formatMoney(refundCents, user.language), ref: view.reference },
          user.language,
        );
        await enqueueSmsAt(tx, { to: user.phone, body }, now);
      }
    },
  };
}
