import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';

/**
 * A clean, migrated database for one test file: a fresh PostgreSQL database when DATABASE_URL is set (CI), an
 * in-memory PGlite otherwise. `close` drops what it made.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
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
  const handle = await openDatabase({ databaseUrl: url.toString() });
  await handle.migrate();
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
