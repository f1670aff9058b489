import webPush from 'web-push';
import type { VapidConfig } from '../../config.ts';
import type { PushSender } from '../../modules/messaging/push-sender.ts';

/** How long the push service keeps a notice for a phone that is off: a tip told a day late is still worth telling. */
const TTL_SECONDS = 24 * 3_600;

/**
 * Web Push through the `web-push` package: it signs the VAPID JWT (RFC 8292) and encrypts the payload (aes128gcm,
 * RFC 8291); the request itself goes out with fetch, which follows no redirect (the endpoint was checked, where a
 * redirect would lead was not) and whose errors carry no endpoint into the logs.
 */
export function createWebPushSender(vapid: VapidConfig, timeoutMs: number): PushSender {
  const vapidDetails = { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey };
  return {
    async send(target, payload) {
      const request = webPush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        { vapidDetails, TTL: TTL_SECONDS, urgency: 'high', contentEncoding: 'aes128gcm' },
      );
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        body: new Uint8Array(request.body as Buffer),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (response.status === 404 || response.status === 410) return 'gone';
      if (response.status < 200 || response.status >= 300) {
        throw new Error(`the push service answered ${response.status}`);
      }
      return 'delivered';
    },
  };
}
