import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MigrationsNeedSessionError, openDatabase, type Database, type DatabaseHandle } from './client.ts';
import { preparedStatement } from './prepared.ts';
import { PAYOUT_TEST_ENV, staffWithMain, withdraw } from '../modules/payouts/payouts.test-support.ts';
import { checkLedgerInvariants } from '../modules/transactions/transactions.service.ts';
import { userBalances } from '../modules/ledger/ledger.service.ts';
import { startPgBouncer, type PgBouncer } from '../test/pgbouncer.ts';
import { openPayment, payAtSandboxCheckout, receiveTip, settleSandboxPayment } from '../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';
import { createTestDatabase } from '../test/test-database.ts';

/**
 * `npm run test:pgbouncer`: the app behind Debian's PgBouncer 1.18 in transaction mode, with two server connections
 * for the app's ten, so that its transactions hop between them (DATABASE_POOLER=pgbouncer-transaction).
 */
describe('behind PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let database: DatabaseHandle;
  let t: TestApp;

  beforeAll(async () => {
    bouncer = await startPgBouncer(process.env.DATABASE_URL!, 2);
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
    await bouncer?.stop();
  });

  it('breaks named prepared statements, which is why the pooler setting exists', async () => {
    // Two client connections, one server connection's worth of work each: the second finds the first's statement.
    const url = new URL(bouncer.url);
    url.pathname = new URL(process.env.DATABASE_URL!).pathname;
    const clients = [new pg.Client({ connectionString: url.toString() }), new pg.Client({ connectionString: url.toString() })];
    await Promise.all(clients.map((client) => client.connect()));
    try {
      const statement = preparedStatement<{ n: number }>('pgbouncer_control', 'SELECT $1::int AS n');
      const runs = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => statement(drizzle(clients[i % 2]!) as unknown as Database, [i])),
      );
      const failures = runs.filter((run) => run.status === 'rejected').map((run) => (run.reason as Error).cause);
      expect(failures.map(String)).toContainEqual(
        expect.stringMatching(/prepared statement "pgbouncer_control" (already exists|does not exist)/),
      );
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });

  describe('with DATABASE_POOLER=pgbouncer-transaction', () => {
    beforeAll(async () => {
      database = await createTestDatabase({ pooledUrl: bouncer.url });
      t = await createTestApp({ env: { ...PAYOUT_TEST_ENV, SANDBOX_WEBHOOK_DELAY_MS: '0' }, overrides: { database } });
    });

    it('takes many guests’ tips at once on the ledger’s prepared statements', async () => {
      const owners = await Promise.all([signUpWithCard(t), signUpWithCard(t)]);
      const payments = await Promise.all(
        Array.from({ length: 12 }, (_, i) => openPayment(t, owners[i % 2]!.cardId, 100 + i * 10)),
      );
      await Promise.all(payments.map((payment) => payAtSandboxCheckout(t, payment)));
      await Promise.all(payments.map((payment) => settleSandboxPayment(t, payment.id)));
      for (const payment of payments) {
        expect((await t.app.services.payments.getPublicPayment(payment.id)).status).toBe('succeeded');
      }
      const held = await Promise.all(owners.map((owner) => userBalances(t.app.db, owner.userId)));
      const expected = [0, 1].map((side) =>
        payments.filter((_, i) => i % 2 === side).reduce((sum, payment) => sum + payment.amount_cents, 0),
      );
      expect(held.map((balances) => balances.hold + balances.main)).toEqual(expected);
      expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    });

    it('serves the history and the overview', async () => {
      const owner = await signUpWithCard(t);
      await receiveTip(t, owner.cardId, 500, { rating: 5 });
      const listed = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/transactions`, token: owner.jwt });
      expect(listed.body.data.items).toEqual([expect.objectContaining({ type: 'PAYIN', amount_cents: 500 })]);
      const overview = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/overview`, token: owner.jwt });
      expect(overview.body.data).toMatchObject({ received_today_cents: 500, tip_count: 1 });
    });

    it('pays out with the code texted', async () => {
      const owner = await staffWithMain(t, 2000);
      const { confirmed } = await withdraw(t, owner, 1500, owner.methodId);
      expect(confirmed.body.data.status).toBe('in_flight');
      expect((await userBalances(t.app.db, owner.userId)).main).toBe(2000 - 1500 - confirmed.body.data.fee_cents);
      expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
    });

    it('refuses to start on a database with migrations pending, naming the way to apply them', async () => {
      const name = `tipcard_test_${crypto.randomUUID().replaceAll('-', '')}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(bouncer.url);
      url.pathname = `/${name}`;
      const pooled = await openDatabase({ databaseUrl: url.toString(), pooler: 'pgbouncer-transaction' });
      try {
        await expect(pooled.migrate()).rejects.toThrow(MigrationsNeedSessionError);
        await expect(pooled.migrate()).rejects.toThrow(/Run `npm run migrate` with DATABASE_URL pointing at PostgreSQL itself/);
      } finally {
        await pooled.close();
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
        await admin.end();
      }
    });
  });
});
