import { z } from 'zod';
import { requiredString, rule } from '../validation.ts';
import { INVOICE_DESCRIPTION_MAX_LENGTH, INVOICE_MAX_CENTS, INVOICE_MIN_CENTS } from './limits.ts';

export const INVOICE_STATUSES = ['open', 'paid', 'canceled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** POST /api/clients/{id}/invoices. */
export const createInvoiceBody = z.object({
  description: requiredString(INVOICE_DESCRIPTION_MAX_LENGTH),
  amount_cents: z
    .number({ error: rule('number') })
    .int(rule('number'))
    .min(INVOICE_MIN_CENTS, rule('invoice_amount_range'))
    .max(INVOICE_MAX_CENTS, rule('invoice_amount_range')),
});
export type CreateInvoiceBody = z.input<typeof createInvoiceBody>;

/** An invoice as its owner sees it. `url` is the public page to share (its QR code encodes the same). */
export const invoiceSchema = z.object({
  id: z.uuid(),
  description: z.string(),
  amount_cents: z.number().int(),
  currency: z.literal('EUR'),
  status: z.enum(INVOICE_STATUSES),
  url: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  canceled_at: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** An invoice as the payer sees it (GET /api/public/invoices/{id}, and inlined into /invoice/{id}). */
export const publicInvoiceSchema = z.object({
  id: z.uuid(),
  description: z.string(),
  amount_cents: z.number().int(),
  currency: z.literal('EUR'),
  status: z.enum(INVOICE_STATUSES),
  /** Who asks: the public face of the owner's card. */
  recipient: z.object({ public_name: z.string(), title: z.string(), image_url: z.string().nullable() }),
});
export type PublicInvoice = z.infer<typeof publicInvoiceSchema>;

/** POST /api/public/invoices/{id}/payments, with an Idempotency-Key header. */
export const payInvoiceBody = z.object({
  terms_accepted: z.literal(true, { error: rule('terms_accepted') }),
});
export type PayInvoiceBody = z.input<typeof payInvoiceBody>;
