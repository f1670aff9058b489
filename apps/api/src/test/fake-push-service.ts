import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Refusal, recordRefusal } from './refusal.ts';

/**
 * A local push service that behaves like a browser vendor's (FCM, Mozilla autopush, Apple): it takes a push only with
 * a valid VAPID token (RFC 8292: ES256 over the JWT, `aud` the endpoint's origin, `exp` within 24 hours, a `sub`,
 * `k` the key the subscription was made with), refusing others with 401 or 403; and, playing the browser too, it
 * decrypts the aes128gcm payload (RFC 8188, RFC 8291) with the subscription's private key and auth secret.
 */

/** A VAPID key pair as the VAPID_* variables take it (base64url: the 65-byte point and the 32-byte scalar). */
export function vapidKeyPair(): { publicKey: string; privateKey: string } {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return { publicKey: point.toString('base64url'), privateKey: jwk.d! };
}

export interface Delivery {
  endpoint: string;
  /** The decrypted payload, parsed as JSON. */
  payload: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface FakeSubscription {
  endpoint: string;
  /** As `PushSubscription.toJSON()` gives it to the app. */
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface FakePushService {
  origin: string;
  /**
   * A browser subscribing with `applicationServerKey` (the server's VAPID public key): a new endpoint, the browser's
   * own P-256 key pair and auth secret.
   */
  subscribe(applicationServerKey: string): FakeSubscription;
  /** The browser was reset or unsubscribed: this endpoint now answers 410 Gone. */
  expire(endpoint: string): void;
  deliveries: Delivery[];
  refused: { status: number; reason: string }[];
  close(): Promise<void>;
}

const publicKeyOf = (point: Buffer) =>
  createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });

/** RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`, checked as a push service does. */
function checkVapid(header: string | undefined, origin: string, subscribedKey: string): void {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(header ?? '');
  if (!match) throw new Refusal(401, 'no VAPID authorization');
  const [, token, key] = match as unknown as [string, string, string];
  // The key the subscription was made with, and only that one, may push to it.
  if (key !== subscribedKey) throw new Refusal(403, 'the VAPID key is not the subscription’s');
  const [head, claims, signature] = token.split('.') as [string, string, string];
  const header_ = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string; typ?: string };
  if (header_.alg !== 'ES256') throw new Refusal(401, 'the JWT is not ES256');
  const good = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKeyOf(Buffer.from(key, 'base64url')), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!good) throw new Refusal(403, 'bad JWT signature');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud?: string; exp?: number; sub?: string };
  if (body.aud !== origin) throw new Refusal(403, `aud ${body.aud} is not ${origin}`);
  const now = Date.now() / 1000;
  if (typeof body.exp !== 'number' || body.exp <= now || body.exp > now + 24 * 3600) {
    throw new Refusal(403, 'exp is not within the next 24 hours');
  }
  if (!body.sub || !/^(mailto:|https:)/.test(body.sub)) throw new Refusal(403, 'sub is not a mailto: or https: contact');
}

/** RFC 8291 §3.4 and RFC 8188: one aes128gcm record, decrypted with the browser's keys. */
function decrypt(body: Buffer, browser: { ecdh: ReturnType<typeof createECDH>; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const shared = browser.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, browser.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 and any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Refusal(400, 'no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

export async function startFakePushService(): Promise<FakePushService> {
  const browsers = new Map<
    string,
    { ecdh: ReturnType<typeof createECDH>; auth: Buffer; applicationServerKey: string; gone: boolean }
  >();
  const deliveries: Delivery[] = [];
  const refused: { status: number; reason: string }[] = [];
  let origin = '';

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const endpoint = `${origin}${request.url}`;
      try {
        const browser = browsers.get(endpoint);
        if (request.method !== 'POST' || !browser) throw new Refusal(404, 'no such subscription');
        if (browser.gone) throw new Refusal(410, 'the subscription expired');
        checkVapid(request.headers.authorization, origin, browser.applicationServerKey);
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Refusal(415, 'not aes128gcm');
        if (!request.headers.ttl) throw new Refusal(400, 'no TTL');
        const payload = JSON.parse(decrypt(Buffer.concat(chunks), browser)) as unknown;
        deliveries.push({ endpoint, payload, headers: request.headers });
        response.writeHead(201, { location: `${origin}/messages/${randomUUID()}` }).end();
      } catch (error) {
        response.writeHead(recordRefusal(error, refused)).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    deliveries,
    refused,
    subscribe(applicationServerKey) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${randomUUID()}`;
      browsers.set(endpoint, { ecdh, auth, applicationServerKey, gone: false });
      return {
        endpoint,
        json: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
      };
    },
    expire(endpoint) {
      browsers.get(endpoint)!.gone = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
