import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hashPassword,
  hotp,
  isStrongPassword,
  matchTotp,
  seal,
  totpCode,
  totpStep,
  unseal,
  unsealUnderAny,
  verifyPassword,
} from './credentials.ts';

describe('TOTP (RFC 6238 appendix B vectors, SHA-1, 8 digits)', () => {
  const key = Buffer.from('12345678901234567890');
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i s the code is %s', (seconds, code) => {
    expect(hotp(key, Math.floor(seconds / 30), 8)).toBe(code);
  });

  it('accepts the current step and one either side, nothing further', () => {
    const secret = base32Encode(key);
    const now = new Date(1_700_000_000_000);
    const step = totpStep(now);
    expect(matchTotp(secret, totpCode(secret, step), now)).toBe(step);
    expect(matchTotp(secret, totpCode(secret, step - 1), now)).toBe(step - 1);
    expect(matchTotp(secret, totpCode(secret, step + 1), now)).toBe(step + 1);
    expect(matchTotp(secret, totpCode(secret, step - 2), now)).toBeUndefined();
    expect(matchTotp(secret, 'abcdef', now)).toBeUndefined();
  });
});

describe('credentials', () => {
  it('base32 round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        expect([...base32Decode(base32Encode(bytes))]).toEqual([...bytes]);
      }),
    );
  });

  it('the spec password rule', () => {
    expect(isStrongPassword('Abcdefg1')).toBe(true);
    for (const weak of ['Abcdef1', 'abcdefg1', 'ABCDEFG1', 'Abcdefgh']) expect(isStrongPassword(weak)).toBe(false);
  });

  it('a password verifies against its hash only', async () => {
    const stored = await hashPassword('Correct-Horse1');
    expect(stored).not.toContain('Correct-Horse1');
    expect(await verifyPassword(stored, 'Correct-Horse1')).toBe(true);
    expect(await verifyPassword(stored, 'Correct-Horse2')).toBe(false);
  });

  it('a sealed secret opens only with the same server secret', () => {
    const sealed = seal('server-secret-one', 'JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(unseal('server-secret-one', sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(() => unseal('server-secret-two', sealed)).toThrow();
  });

  it('during a rotation a sealed secret opens with the current or the previous server secret, and says which', () => {
    const sealedBefore = seal('old-server-secret', 'JBSWY3DPEHPK3PXP');
    const sealedAfter = seal('new-server-secret', 'JBSWY3DPEHPK3PXP');
    expect(unsealUnderAny(['new-server-secret', 'old-server-secret'], sealedBefore)).toEqual({
      plain: 'JBSWY3DPEHPK3PXP',
      serverSecret: 'old-server-secret',
    });
    expect(unsealUnderAny(['new-server-secret', undefined], sealedAfter).serverSecret).toBe('new-server-secret');
    expect(() => unsealUnderAny(['new-server-secret', undefined], sealedBefore)).toThrow();
  });
});
