import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** A numeric code from the CSPRNG, e.g. the 6 digits of an SMS. */
export function newNumericCode(length: number): string {
  return Array.from({ length }, () => randomInt(10)).join('');
}

/**
 * The stored form of a code: an HMAC with a server secret over what the code is bound to and the code, so a leaked
 * table gives no code away and a code is worth nothing for anything else than what it was made for.
 */
export function hashCode(pepper: string, binding: readonly (string | number)[], code: string): string {
  return createHmac('sha256', pepper)
    .update(JSON.stringify([...binding, code]))
    .digest('hex');
}

/** Constant-time comparison of two hex hashes. */
export function hashesMatch(expectedHex: string, actualHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  const actual = Buffer.from(actualHex, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
