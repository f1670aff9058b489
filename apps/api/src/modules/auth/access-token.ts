import { SignJWT, errors, jwtVerify, type JWTVerifyOptions } from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '@tipcard/shared/constants';
import { isUuid } from '@tipcard/shared/uuid';
import { BoundedCache } from '../../lib/http-cache.ts';

const ISSUER = 'tipcard';
const AUDIENCE = 'tipcard-api';

export interface AccessTokenKeys {
  /** Signs every new token (JWT_SECRET). */
  secret: Uint8Array;
  /** Still accepted when verifying (JWT_SECRET_PREVIOUS, during a rotation): tokens signed before it stay good. */
  previous: Uint8Array | undefined;
}

export const accessTokenKeys = (secret: string, previous?: string): AccessTokenKeys => ({
  secret: new TextEncoder().encode(secret),
  previous: previous ? new TextEncoder().encode(previous) : undefined,
});

/**
 * jwtVerify under the current key, and under the previous one only when the signature is what failed: a token the
 * old key signed is still checked for its expiry, audience and claims like any other.
 */
export async function verifyUnderKeys(token: string, keys: AccessTokenKeys, options: JWTVerifyOptions) {
  try {
    return await jwtVerify(token, keys.secret, options);
  } catch (error) {
    if (!keys.previous || !(error instanceof errors.JWSSignatureVerificationFailed)) throw error;
    return jwtVerify(token, keys.previous, options);
  }
}

/** What a valid access token says: whose it is, and the user's session version it was issued under. */
export interface AccessTokenClaims {
  userId: string;
  sessionVersion: number;
}

export function signAccessToken(
  keys: AccessTokenKeys,
  { userId, sessionVersion }: AccessTokenClaims,
  now: Date,
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sv: sessionVersion })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_TTL_SECONDS)
    .sign(keys.secret);
}

/** Tokens verified by this process, per key set: a signed-in client sends the same token with every call. */
const VERIFIED_TOKENS = 10_000;
const verifiedTokens = new WeakMap<AccessTokenKeys, BoundedCache<AccessTokenClaims & { iat: number; exp: number }>>();

/**
 * The claims of a valid access token, or null for anything expired, forged or malformed. A token this process has
 * verified is remembered with its times (an HMAC check through WebCrypto cost a signed-in call more than its
 * routing): only its times are checked again, as jose would (`exp` after now, issued at most the token's life ago and
 * not in the future). Its session is still asked of the database on every call (plugins/auth.ts).
 */
export async function verifyAccessToken(keys: AccessTokenKeys, token: string, now: Date): Promise<AccessTokenClaims | null> {
  let verified = verifiedTokens.get(keys);
  if (!verified) {
    verified = new BoundedCache(VERIFIED_TOKENS);
    verifiedTokens.set(keys, verified);
  }
  const seconds = Math.floor(now.getTime() / 1000);
  const known = verified.get(token);
  if (known) {
    const age = seconds - known.iat;
    return known.exp > seconds && age >= 0 && age <= ACCESS_TOKEN_TTL_SECONDS
      ? { userId: known.userId, sessionVersion: known.sessionVersion }
      : null;
  }
  try {
    const { payload } = await verifyUnderKeys(token, keys, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: now,
      // A token we did not make the way signAccessToken does is refused, even when validly signed: no expiry, no
      // issue time, one older than an access token lives, or a subject that is not a user id (it reaches SQL).
      requiredClaims: ['exp', 'iat', 'sub', 'sv'],
      maxTokenAge: ACCESS_TOKEN_TTL_SECONDS,
    });
    const { sub, sv, iat, exp } = payload;
    if (!sub || !isUuid(sub) || !Number.isSafeInteger(sv)) return null;
    const claims = { userId: sub, sessionVersion: sv as number };
    verified.set(token, { ...claims, iat: iat!, exp: exp! });
    return claims;
  } catch {
    return null;
  }
}
