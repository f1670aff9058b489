import { z } from 'zod';
import { SERVED_COUNTRIES } from '../auth/phone.ts';
import { optionalString, requiredString, rule } from '../validation.ts';

/** Card shop limits (spec 5 and 9, DESIGN "Card shop"). */
export const CARD_ORDER_MAX_ITEMS = 3;
export const CARD_ORDER_MAX_ITEMS_PER_USER = 10;
/** Working days from production to the door (spec 9). */
export const CARD_DELIVERY_DAYS = { min: 3, max: 4 } as const;

export const CARD_PRODUCTS = ['card', 'sticker'] as const;
export type CardProductId = (typeof CARD_PRODUCTS)[number];

export const CARD_ORDER_STATUSES = ['awaiting_payment', 'placed', 'in_production', 'shipped', 'delivered', 'canceled'] as const;
export type CardOrderStatus = (typeof CARD_ORDER_STATUSES)[number];

export const cardProductSchema = z.object({
  id: z.enum(CARD_PRODUCTS),
  /** The printed size without bleed, in millimetres. */
  width_mm: z.number(),
  height_mm: z.number(),
  bleed_mm: z.number(),
  /** What one item costs in an order after the free first one. */
  unit_price_cents: z.number().int(),
  currency: z.literal('EUR'),
});
export type CardProduct = z.infer<typeof cardProductSchema>;

/** The order form (spec 3 "Card order"). More than 3 items is refused by the server with the spec's own text. */
export const cardOrderBody = z.object({
  /** The card to print: the user's own (the default) or a team card they run. */
  card_id: z.uuid(rule('choice')).optional(),
  product: z.enum(CARD_PRODUCTS, { error: rule('choice') }),
  // A JSON number, never coerced: true, "0x2" and [2] are not quantities (the form registers its select as a number).
  quantity: z
    .number({ error: rule('number') })
    .int(rule('number'))
    .min(1, rule('number'))
    .max(1000, rule('number')),
  country: z.enum(SERVED_COUNTRIES as [string, ...string[]], { error: rule('country') }),
  city: requiredString(100),
  address: requiredString(200),
  apartment: optionalString(30),
  zip: requiredString(20),
  first_name: requiredString(60),
  last_name: requiredString(60),
  additional_info: optionalString(500),
});
export type CardOrderBody = z.input<typeof cardOrderBody>;

export const cardOrderSchema = z.object({
  id: z.uuid(),
  /** The card it prints. */
  card_id: z.uuid(),
  product: z.enum(CARD_PRODUCTS),
  quantity: z.number().int(),
  status: z.enum(CARD_ORDER_STATUSES),
  free: z.boolean(),
  total_cents: z.number().int(),
  currency: z.literal('EUR'),
  country: z.string(),
  city: z.string(),
  address: z.string(),
  apartment: z.string().nullable(),
  zip: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  additional_info: z.string().nullable(),
  tracking_reference: z.string().nullable(),
  /** Where the user pays an order awaiting payment; null otherwise. */
  checkout_url: z.string().nullable(),
  created_at: z.string(),
  placed_at: z.string().nullable(),
  shipped_at: z.string().nullable(),
});
export type CardOrder = z.infer<typeof cardOrderSchema>;

/** The user's orders and what the next order may be. */
export const cardOrdersSchema = z.object({
  orders: z.array(cardOrderSchema),
  /** The next order is the free first one. */
  next_order_free: z.boolean(),
  items_ordered: z.number().int(),
  items_left: z.number().int(),
  max_items_per_order: z.number().int(),
  unit_price_cents: z.number().int(),
});
export type CardOrders = z.infer<typeof cardOrdersSchema>;
