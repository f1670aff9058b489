import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database.ts';
import { openDatabase, type DatabaseHandle } from './client.ts';
import { createReadRouter, lastWritesIn, parseLsn, type LastWrites } from './read-replica.ts';

/** The router's rules without a real replica; `npm run test:replica` runs them against one. */
describe('read routing', () => {
  it('orders WAL positions as PostgreSQL does', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });

  const stores: [string, () => LastWrites][] = [['memory', () => lastWritesIn(undefined)]];
  let redis: Redis | undefined;
  if (process.env.REDIS_URL) {
    redis = new Redis(process.env.REDIS_URL);
    stores.push(['Redis', () => lastWritesIn(redis, `test-last-write:${crypto.randomUUID()}:`)]);
  }
  afterAll(() => redis?.quit());

  it.each(stores)('keeps a principal’s last write position in %s for the time it is given', async (_name, make) => {
    const writes = make();
    await writes.remember('user:a', parseLsn('3/10'), 200);
    await writes.remember('user:a', parseLsn('3/20'), 200);
    expect(await writes.lsnOf('user:a')).toBe(parseLsn('3/20'));
    expect(await writes.lsnOf('operator:a')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await writes.lsnOf('user:a')).toBeUndefined();
  });

  describe.runIf(process.env.DATABASE_URL)('on PostgreSQL', () => {
    let database: DatabaseHandle;
    let secondPool: DatabaseHandle;
    beforeAll(async () => {
      database = await createTestDatabase();
      // A read URL naming the primary itself: not in recovery, so always fresh.
      secondPool = await openDatabase({ databaseUrl: process.env.DATABASE_URL, poolSize: 1 });
    });
    afterAll(async () => {
      await secondPool?.close();
      await database?.close();
    });

    it('reads the replica when it holds everything, and the reader’s own write', async () => {
      const reads = createReadRouter({ primary: database.db, replica: secondPool.db, lastWrites: lastWritesIn(undefined) });
      await reads.rememberWrite('user:u1');
      expect(await reads.reader('history', 'user:u1')).toBe(secondPool.db);
      expect(await reads.stalenessMs()).toBeLessThan(1_000);
    });

    it('reads the primary while the reader’s last write is ahead of the replica', async () => {
      const lastWrites = lastWritesIn(undefined);
      const reads = createReadRouter({ primary: database.db, replica: secondPool.db, lastWrites });
      await lastWrites.remember('user:u2', parseLsn('FFFFFFFF/0'), 10_000);
      expect(await reads.reader('overview', 'user:u2')).toBe(database.db);
      expect(await reads.reader('overview', 'user:someone-else')).toBe(secondPool.db);
    });

    it('reads the primary for a signed-in reader when the last-write store does not answer', async () => {
      const down: LastWrites = {
        remember: () => Promise.reject(new Error('Redis is down')),
        lsnOf: () => Promise.reject(new Error('Redis is down')),
      };
      const reads = createReadRouter({ primary: database.db, replica: secondPool.db, lastWrites: down });
      expect(await reads.reader('history', 'user:u3')).toBe(database.db);
      expect(await reads.reader('history')).toBe(secondPool.db);
    });

    it('reads the primary when the replica does not answer, and says so', async () => {
      const unreachable = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', poolSize: 1 });
      const problems: unknown[] = [];
      try {
        const reads = createReadRouter({
          primary: database.db,
          replica: unreachable.db,
          lastWrites: lastWritesIn(undefined),
          onProbeError: (error) => problems.push(error),
        });
        expect(await reads.reader('export')).toBe(database.db);
        expect(await reads.stalenessMs()).toBeUndefined();
        expect(problems.length).toBeGreaterThan(0);
      } finally {
        await unreachable.close();
      }
    });
  });
});
