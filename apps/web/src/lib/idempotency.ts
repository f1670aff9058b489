import type { CreatePaymentBody } from '@tipcard/shared/payments/schemas';

/** A v4 UUID; crypto.randomUUID exists only in secure contexts, so plain-http test hosts get the same from random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What makes two submissions "the same payment" for the server (it hashes the same fields). */
function signatureOf(body: CreatePaymentBody): string {
  return JSON.stringify([body.amount_cents, body.cover_fee ?? false, body.rating ?? null, body.message?.trim() || null]);
}

/**
 * One key per intended payment: a double tap or a retry after a lost answer sends the same key, so the server makes
 * one payment and replays its answer; changing the amount, the fee choice, the rating or the message is another
 * payment and gets a new key (the server would refuse the old key with another body).
 */
export function createIdempotencyKeeper(generate: () => string = newIdempotencyKey) {
  let current: { signature: string; key: string } | null = null;
  return {
    keyFor(body: CreatePaymentBody): string {
      const signature = signatureOf(body);
      if (current?.signature !== signature) current = { signature, key: generate() };
      return current.key;
    },
    /** Forget the key: the next submission is a new payment whatever its body. */
    reset(): void {
      current = null;
    },
  };
}
