import type { PublicCard, PublicPayment } from '@tipcard/shared/payments/schemas';

/** A guest's view of a waiter's card and of a payment to it, for the tests of the guest pages (tips, invoices). */
export const GUEST_CARD_ID = '9b2f6b8e-2a55-4c4e-9a43-6a8f3a6c1d10';
export const GUEST_PAYMENT_ID = '5a1c2e3f-4b5d-4e6f-8a7b-9c0d1e2f3a4b';
export const CHECKOUT_URL = 'https://checkout.walletto.test/session/s1';

export function publicCard(overrides: Partial<PublicCard> = {}): PublicCard {
  return {
    id: GUEST_CARD_ID,
    title: 'Bar Riga',
    public_name: 'Anna',
    welcome_phrase: null,
    public_text: null,
    image_url: null,
    activity_type: 'WAITER',
    rating: null,
    rating_count: 0,
    currency: 'EUR',
    fee_percent: 5,
    min_amount_cents: 100,
    max_amount_cents: 50_000,
    preset_amounts_cents: [300, 500, 1000, 2000],
    ...overrides,
  };
}

export function publicPayment(overrides: Partial<PublicPayment> = {}): PublicPayment {
  return {
    id: GUEST_PAYMENT_ID,
    card_id: GUEST_CARD_ID,
    status: 'pending',
    amount_cents: 500,
    fee_cents: 25,
    total_cents: 500,
    receipt_url: null,
    cover_fee: false,
    currency: 'EUR',
    checkout_url: CHECKOUT_URL,
    created_at: '2026-11-26T10:00:00Z',
    ...overrides,
  };
}
