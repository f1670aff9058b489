import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';

/**
 * A clean, migrated database for one test file: a fresh PostgreSQL database when DATABASE_URL is set (CI), copied
 * from a template migrated once per set of migrations (`migratedTemplate`), or an in-memory PGlite otherwise. `close`
 * drops what it made. `replicaUrl`: a streaming replica of DATABASE_URL's server (`test/streaming-replica.ts`), whose
 * copy of the new database becomes the handle's `replica`. `pooledUrl`: PgBouncer in transaction mode in front of that
 * server (`test/pgbouncer.ts`): the handle goes through it.
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
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${await migratedTemplate(admin, adminUrl)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const readUrl = options.replicaUrl ? new URL(options.replicaUrl) : undefined;
  if (readUrl) readUrl.pathname = `/${name}`;
  let handle = await openDatabase({ databaseUrl: url.toString(), readUrl: readUrl?.toString() });
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

const MIGRATIONS_FOLDER = fileURLToPath(new URL('../db/migrations', import.meta.url));

/** The migrations' contents, hashed: a changed or added migration names a new template. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: 'utf8' }).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(join(MIGRATIONS_FOLDER, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The name of a database on the test server that holds every migration and nothing else, made the first time a test
 * file asks for it: copying it is a file copy, where migrating each test file's database took about two seconds.
 * Made under an advisory lock, so test files starting side by side wait for one migration and never copy a half-made
 * template; closed before it is copied (PostgreSQL copies no database that has sessions).
 */
async function migratedTemplate(admin: pg.Client, adminUrl: string): Promise<string> {
  const template = `tipcard_template_${migrationsHash()}`;
  await admin.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (rowCount === 0) {
      const building = `${template}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const handle = await openDatabase({ databaseUrl: url.toString() });
      try {
        await handle.migrate();
      } finally {
        await handle.close();
      }
      // Renamed only once complete: a run killed while migrating leaves no template that looks ready.
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
  }
  return template;
}
