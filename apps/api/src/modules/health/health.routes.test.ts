import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/** Nothing listens on port 1: a Redis that is configured but down. */
const DEAD_REDIS = 'redis://127.0.0.1:1';

describe('liveness and readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers both when everything is there', async () => {
    expect(await t.call({ method: 'GET', url: '/api/health' })).toMatchObject({ status: 200, body: { data: { status: 'ok' } } });
    expect(await t.call({ method: 'GET', url: '/api/ready' })).toMatchObject({ status: 200, body: { data: { status: 'ok' } } });
  });

  it('is not ready, in the error format, while Redis is configured but down; alive all the same', async () => {
    const down = await createTestApp({ env: { REDIS_URL: DEAD_REDIS } });
    try {
      const ready = await down.call({ method: 'GET', url: '/api/ready' });
      expect(ready).toMatchObject({
        status: 503,
        body: { code: 'unavailable', message: 'Not ready: redis', errors: ['Not ready: redis'], validation_errors: {} },
      });
      expect((await down.call({ method: 'GET', url: '/api/health' })).status).toBe(200);
    } finally {
      await down.close();
    }
  }, 120_000);

  it('is not ready while the database lacks a migration this code ships, and ready again once it has it', async () => {
    const db = t.app.db;
    const [newest] = (
      (await db.execute(
        sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations) RETURNING hash, created_at`,
      )) as unknown as { rows: { hash: string; created_at: string | number }[] }
    ).rows;
    expect(await t.call({ method: 'GET', url: '/api/ready' })).toMatchObject({
      status: 503,
      body: { code: 'unavailable', errors: ['Not ready: migrations'] },
    });
    await db.execute(
      sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES (${newest!.hash}, ${newest!.created_at})`,
    );
    expect((await t.call({ method: 'GET', url: '/api/ready' })).status).toBe(200);
  });
});
