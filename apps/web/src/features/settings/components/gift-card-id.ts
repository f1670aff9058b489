const CARD_ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const AFTER_PAYMENT = new RegExp(`/payment/(${CARD_ID})`, 'i');
const ANYWHERE = new RegExp(CARD_ID, 'i');

/**
 * The card id in what the user pasted to give their balance to: a guest link `…/payment/<id>` (its `/canceled?payment=…`
 * tail names a payment, not the card), a hash link `…#/…/<id>`, or the bare id; null when there is none.
 */
export function giftCardIdOf(text: string): string | null {
  const found = AFTER_PAYMENT.exec(text)?.[1] ?? ANYWHERE.exec(text)?.[0];
  return found ? found.toLowerCase() : null;
}
