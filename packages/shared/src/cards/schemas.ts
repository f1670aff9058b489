import { z } from 'zod';
import { ACTIVITY_TYPES } from '../constants.ts';
import { SERVED_COUNTRIES } from '../auth/phone.ts';
import { optionalString, requiredString, rule } from '../validation.ts';
import { presetAmountsBody } from './presets.ts';

/** A link to a profile on one social network: https on that network's host, or empty. */
function socialLink(host: string) {
  return optionalString(200).refine((value) => {
    if (value === null) return true;
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && (url.hostname === host || url.hostname.endsWith(`.${host}`));
    } catch {
      return false;
    }
  }, rule('url'));
}

/** A thank-you is a short note, not a page: about a text message's length. */
export const THANK_YOU_MAX_LENGTH = 280;

export const cardBody = z.object({
  title: requiredString(60),
  public_name: requiredString(60),
  welcome_phrase: optionalString(160),
  public_text: optionalString(500),
  activity_type: z.enum(ACTIVITY_TYPES, { error: rule('choice') }),
  country: z.enum(SERVED_COUNTRIES as [string, ...string[]], { error: rule('country') }),
  instagram: socialLink('instagram.com'),
  facebook: socialLink('facebook.com'),
  tiktok: socialLink('tiktok.com'),
  /** The amounts the guest page offers first; null (or left out) follows the card's activity. */
  preset_amounts_cents: presetAmountsBody.optional(),
  /** What the guest reads after paying (success page, receipt): plain text, shown escaped; empty removes it. */
  thank_you_text: optionalString(THANK_YOU_MAX_LENGTH).optional(),
});
export type CardBody = z.input<typeof cardBody>;

export const cardPatchBody = cardBody.partial();
export type CardPatchBody = z.input<typeof cardPatchBody>;

export const cardSchema = z.object({
  id: z.uuid(),
  client_id: z.uuid(),
  title: z.string(),
  image_url: z.string().nullable(),
  public_name: z.string(),
  welcome_phrase: z.string().nullable(),
  public_text: z.string().nullable(),
  activity_type: z.enum(ACTIVITY_TYPES),
  country: z.string(),
  instagram: z.string().nullable(),
  facebook: z.string().nullable(),
  tiktok: z.string().nullable(),
  rating: z.number().nullable(),
  /** The owner's own amounts, or null while the card offers its activity's. */
  preset_amounts_cents: z.array(z.number().int()).nullable(),
  is_private: z.boolean(),
  /** The public payment page of this card, the URL its QR code encodes. */
  payment_url: z.string(),
  thank_you_text: z.string().nullable(),
  /** The photo shown with the thank-you (JPEG, re-encoded like the card photo); null without one. */
  thank_you_image_url: z.string().nullable(),
});
export type Card = z.infer<typeof cardSchema>;

/** Uploads travel as base64 in JSON (spec 3 "Attachment"). */
export const uploadBody = z.object({
  // The request body limit (413) bounds the size; this bound only keeps the schema finite.
  content: requiredString(20_000_000),
  name: requiredString(200),
  mime: requiredString(100),
});
export type UploadBody = z.input<typeof uploadBody>;

export const qrCodeQuery = z.object({
  url: requiredString(500),
  hexColor: z
    .string()
    .regex(/^#?[0-9a-fA-F]{6}$/, rule('color'))
    .optional(),
});
