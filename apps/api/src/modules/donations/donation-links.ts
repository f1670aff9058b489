import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_ID = /^[0-9a-f]{32}$/;
const SIGNATURE_LENGTH = 32;

/**
 * The `/actions/{actionId}` links of a monthly donor's e-mails: the action row's id and an HMAC of it under
 * ACTION_LINK_SECRET, in 64 hex characters, so a link cannot be guessed or altered into another action's.
 */
export function createActionLinks(secret: string) {
  const signatureOf = (hexId: string) =>
    createHmac('sha256', `donation-action:${secret}`).update(hexId).digest('hex').slice(0, SIGNATURE_LENGTH);
  return {
    tokenOf(actionId: string): string {
      const hexId = actionId.replaceAll('-', '');
      return `${hexId}${signatureOf(hexId)}`;
    },
    /** The action's id when the token is one we signed; null for anything forged, altered or malformed. */
    actionIdOf(token: string): string | null {
      const hexId = token.slice(0, 32).toLowerCase();
      const signature = token.slice(32);
      if (!HEX_ID.test(hexId) || signature.length !== SIGNATURE_LENGTH) return null;
      if (!timingSafeEqual(Buffer.from(signature), Buffer.from(signatureOf(hexId)))) return null;
      return `${hexId.slice(0, 8)}-${hexId.slice(8, 12)}-${hexId.slice(12, 16)}-${hexId.slice(16, 20)}-${hexId.slice(20)}`;
    },
  };
}
export type ActionLinks = ReturnType<typeof createActionLinks>;
