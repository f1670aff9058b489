import { UUID_PATTERN } from '@tipcard/shared/uuid';

const AFTER_PAYMENT = new RegExp(`/payment/(${UUID_PATTERN})`, 'i');
const ANYWHERE = new RegExp(UUID_PATTERN, 'i');

/**
 * The card id in what the user pasted to give their balance to: a guest link `…/payment/<id>` (its `/canceled?payment=…`
 * tail names a payment, not the card), a hash link `…#/…/<id>`, or the bare id; null when there is none.
 */
export function giftCardIdOf(text: string): string | null {
  const found = AFTER_PAYMENT.exec(text)?.[1] ?? ANYWHERE.exec(text)?.[0];
  return found ? found.toLowerCase() : null;
}
