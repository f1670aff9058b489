import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from './client.ts';
import { MAX_STALENESS_MS, type Principal, type ReadKind } from './read-replica.ts';
import { PAYOUT_TEST_ENV, staffWithMain, withdraw } from '../modules/payouts/payouts.test-support.ts';
import { signInOperator } from '../modules/ops/ops.test-support.ts';
import { checkLedgerInvariants } from '../modules/transactions/transactions.service.ts';
import { receiveTip } from '../test/sandbox-events.ts';
import { startStreamingReplica, type StreamingReplica } from '../test/streaming-replica.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';
import { createTestDatabase } from '../test/test-database.ts';

/**
 * `npm run test:replica` (decision 0038): a real streaming replica of the local PostgreSQL (pg_createcluster +
 * pg_basebackup -R) as DATABASE_READ_URL, the history, overview, export and back-office search read through it.
 */
describe('read replica', () => {
  let replica: StreamingReplica;
  let database: DatabaseHandle;
  let t: TestApp;
  const lags: number[] = [];

  beforeAll(async () => {
    const started = Date.now();
    replica = await startStreamingReplica(process.env.DATABASE_URL!);
    database = await createTestDatabase({ replicaUrl: replica.url });
    t = await createTestApp({ env: PAYOUT_TEST_ENV, overrides: { database } });
    console.log(`replica started and database made in ${Date.now() - started} ms`);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await replica?.drop();
    if (lags.length > 0) console.log(`replica caught up with the primary in ${lags.join(', ')} ms after each write burst`);
  });

  const history = (owner: { clientId: string; jwt: string }) =>
    t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/transactions`, token: owner.jwt });
  const overview = (owner: { clientId: string; jwt: string }) =>
    t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/overview`, token: owner.jwt });
  const caughtUp = async () => lags.push(await replica.catchUp());
  /** Routed to the replica once the router's next probe sees what it has replayed (probes are a quarter second apart). */
  const routedToReplica = (kind: ReadKind, principal: Principal) =>
    vi.waitFor(async () => expect(await t.app.services.reads.reader(kind, principal)).toBe(database.replica), { timeout: 2_000 });
  /** A guest's tip a minute after the last, so that the history's order (newest first) is the order of the tips. */
  const tipLater = async (cardId: string, cents: number, extra: { rating?: number } = {}) => {
    t.clock.advance(60_000);
    return receiveTip(t, cardId, cents, extra);
  };

  it('answers history, overview and its CSV from the replica once it has replayed the tips, as the primary would', async () => {
    const owner = await signUpWithCard(t);
    await tipLater(owner.cardId, 500, { rating: 5 });
    await tipLater(owner.cardId, 700, { rating: 4 });
    await caughtUp();

    await routedToReplica('history', `user:${owner.userId}`);
    const listed = await history(owner);
    expect(listed.status).toBe(200);
    expect(listed.body.data.items.map((item: { amount_cents: number }) => item.amount_cents)).toEqual([700, 500]);
    const figures = await overview(owner);
    expect(figures.body.data).toMatchObject({ received_today_cents: 1200, tip_count: 2, average_rating: 4.5 });
    const csv = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/transactions.csv`, token: owner.jwt });
    expect(csv.status).toBe(200);
    expect(String(csv.body).trim().split('\n')).toHaveLength(3);
  });

  it('serves a guest tip late by at most the read kind’s staleness, then from the primary', async () => {
    const owner = await signUpWithCard(t);
    await tipLater(owner.cardId, 300);
    await caughtUp();
    // The router sees it (its last probe may be older than the owner's sign-up), then replay stops.
    await routedToReplica('history', `user:${owner.userId}`);
    await replica.pauseReplay();
    try {
      await tipLater(owner.cardId, 900);
      // The replica is behind by less than the history's bound: it answers, without the tip it has not replayed.
      const stale = await history(owner);
      expect(stale.body.data.items.map((item: { amount_cents: number }) => item.amount_cents)).toEqual([300]);
      // Past the bound the replica is too far behind: the primary answers, tip included.
      await new Promise((resolve) => setTimeout(resolve, MAX_STALENESS_MS.history + 500));
      expect(await t.app.services.reads.stalenessMs()).toBeGreaterThan(MAX_STALENESS_MS.history);
      const gauge = (await t.app.services.metrics.registry.getSingleMetricAsString('tipcard_replica_staleness_seconds'))
        .split('\n')
        .at(-1)!;
      expect(Number(gauge.split(' ')[1])).toBeGreaterThan(MAX_STALENESS_MS.history / 1000);
      const fresh = await history(owner);
      expect(fresh.body.data.items.map((item: { amount_cents: number }) => item.amount_cents)).toEqual([900, 300]);
    } finally {
      await replica.resumeReplay();
    }
    await caughtUp();
    await routedToReplica('history', `user:${owner.userId}`);
  });

  it('shows a user the payout they just made although the replica has not replayed it', async () => {
    const owner = await staffWithMain(t, 2000);
    const other = await signUpWithCard(t);
    await caughtUp();
    await replica.pauseReplay();
    try {
      const { confirmed } = await withdraw(t, owner, 1000, owner.methodId);
      expect(confirmed.status).toBe(200);

      const listed = await history(owner);
      expect(listed.body.data.items).toContainEqual(
        expect.objectContaining({ type: 'PAYOUT', status: 'HOLD', amount_cents: 1000 }),
      );
      // Their reads go to the primary until the replica has their write; someone else's still go to the replica.
      expect(await t.app.services.reads.reader('history', `user:${owner.userId}`)).toBe(database.db);
      await routedToReplica('history', `user:${other.userId}`);
    } finally {
      await replica.resumeReplay();
    }
    await caughtUp();
    await routedToReplica('history', `user:${owner.userId}`);
    expect((await history(owner)).body.data.items).toContainEqual(
      expect.objectContaining({ type: 'PAYOUT', amount_cents: 1000 }),
    );
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('finds in the back office, from the replica, the user a guest tipped', async () => {
    const owner = await signUpWithCard(t, { public_name: 'Replicated Rita' });
    await tipLater(owner.cardId, 400);
    const operator = await signInOperator(t, 'support');
    await caughtUp();
    await routedToReplica('opsSearch', `operator:${operator.id}`);
    const found = await t.call({ method: 'GET', url: '/api/ops/search?q=Replicated%20Rita', token: operator.opsToken });
    expect(found.status).toBe(200);
    expect(found.body.data).toContainEqual(expect.objectContaining({ kind: 'user', user_id: owner.userId }));
  });
});
