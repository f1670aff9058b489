import { ACCESS_TOKEN_TTL_SECONDS } from '@tipcard/shared/constants';
import { describe, expect, it } from 'vitest';
import { accessTokenKeys, signAccessToken, verifyAccessToken } from './access-token.ts';

const keys = accessTokenKeys('a test secret of at least thirty-two characters');
const claims = { userId: '0b9f5f5e-7a4c-4c1e-9d7a-2f1f6a0c9e11', sessionVersion: 3 };
const at = (iso: string) => new Date(iso);

describe('access tokens verified once per process', () => {
  it('answers a remembered token by its times as jose would: valid until it expires, never before it was issued', async () => {
    const token = await signAccessToken(keys, claims, at('2026-11-20T10:00:00Z'));
    expect(await verifyAccessToken(keys, token, at('2026-11-20T10:00:00Z'))).toEqual(claims);
    expect(await verifyAccessToken(keys, token, at('2026-11-20T10:05:00Z'))).toEqual(claims);
    const expiry = new Date(Date.parse('2026-11-20T10:00:00Z') + ACCESS_TOKEN_TTL_SECONDS * 1000);
    expect(await verifyAccessToken(keys, token, expiry)).toBeNull();
    expect(await verifyAccessToken(keys, token, at('2026-11-20T09:59:58Z'))).toBeNull();
    // Still what a fresh process answers (jose's own checks).
    const fresh = accessTokenKeys('a test secret of at least thirty-two characters');
    expect(await verifyAccessToken(fresh, token, expiry)).toBeNull();
    expect(await verifyAccessToken(fresh, token, at('2026-11-20T09:59:58Z'))).toBeNull();
  });

  it('never takes a forged token for a remembered one', async () => {
    const token = await signAccessToken(keys, claims, at('2026-11-20T10:00:00Z'));
    expect(await verifyAccessToken(keys, token, at('2026-11-20T10:00:00Z'))).toEqual(claims);
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(
      JSON.stringify({ sv: 0, sub: claims.userId, iss: 'tipcard', aud: 'tipcard-api', iat: 1, exp: 9e9 }),
    ).toString('base64url');
    expect(await verifyAccessToken(keys, `${header}.${payload}.${signature}`, at('2026-11-20T10:00:00Z'))).toBeNull();
    const other = accessTokenKeys('another secret of at least thirty-two characters!');
    expect(await verifyAccessToken(other, token, at('2026-11-20T10:00:00Z'))).toBeNull();
  });
});
