import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliverSandboxEvent } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';

const MINUTE = 60_000;

/** A guest's checkout on the card's page (a new Idempotency-Key unless given). */
const checkout = (t: TestApp, cardId: string, key: string = randomUUID()) =>
  t.call({
    method: 'POST',
    url: `/api/public/cards/${cardId}/payments`,
    headers: { 'idempotency-key': key },
    payload: { amount_cents: 500, cover_fee: false, terms_accepted: true },
  });

async function withApp(env: Record<string, string>, body: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ env });
  try {
    await body(t);
  } finally {
    await t.close();
  }
}

describe('card testing: velocity limits on checkouts', () => {
  it('limits checkouts per card in 10 minutes, whatever the address; a retry of the same key still answers', async () => {
    await withApp({ CHECKOUTS_PER_CARD_PER_10_MINUTES: '5' }, async (t) => {
      const owner = await signUpWithCard(t);
      const other = await signUpWithCard(t);
      const first = await checkout(t, owner.cardId, 'first-key-1');
      for (let i = 0; i < 4; i += 1) expect((await checkout(t, owner.cardId)).status).toBe(201);
      const refused = await checkout(t, owner.cardId);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'too_many_requests', errors: ['Too many requests'] });
      expect(refused.headers['retry-after']).toBe('600');
      const retried = await checkout(t, owner.cardId, 'first-key-1');
      expect(retried.status).toBe(201);
      expect(retried.body.data.id).toBe(first.body.data.id);
      expect((await checkout(t, other.cardId)).status).toBe(201);
      t.clock.advance(10 * MINUTE + 1);
      expect((await checkout(t, owner.cardId)).status).toBe(201);
    });
  }, 120_000);

  it('stops a card taking checkouts for an hour after too many failed payments', async () => {
    await withApp({ FAILED_PAYMENTS_PER_CARD_PER_HOUR: '3' }, async (t) => {
      const owner = await signUpWithCard(t);
      for (let i = 0; i < 3; i += 1) {
        const opened = await checkout(t, owner.cardId);
        expect(await deliverSandboxEvent(t, opened.body.data, 'payment.failed')).toBe('applied');
      }
      const refused = await checkout(t, owner.cardId);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('3600');
      t.clock.advance(60 * MINUTE + 1);
      expect((await checkout(t, owner.cardId)).status).toBe(201);
    });
  }, 120_000);

  it('holds the per-card limit against 50 concurrent checkouts', async () => {
    await withApp({ CHECKOUTS_PER_CARD_PER_10_MINUTES: '10' }, async (t) => {
      const owner = await signUpWithCard(t);
      // From 50 addresses, as a card tester rotating them would: the per-address limit never applies.
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: `/api/public/cards/${owner.cardId}/payments`,
            remoteAddress: `198.51.100.${i + 1}`,
            headers: { 'idempotency-key': randomUUID() },
            payload: { amount_cents: 500, cover_fee: false, terms_accepted: true },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(40);
      const stored = (await t.app.db.execute(
        sql`select count(*)::int as n from payments where subject_id = ${owner.cardId}`,
      )) as unknown as { rows: { n: number }[] };
      expect(stored.rows[0]!.n).toBe(10);
    });
  }, 120_000);

  it('limits checkouts over every card together, in the error format', async () => {
    await withApp({ CHECKOUTS_GLOBAL_PER_MINUTE: '4' }, async (t) => {
      const cards = [await signUpWithCard(t), await signUpWithCard(t)];
      for (let i = 0; i < 4; i += 1) expect((await checkout(t, cards[i % 2]!.cardId)).status).toBe(201);
      const refused = await checkout(t, cards[1]!.cardId);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        code: 'too_many_requests',
        message: 'Too many requests',
        errors: ['Too many requests'],
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const stored = (await t.app.db.execute(sql`select count(*)::int as n from payments`)) as unknown as {
        rows: { n: number }[];
      };
      expect(stored.rows[0]!.n).toBe(4);
    });
  }, 120_000);

  // Two servers behind one balancer share the counter through Redis (DESIGN "Scale-out").
  it.skipIf(!process.env.REDIS_URL)(
    'counts the global limit across two instances sharing Redis',
    async () => {
      const shared = {
        env: { CHECKOUTS_GLOBAL_PER_MINUTE: '6' },
        config: { rateLimitNamespace: `test-global-${randomUUID()}:` },
      };
      const [first, second] = [await createTestApp(shared), await createTestApp(shared)];
      try {
        const cards = [await signUpWithCard(first), await signUpWithCard(second)];
        const statuses: number[] = [];
        for (let i = 0; i < 8; i += 1) {
          const t = i % 2 === 0 ? first : second;
          statuses.push((await checkout(t, cards[i % 2]!.cardId)).status);
        }
        expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429, 429]);
      } finally {
        await first.close();
        await second.close();
      }
    },
    120_000,
  );
});
