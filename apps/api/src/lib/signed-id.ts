import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_ID = /^[0-9a-f]{32}$/;
const SIGNATURE_LENGTH = 32;

/**
 * Links that name a row and cannot be guessed or altered into another row's: the UUID in 32 hex characters and an
 * HMAC of it under a secret and a purpose, 64 hex characters in all. The purpose keeps one kind of link from opening
 * another kind's row (a donor's action, a payer's receipt).
 */
export function createSignedIds(purpose: string, secret: string) {
  const signatureOf = (hexId: string) =>
    createHmac('sha256', `${purpose}:${secret}`).update(hexId).digest('hex').slice(0, SIGNATURE_LENGTH);
  return {
    tokenOf(id: string): string {
      const hexId = id.replaceAll('-', '');
      return `${hexId}${signatureOf(hexId)}`;
    },
    /** The id when the token is one we signed; null for anything forged, altered or malformed. */
    idOf(token: string): string | null {
      const hexId = token.slice(0, 32).toLowerCase();
      const signature = token.slice(32);
      if (!HEX_ID.test(hexId) || signature.length !== SIGNATURE_LENGTH) return null;
      if (!timingSafeEqual(Buffer.from(signature), Buffer.from(signatureOf(hexId)))) return null;
      return `${hexId.slice(0, 8)}-${hexId.slice(8, 12)}-${hexId.slice(12, 16)}-${hexId.slice(16, 20)}-${hexId.slice(20)}`;
    },
  };
}
export type SignedIds = ReturnType<typeof createSignedIds>;
