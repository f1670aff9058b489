import type { Me } from '@tipcard/shared/auth/me-schema';
import type { Card } from '@tipcard/shared/cards/schemas';
import type { Transaction } from '@tipcard/shared/transactions/schemas';

/** Ids and answers most signed-in pages start from: the user, their private client and its card. */
export const USER_ID = '0b6f8f6e-3c1d-4a57-9d0c-6b1f2a3c4d5e';
export const CLIENT_ID = '1c7a9b2d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const CARD_ID = '2d8b0c3e-5f6a-4b7c-9d8e-0f1a2b3c4d5e';

export function meAnswer(overrides: Partial<Me> = {}): Me {
  return {
    id: USER_ID,
    clients: [{ id: CLIENT_ID, type: 'private' }],
    verification_required: false,
    referral_available: true,
    phone: '+37120000000',
    public_name: 'Anna',
    welcome_phrase: null,
    public_text: null,
    photo: null,
    activity_type: 'WAITER',
    country: 'LV',
    instagram: null,
    facebook: null,
    tiktok: null,
    promo_source: null,
    referral_code: 'ANNA2026',
    deletion: null,
    ...overrides,
  };
}

export function cardAnswer(overrides: Partial<Card> = {}): Card {
  return {
    id: CARD_ID,
    client_id: CLIENT_ID,
    title: 'Anna',
    image_url: null,
    public_name: 'Anna',
    welcome_phrase: null,
    public_text: null,
    activity_type: 'WAITER',
    country: 'LV',
    instagram: null,
    facebook: null,
    tiktok: null,
    rating: null,
    preset_amounts_cents: null,
    is_private: true,
    payment_url: `http://tipcard.test/payment/${CARD_ID}`,
    thank_you_text: null,
    thank_you_image_url: null,
    ...overrides,
  };
}

/** The routes `useMyCard` reads: the user and their cards. */
export function signedInRoutes(me: Partial<Me> = {}, card: Partial<Card> = {}) {
  return {
    'GET /me': meAnswer(me),
    [`GET /clients/${CLIENT_ID}/cards`]: [cardAnswer(card)],
  };
}

/** A tip on hold, with the guest's stars and message, as the history and the overview list it. */
export function tipTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    type: 'PAYIN',
    status: 'HOLD',
    amount_cents: 1_000,
    fee_cents: 50,
    currency: 'EUR',
    created_at: '2026-03-02T09:30:00Z',
    settled_at: null,
    description: 'Tip',
    detail: { kind: 'tip', card: 'Anna' },
    message: 'Thank you, lovely service!',
    rating: 5,
    ...overrides,
  };
}

/** A payout line: money going out, no stars. */
export function payoutTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return tipTransaction({
    id: '6b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e',
    type: 'PAYOUT',
    status: 'PAID',
    amount_cents: -2_500,
    fee_cents: 200,
    description: 'Payout',
    detail: { kind: 'payout', account: 'LV•• •••• 5001' },
    message: null,
    rating: null,
    ...overrides,
  });
}
