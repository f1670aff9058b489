import { z } from 'zod';
import { rule } from '../validation-rules.ts';

/** A P-256 public key as browsers give it (`PushSubscription.getKey('p256dh')`): 65 bytes, base64url (87 characters). */
const P256DH = /^[A-Za-z0-9_-]{86,88}={0,2}$/;
/** The subscription's 16-byte auth secret, base64url (22 characters). */
const AUTH_SECRET = /^[A-Za-z0-9_-]{22,24}={0,2}$/;

const SINGLE_LABEL_OR_INTERNAL = /^(?:[^.]+|.+\.(?:local|internal|localhost|lan|home\.arpa))$/i;
const IP_LITERAL = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether the server may send to this push endpoint. The server posts to whatever URL a browser handed it, so an
 * endpoint is a way to make it call a host of the attacker's choosing (SSRF): only https to a public DNS name, never an
 * address literal or an internal name. `allowLoopback` (never in production) also lets http to this machine through,
 * for a local push endpoint in development and tests.
 */
export function isAcceptablePushEndpoint(text: string, allowLoopback: boolean): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (allowLoopback && LOOPBACK_HOSTS.has(url.hostname)) return url.protocol === 'http:' || url.protocol === 'https:';
  return url.protocol === 'https:' && !IP_LITERAL.test(url.hostname) && !SINGLE_LABEL_OR_INTERNAL.test(url.hostname);
}

/** What the browser's `PushSubscription.toJSON()` gives, plus a label of the device for the user's list. */
export function pushSubscriptionBody(allowLoopback: boolean) {
  return z.object({
    endpoint: z
      .string({ error: rule('url') })
      .max(1_000, rule('max_length'))
      .refine((value) => isAcceptablePushEndpoint(value, allowLoopback), rule('url')),
    keys: z.object({
      p256dh: z.string({ error: rule('valid') }).regex(P256DH, rule('valid')),
      auth: z.string({ error: rule('valid') }).regex(AUTH_SECRET, rule('valid')),
    }),
    /** A short label ("Chrome on Android") the app derives; never the whole user-agent string. */
    user_agent: z.string().max(80, rule('max_length')).nullish(),
  });
}
export type PushSubscriptionInput = z.infer<ReturnType<typeof pushSubscriptionBody>>;

/** Unsubscribing this device: the endpoint it was subscribed with. */
export const pushUnsubscribeBody = z.object({ endpoint: z.string({ error: rule('url') }).max(1_000, rule('max_length')) });

export const pushSubscriptionSchema = z.object({
  id: z.uuid(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  last_success_at: z.string().nullable(),
});
export type PushSubscriptionView = z.infer<typeof pushSubscriptionSchema>;

export const pushPublicKeySchema = z.object({ public_key: z.string() });

/** What a push message carries: only what the notice shows, and where a tap leads (a path of this site). */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string().startsWith('/'),
  /** Notices with the same tag replace each other on the device (one per payment or payout). */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
