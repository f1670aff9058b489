/**
 * Throwaway PostgreSQL databases for the cluster test, the simulator and the browser tests' servers (one per
 * Playwright worker): made on a server, copied from a template when given, dropped with their connections. A module
 * of its own, without processes.ts's signal handlers, so that a Playwright worker can import it.
 */
import pg from 'pg';

export const ADMIN_URL = process.env.CLUSTER_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the server that `server` (any database URL there) reaches. */
export function databaseUrlOf(name: string, server = ADMIN_URL): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates database `name` (a copy of `template` when given) on `server`'s PostgreSQL; `drop` removes it, connections
 * and all. `name` and `template` are our own identifiers, never input.
 */
export async function createDatabase(name: string, template?: string, server = ADMIN_URL) {
  await run(server, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  return {
    name,
    url: databaseUrlOf(name, server),
    drop: () => dropDatabase(name, server),
  };
}

/** Drops database `name` on `server`'s PostgreSQL if it is there, its connections too; a failure is ignored (clean-up). */
export async function dropDatabase(name: string, server = ADMIN_URL) {
  await run(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
}

async function run(server: string, statement: string) {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
