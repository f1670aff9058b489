import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * The operators' secrets: scrypt password hashes, RFC 6238 TOTP (SHA-1, 30 s, 6 digits: what every authenticator
 * app speaks) and the TOTP secret sealed at rest with a key derived from JWT_SECRET. Written here on node:crypto
 * rather than with otplib: the whole of TOTP is an HMAC and a truncation, and the RFC's vectors test it.
 */

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;
const SCRYPT = { N: 16_384, r: 8, p: 1 };

/** The spec's password rule: at least 8 characters, one upper-case letter, one lower-case letter, one digit. */
export function isStrongPassword(password: string): boolean {
  return password.length >= 8 && /[A-Z]/.test(password) && /[a-z]/.test(password) && /[0-9]/.test(password);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize('NFKC'), salt, 32, SCRYPT);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, SCRYPT);
  return timingSafeEqual(expected, actual);
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

export const TOTP_PERIOD_SECONDS = 30;

/** A new 160-bit TOTP secret, base32 as authenticator apps take it. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20));

export const totpStep = (now: Date): number => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/** RFC 4226 HOTP of one counter value with the key as raw bytes; `digits` long. */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export const totpCode = (secretBase32: string, step: number): string => hotp(base32Decode(secretBase32), step);

/**
 * The time step a code belongs to, allowing one step of clock drift either way, or undefined for a wrong code.
 * The caller refuses a step at or before the last one accepted (a replay within the window).
 */
export function matchTotp(secretBase32: string, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const current = totpStep(now);
  for (const step of [current - 1, current, current + 1]) {
    const expected = Buffer.from(totpCode(secretBase32, step));
    if (timingSafeEqual(expected, Buffer.from(code))) return step;
  }
  return undefined;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpauthUri(secretBase32: string, email: string, issuer = 'Tipcard Ops'): string {
  const label = encodeURIComponent(`${issuer}:${email}`);
  return `otpauth://totp/${label}?secret=${secretBase32}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=${TOTP_PERIOD_SECONDS}`;
}

const sealKey = (serverSecret: string) => createHash('sha256').update(`tipcard-ops-totp:${serverSecret}`).digest();

/** AES-256-GCM, so a copy of the table alone gives no one an operator's second factor. */
export function seal(serverSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(serverSecret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64')).join('.');
}

export function unseal(serverSecret: string, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
  const decipher = createDecipheriv('aes-256-gcm', sealKey(serverSecret), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
}

/**
 * Opens a sealed secret with the first key that fits: the current JWT_SECRET, then the previous one during a rotation
 * (unset keys are skipped). Throws when none does. Answers which key opened it, so the caller can re-seal.
 */
export function unsealUnderAny(
  serverSecrets: readonly (string | undefined)[],
  sealed: string,
): { plain: string; serverSecret: string } {
  let lastError: unknown = new Error('no key to open the sealed secret with');
  for (const serverSecret of serverSecrets) {
    if (!serverSecret) continue;
    try {
      return { plain: unseal(serverSecret, sealed), serverSecret };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** The stored form of an enrolment link's token (random, so a plain hash is enough). */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
