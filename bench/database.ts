/** A benchmark's own PostgreSQL database, made on the server DATABASE_URL names (default the local one) and dropped after. */
import pg from 'pg';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
