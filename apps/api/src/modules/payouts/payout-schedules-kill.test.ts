import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PAYOUT_FEE_CENTS } from '@tipcard/shared/payouts/schemas';
import { openDatabase } from '../../db/client.ts';
import { kill, startServer, until, type Server } from '../../test/child-server.ts';
import { createTestApp } from '../../test/test-app.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { setSchedule } from './payout-schedules.routes.test-support.ts';
import { PAYOUT_TEST_ENV, staffWithMain } from './payouts.test-support.ts';

/**
 * Two real servers run the schedule job on one database; one is killed with SIGKILL while runs are under way and
 * started again. Every user must end with exactly one run and one payout of the period, whatever the kill cut.
 */
const USERS = 40;
const BALANCE = 3000;
/** The brief's ports for this work (3550–3559). */
const PORTS = [3551, 3552, 3553] as const;

describe.runIf(process.env.DATABASE_URL)('schedule runs across a kill -9', () => {
  it('one payout per user and period after two workers, a SIGKILL and a restart', async () => {
    const adminUrl = process.env.DATABASE_URL!;
    const name = `tipcard_schedkill_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ databaseUrl: url.toString() });
    await handle.migrate();
    const dataDir = mkdtempSync(join(tmpdir(), 'tipcard-schedkill-'));
    const servers: Server[] = [];
    try {
      // Forty sign-ups in a row from one address: the limiters are not what this test is about.
      const t = await createTestApp({ env: { ...PAYOUT_TEST_ENV, RATE_LIMITS: 'off' }, overrides: { database: handle } });
      const staff = [];
      for (let i = 0; i < USERS; i += 1) {
        const one = await staffWithMain(t, BALANCE);
        await setSchedule(t, one, { kind: 'weekly', weekday: 1 });
        staff.push(one);
      }
      await t.close();
      const count = async (query: ReturnType<typeof sql>) =>
        Number(((await handle.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n);
      // Due now by the servers' real clock: one period for all of them.
      await handle.db.execute(sql`UPDATE payout_schedules SET next_run_at = now() - interval '1 minute'`);

      const env = {
        ...PAYOUT_TEST_ENV,
        DATABASE_URL: url.toString(),
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
        DATA_DIR: dataDir,
        JWT_SECRET: 'schedule-kill-test-secret-long-enough-for-hs256',
        WORKER: 'inline',
        WORKER_INTERVAL_MS: '100',
        LOG_LEVEL: 'warn',
      };
      const [first, second] = await Promise.all([startServer(env, PORTS[0]), startServer(env, PORTS[1])]);
      servers.push(first!, second!);
      await until(
        'the first runs are recorded',
        60_000,
        async () => (await count(sql`SELECT count(*)::int AS n FROM payout_schedule_runs`)) > 0,
      );
      await kill(first!, 'SIGKILL');
      const atKill = await count(sql`SELECT count(*)::int AS n FROM payout_schedule_runs`);
      servers.push(await startServer(env, PORTS[2]));
      await until(
        'no schedule is due',
        90_000,
        async () => (await count(sql`SELECT count(*)::int AS n FROM payout_schedules WHERE next_run_at <= now()`)) === 0,
      );

      const perUser = (
        (await handle.db.execute(
          sql`SELECT u.id, (SELECT count(*)::int FROM payout_schedule_runs r WHERE r.user_id = u.id) AS runs,
                       (SELECT count(*)::int FROM payouts p WHERE p.user_id = u.id AND p.idempotency_key LIKE 'schedule:%') AS payouts,
                       (SELECT coalesce(sum(p.amount_cents), 0)::int FROM payouts p WHERE p.user_id = u.id AND p.idempotency_key LIKE 'schedule:%') AS paid
                FROM users u WHERE u.id IN ${staff.map((one) => one.userId)}`,
        )) as unknown as { rows: { runs: number; payouts: number; paid: number }[] }
      ).rows;
      console.log(`schedule kill test: ${USERS} schedules due, ${atKill} runs recorded when one of two servers was killed`);
      expect(perUser).toHaveLength(USERS);
      for (const row of perUser) expect(row).toEqual({ ...row, runs: 1, payouts: 1, paid: BALANCE - PAYOUT_FEE_CENTS });
      expect(await checkLedgerInvariants(handle.db)).toEqual([]);
    } finally {
      for (const server of servers) await kill(server, 'SIGTERM');
      await handle.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
