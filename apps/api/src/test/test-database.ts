import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';

/**
 * A clean, migrated database for one test file: a fresh PostgreSQL database when DATABASE_URL is set (CI), an
 * in-memory PGlite otherwise. `close` drops what it made. `replicaUrl`: a streaming replica of DATABASE_URL's server
 * (`test/streaming-replica.ts`), whose copy of the new database becomes the handle's `replica`. `pooledUrl`: PgBouncer
 * in transaction mode in front of that server (`test/pgbouncer.ts`): migrated directly, the handle then goes through it.
 */
export async function createTestDatabase(options: { replicaUrl?: string; pooledUrl?: string } = {}): Promise<DatabaseHandle> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase({});
    await handle.migrate();
    return handle;
  }
  const name = `tipcard_test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const readUrl = options.replicaUrl ? new URL(options.replicaUrl) : undefined;
  if (readUrl) readUrl.pathname = `/${name}`;
  let handle = await openDatabase({ databaseUrl: url.toString(), readUrl: readUrl?.toString() });
  await handle.migrate();
  if (options.pooledUrl) {
    await handle.close();
    const pooled = new URL(options.pooledUrl);
    pooled.pathname = `/${name}`;
    handle = await openDatabase({ databaseUrl: pooled.toString(), pooler: 'pgbouncer-transaction' });
  }
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
