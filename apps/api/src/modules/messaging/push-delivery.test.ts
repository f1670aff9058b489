import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { startFakePushService, vapidKeyPair, type FakePushService } from '../../test/fake-push-service.ts';
import { recordReferralPayin } from '../transactions/transactions.service.ts';
import { erasePushSubscriptions } from './messaging.service.ts';

const keys = vapidKeyPair();
const VAPID_ENV = {
  VAPID_PUBLIC_KEY: keys.publicKey,
  VAPID_PRIVATE_KEY: keys.privateKey,
  VAPID_SUBJECT: 'mailto:ops@tipcard.test',
};

interface PushRow {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
  body: string;
  recipient: string;
}

describe('push notices through the outbox to a push service', () => {
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

  const pushRows = async () =>
    (
      (await t.app.db.execute(
        sql`SELECT id, status, attempts, last_error, body, recipient FROM outbox_messages WHERE channel = 'push' ORDER BY created_at`,
      )) as unknown as { rows: PushRow[] }
    ).rows;
  const subscriptionCount = async (userId: string) =>
    Number(
      (
        (await t.app.db.execute(sql`SELECT count(*)::int AS n FROM push_subscriptions WHERE user_id = ${userId}`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n,
    );
  const subscribeDevice = async (user: { clientId: string; jwt: string }, applicationServerKey = keys.publicKey) => {
    const device = pushService.subscribe(applicationServerKey);
    const answer = await t.call({
      method: 'POST',
      url: `/api/clients/${user.clientId}/push-subscriptions`,
      token: user.jwt,
      payload: device.json,
    });
    expect(answer.status).toBe(200);
    return device;
  };

  it('tells each subscribed device of a tip, signed and encrypted, in the user’s language', async () => {
    const staff = await signUpWithCard(t);
    const phone = await subscribeDevice(staff);
    const laptop = await subscribeDevice(staff);
    const seen = pushService.deliveries.length;

    const payment = await receiveTip(t, staff.cardId, 475);
    expect(await t.runJob('messages.deliver')).toBeGreaterThanOrEqual(2);

    const mine = pushService.deliveries.slice(seen);
    expect(mine.map((delivery) => delivery.endpoint).sort()).toEqual([phone.endpoint, laptop.endpoint].sort());
    const net = ((475 - payment.fee_cents) / 100).toFixed(2);
    for (const delivery of mine) {
      expect(delivery.payload).toEqual({
        title: 'Payment received',
        body: `€${net} from a guest at Bar Riga`,
        url: '/#/overview',
        tag: `credit-${payment.id}`,
      });
      expect(delivery.headers.urgency).toBe('high');
    }
    // What the message carried is exactly the notice: no phone, no e-mail, no ids but the payment's in its tag.
    const [row] = (await pushRows()).slice(-1);
    expect(row!.status).toBe('sent');
    expect(Object.keys(JSON.parse(row!.body))).toEqual(['title', 'body', 'url', 'tag']);
    const listed = await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/push-subscriptions`, token: staff.jwt });
    expect(listed.body.data.every((device: { last_success_at: string | null }) => device.last_success_at !== null)).toBe(true);
  });

  it('writes the notice in the language the user chose', async () => {
    const staff = await signUpWithCard(t);
    await t.call({
      method: 'PATCH',
      url: `/api/clients/${staff.clientId}/language`,
      token: staff.jwt,
      payload: { language: 'lv' },
    });
    await subscribeDevice(staff);
    const seen = pushService.deliveries.length;
    await t.app.db.transaction((tx) =>
      recordReferralPayin(tx, { userId: staff.userId, amountCents: 500, friend: '+371 2•••••12' }, t.clock.now()),
    );
    await t.runJob('messages.deliver');
    expect(pushService.deliveries.slice(seen).map((delivery) => delivery.payload)).toEqual([
      expect.objectContaining({ title: 'Saņemts maksājums', url: '/#/lv/overview' }),
    ]);
  });

  it('writes no notice for a credit that rolls back', async () => {
    const staff = await signUpWithCard(t);
    await subscribeDevice(staff);
    const before = (await pushRows()).length;
    await expect(
      t.app.db.transaction(async (tx) => {
        await recordReferralPayin(tx, { userId: staff.userId, amountCents: 500, friend: '+371 2•••••12' }, t.clock.now());
        throw new Error('the movement fails after its history row');
      }),
    ).rejects.toThrow('the movement fails');
    expect(await pushRows()).toHaveLength(before);
  });

  it('removes a subscription its push service says is gone (410)', async () => {
    const staff = await signUpWithCard(t);
    const device = await subscribeDevice(staff);
    pushService.expire(device.endpoint);
    await receiveTip(t, staff.cardId, 600);
    await t.runJob('messages.deliver');
    expect(await subscriptionCount(staff.userId)).toBe(0);
    const [row] = (await pushRows()).slice(-1);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect(row!.last_error).toContain('subscription was removed');
    expect(pushService.refused.at(-1)).toMatchObject({ status: 410 });

    // The next credit has no device left to tell: no push message is written.
    const before = (await pushRows()).length;
    await receiveTip(t, staff.cardId, 700);
    expect(await pushRows()).toHaveLength(before);
  });

  it('tries again later when the push service refuses the VAPID token, and logs no endpoint', async () => {
    const staff = await signUpWithCard(t);
    // A subscription made with another server's key: the push service refuses our signature for it (403).
    const device = await subscribeDevice(staff, vapidKeyPair().publicKey);
    await receiveTip(t, staff.cardId, 800);
    await t.runJob('messages.deliver');
    expect(pushService.refused.at(-1)).toEqual({ status: 403, reason: 'the VAPID key is not the subscription’s' });
    const [row] = (await pushRows()).slice(-1);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'Error: the push service answered 403' });
    expect(row!.last_error).not.toContain(device.endpoint);
    expect(await subscriptionCount(staff.userId)).toBe(1);
  });

  it('erases an account’s devices and every notice written for them, those to devices already gone too', async () => {
    const staff = await signUpWithCard(t);
    const other = await signUpWithCard(t);
    const gone = await subscribeDevice(staff);
    await receiveTip(t, staff.cardId, 900);
    await t.call({
      method: 'DELETE',
      url: `/api/clients/${staff.clientId}/push-subscriptions`,
      token: staff.jwt,
      payload: { endpoint: gone.endpoint },
    });
    await subscribeDevice(staff);
    await subscribeDevice(other);
    await receiveTip(t, staff.cardId, 1_000);
    await receiveTip(t, other.cardId, 1_100);
    const ofUser = async (userId: string) => (await pushRows()).filter((row) => row.recipient.startsWith(`${userId}:`));
    expect(await ofUser(staff.userId)).toHaveLength(2);

    await t.app.db.transaction((tx) => erasePushSubscriptions(tx, staff.userId));
    expect(await ofUser(staff.userId)).toEqual([]);
    expect(await subscriptionCount(staff.userId)).toBe(0);
    expect(await ofUser(other.userId)).toHaveLength(1);
    expect(await subscriptionCount(other.userId)).toBe(1);
  });
});
