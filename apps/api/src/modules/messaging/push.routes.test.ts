import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { startFakePushService, vapidKeyPair, type FakePushService } from '../../test/fake-push-service.ts';

const keys = vapidKeyPair();
const VAPID_ENV = {
  VAPID_PUBLIC_KEY: keys.publicKey,
  VAPID_PRIVATE_KEY: keys.privateKey,
  VAPID_SUBJECT: 'mailto:ops@tipcard.test',
};

describe('push subscription routes', () => {
  let t: TestApp;
  let pushService: FakePushService;

  beforeAll(async () => {
    t = await createTestApp({ env: VAPID_ENV });
    pushService = await startFakePushService();
  });
  afterAll(async () => {
    await t.close();
    await pushService.close();
  });

  const subscribe = (user: { clientId: string; jwt: string }, payload: unknown, clientId = user.clientId) =>
    t.call({ method: 'POST', url: `/api/clients/${clientId}/push-subscriptions`, token: user.jwt, payload: payload as object });
  const unsubscribe = (user: { clientId: string; jwt: string }, endpoint: string, clientId = user.clientId) =>
    t.call({ method: 'DELETE', url: `/api/clients/${clientId}/push-subscriptions`, token: user.jwt, payload: { endpoint } });
  const list = async (user: { clientId: string; jwt: string }) =>
    (await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/push-subscriptions`, token: user.jwt })).body.data;

  it('gives the VAPID public key to anyone', async () => {
    const answer = await t.call({ method: 'GET', url: '/api/push/public-key' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ public_key: keys.publicKey });
  });

  it('subscribes a device once however often it asks, and unsubscribes it', async () => {
    const user = await signUp(t);
    const device = pushService.subscribe(keys.publicKey);
    const first = await subscribe(user, { ...device.json, user_agent: 'Chrome on Android' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ user_agent: 'Chrome on Android', last_success_at: null });
    // The endpoint is the device's capability: it is never sent back.
    expect(JSON.stringify(first.body)).not.toContain(device.endpoint);

    const again = await subscribe(user, { ...device.json, user_agent: 'Chrome on Android' });
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await list(user)).toEqual([first.body.data]);

    expect((await unsubscribe(user, device.endpoint)).body.data).toEqual({ removed: true });
    expect((await unsubscribe(user, device.endpoint)).body.data).toEqual({ removed: false });
    expect(await list(user)).toEqual([]);
  });

  it('moves a device to the user now signed in on it', async () => {
    const before = await signUp(t);
    const after = await signUp(t);
    const device = pushService.subscribe(keys.publicKey);
    await subscribe(before, device.json);
    expect((await subscribe(after, device.json)).status).toBe(200);
    expect(await list(before)).toEqual([]);
    expect(await list(after)).toHaveLength(1);
  });

  it('answers 404 on another user’s client and 401 without a session', async () => {
    const owner = await signUp(t);
    const intruder = await signUp(t);
    const device = pushService.subscribe(keys.publicKey);
    expect(await subscribe(owner, device.json)).toMatchObject({ status: 200 });

    const foreign = await subscribe(intruder, pushService.subscribe(keys.publicKey).json, owner.clientId);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'not_found' });
    const removal = await unsubscribe(intruder, device.endpoint, owner.clientId);
    expect(removal.status).toBe(404);
    const listing = await t.call({
      method: 'GET',
      url: `/api/clients/${owner.clientId}/push-subscriptions`,
      token: intruder.jwt,
    });
    expect(listing.status).toBe(404);
    // Nor can the intruder remove it through their own client: it is not theirs.
    expect((await unsubscribe(intruder, device.endpoint)).body.data).toEqual({ removed: false });
    expect(await list(owner)).toHaveLength(1);

    const anonymous = await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/push-subscriptions`,
      payload: device.json,
    });
    expect(anonymous.status).toBe(401);
  });

  it.each([
    ['an internal address', 'https://10.0.0.7/push/1'],
    ['an IPv6 literal', 'https://[fd00::1]/push/1'],
    ['a single-label host', 'https://metadata/computeMetadata'],
    ['an internal name', 'https://push.corp.internal/x'],
    ['plain http to another host', 'http://push.example.com/x'],
    ['another scheme', 'ftp://push.example.com/x'],
    ['credentials in the URL', 'https://user:pass@push.example.com/x'],
    ['no URL at all', 'not a url'],
  ])('refuses an endpoint that is %s with a 422 on the field', async (_, endpoint) => {
    const user = await signUp(t);
    const answer = await subscribe(user, { ...pushService.subscribe(keys.publicKey).json, endpoint });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'validation_failed', validation_errors: { endpoint: [expect.any(String)] } });
    expect(await list(user)).toEqual([]);
  });

  it('refuses malformed keys and a missing body field', async () => {
    const user = await signUp(t);
    const device = pushService.subscribe(keys.publicKey).json;
    const badKey = await subscribe(user, { ...device, keys: { ...device.keys, p256dh: 'short' } });
    expect(badKey.status).toBe(422);
    expect(badKey.body.validation_errors).toHaveProperty(['keys.p256dh']);
    const noKeys = await subscribe(user, { endpoint: device.endpoint });
    expect(noKeys.status).toBe(422);
    const longLabel = await subscribe(user, { ...device, user_agent: 'x'.repeat(81) });
    expect(longLabel.status).toBe(422);
    expect(await list(user)).toEqual([]);
  });

  it('accepts a real push service’s https endpoint', async () => {
    const user = await signUp(t);
    const device = pushService.subscribe(keys.publicKey).json;
    const answer = await subscribe(user, { ...device, endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def' });
    expect(answer.status).toBe(200);
  });
});

describe('push without VAPID keys', () => {
  it('has no push paths', async () => {
    const t = await createTestApp();
    try {
      const user = await signUp(t);
      expect((await t.call({ method: 'GET', url: '/api/push/public-key' })).status).toBe(404);
      const answer = await t.call({
        method: 'GET',
        url: `/api/clients/${user.clientId}/push-subscriptions`,
        token: user.jwt,
      });
      expect(answer.status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
