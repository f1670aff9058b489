import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database.ts';
import { DatabaseNewerThanCodeError, newestShippedMigration, openDatabase } from './client.ts';

const JOURNAL = fileURLToPath(new URL('./migrations/meta/_journal.json', import.meta.url));
const shippedCount = (JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: unknown[] }).entries.length;
const API_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const appliedOf = async (db: Awaited<ReturnType<typeof openDatabase>>['db']) =>
  (
    (await db.execute(sql`SELECT hash, created_at FROM drizzle.__drizzle_migrations`)) as unknown as {
      rows: { hash: string; created_at: number }[];
    }
  ).rows;

describe('migrations', () => {
  it('refuses a database that a newer version migrated, saying so, and changes nothing', async () => {
    const database = await createTestDatabase();
    try {
      const future = newestShippedMigration().when + 60_000;
      await database.db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('from-a-newer-version', ${future})`,
      );
      const before = await appliedOf(database.db);
      const refused = database.migrate();
      await expect(refused).rejects.toBeInstanceOf(DatabaseNewerThanCodeError);
      await expect(refused).rejects.toThrow(/migrated by a newer version of Tipcard.*Deploy that version or a newer one/);
      expect(await appliedOf(database.db)).toEqual(before);
    } finally {
      await database.close();
    }
  });

  it('runs again on an up-to-date database without applying anything twice', async () => {
    const database = await createTestDatabase();
    try {
      await database.migrate();
      await database.migrate();
      const applied = await appliedOf(database.db);
      expect(applied).toHaveLength(shippedCount);
      expect(new Set(applied.map((row) => row.hash)).size).toBe(shippedCount);
    } finally {
      await database.close();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'ten instances started at once on an empty PostgreSQL database apply each migration once, and all come up',
    async () => {
      const adminUrl = process.env.DATABASE_URL!;
      const name = `tipcard_migrate_${Date.now()}_${process.pid}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const instances = await Promise.all(
        Array.from({ length: 10 }, () => openDatabase({ databaseUrl: url.toString(), poolSize: 2 })),
      );
      try {
        const results = await Promise.allSettled(instances.map((instance) => instance.migrate()));
        expect(results.map((result) => result.status)).toEqual(Array(10).fill('fulfilled'));
        const applied = await appliedOf(instances[0]!.db);
        expect(applied).toHaveLength(shippedCount);
        expect(new Set(applied.map((row) => row.hash)).size).toBe(shippedCount);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
    60_000,
  );

  it('has a command of its own that migrates and says where the database stands', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tipcard-migrate-'));
    const { stdout } = await promisify(execFile)('node', ['--import', 'tsx', 'src/cli/migrate.ts'], {
      cwd: API_ROOT,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'silent' },
    });
    expect(stdout.trim()).toBe(`The database is at ${newestShippedMigration().tag}, this code's newest migration.`);
  }, 60_000);
});
