import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { dumpEmbedded, embeddedDirOf } from './backup.ts';
import { useUnnamedStatements } from './prepared.ts';

export type Database = PgDatabase<PgQueryResultHKT>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** What a repository takes as its first argument: the database or the caller's open transaction. */
export type Executor = Database | Transaction;

/** The rows of a raw `execute`: both drivers (node-postgres, PGlite) answer them as `rows`. */
export const rowsOf = <Row>(result: unknown): Row[] => (result as { rows: Row[] }).rows;

export interface DatabaseHandle {
  db: Database;
  /** The streaming replica of DATABASE_READ_URL; reads reach it only through `db/read-replica.ts`, which knows its lag. */
  replica?: Database;
  kind: 'postgres' | 'pglite';
  migrate(): Promise<void>;
  /** The embedded database only: a consistent copy of it, taken while it runs (`db/backup.ts`). */
  dumpEmbedded?(): Promise<Buffer>;
  /**
   * LISTEN on a channel through a session of its own (undefined behind a transaction pooler without a direct URL).
   * `onResumed` is called after a lost session is back: notifications sent meanwhile are gone, so the caller re-reads;
   * `onLost` as soon as it is lost (from then on, until `onResumed`, notifications do not arrive).
   */
  listen?: Listen;
  close(): Promise<void>;
}

export type Listen = (
  channel: string,
  onNotify: (payload: string) => void,
  onResumed: () => void,
  onLost?: () => void,
) => Promise<() => Promise<void>>;

/** How long a lost LISTEN session waits before it tries again (doubling up to the cap). */
const LISTEN_RETRY_MS = 100;
const LISTEN_RETRY_MAX_MS = 5_000;

/**
 * One `pg` client outside the pool (a LISTEN holds its session for ever), reconnected when it drops: on the first
 * failure it retries with backoff, and each time it is back `onResumed` tells the caller to read what it missed.
 */
function listenThrough(url: string, onError: (error: Error) => void): Listen {
  return async (channel, onNotify, onResumed, onLost) => {
    let client: pg.Client | undefined;
    let stopped = false;
    let retryMs = LISTEN_RETRY_MS;
    const open = async (): Promise<void> => {
      const next = new pg.Client({ connectionString: url });
      next.on('notification', (message) => {
        if (message.channel === channel && message.payload !== undefined) onNotify(message.payload);
      });
      next.on('error', (error) => {
        onError(error);
        void lost(next);
      });
      next.on('end', () => void lost(next));
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      client = next;
    };
    const lost = async (dead: pg.Client) => {
      if (stopped || client !== dead) return;
      client = undefined;
      onLost?.();
      dead.removeAllListeners('notification');
      await dead.end().catch(() => undefined);
      while (!stopped && !client) {
        await new Promise((resolve) => setTimeout(resolve, retryMs));
        retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
        if (stopped) return;
        try {
          await open();
        } catch (error) {
          onError(error as Error);
        }
      }
      retryMs = LISTEN_RETRY_MS;
      if (!stopped) onResumed();
    };
    await open();
    return async () => {
      stopped = true;
      await client?.end().catch(() => undefined);
    };
  };
}

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

function shippedMigrations(): { tag: string; when: number }[] {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries;
}

/** The newest migration this code ships: the last entry of drizzle-kit's journal (`when` is its creation time). */
export function newestShippedMigration(): { tag: string; when: number } {
  return shippedMigrations().at(-1)!;
}

/**
 * The shipped migrations this database lacks (their tags), judged as drizzle's migrator judges them: every journal
 * entry newer than the newest applied one. Empty when the schema is this code's (or newer, which start-up refuses).
 */
export async function pendingMigrations(db: Database): Promise<string[]> {
  const result = (await db.execute(
    sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`,
  )) as unknown as { rows: { present: boolean }[] };
  const applied = result.rows[0]?.present
    ? Number(
        (
          (await db.execute(sql`SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations`)) as unknown as {
            rows: { newest: string | number | null }[];
          }
        ).rows[0]?.newest ?? 0,
      )
    : 0;
  return shippedMigrations()
    .filter((entry) => entry.when > applied)
    .map((entry) => entry.tag);
}

/** The database holds a migration this code does not ship: a newer version migrated it, and this one must not run. */
export class DatabaseNewerThanCodeError extends Error {
  constructor(appliedAt: number, shipped: { tag: string; when: number }) {
    super(
      `The database was migrated by a newer version of Tipcard: its newest migration dates from ` +
        `${new Date(appliedAt).toISOString()}, this code's newest is ${shipped.tag} from ${new Date(shipped.when).toISOString()}. ` +
        'Deploy that version or a newer one; this one could misread tables it does not know.',
    );
    this.name = 'DatabaseNewerThanCodeError';
  }
}

type RowsQuery = (text: string) => Promise<{ rows: unknown[] }>;

/**
 * drizzle's migrator applies what is newer than the database's last migration and silently skips the rest, so an
 * older build started against a newer database would run. The time of the newest applied migration says whether it is.
 */
async function refuseNewerDatabase(query: RowsQuery): Promise<void> {
  const [table] = (await query(`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`)).rows as {
    present: boolean;
  }[];
  if (!table?.present) return;
  const [row] = (await query('SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations')).rows as {
    newest: string | number | null;
  }[];
  const applied = row?.newest === null || row?.newest === undefined ? null : Number(row.newest);
  const shipped = newestShippedMigration();
  if (applied !== null && applied > shipped.when) throw new DatabaseNewerThanCodeError(applied, shipped);
}
/** Any constant works; it only has to be the same for every instance migrating one database. */
const MIGRATION_LOCK_KEY = 7_140_221;

/** int8 as a JS number, refusing values that a number cannot hold exactly (money must never round). */
export function parseBigint(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`int8 value ${value} is beyond 2^53`);
  return parsed;
}
pg.types.setTypeParser(pg.types.builtins.INT8, parseBigint);

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** PostgreSQL connections kept by this process (default 10). */
  poolSize?: number;
  /** Directory of the embedded database; undefined keeps it in memory. */
  pgliteDir?: string | undefined;
  /** Told when an idle PostgreSQL connection fails; the pool replaces it either way. */
  onIdleError?: (error: Error) => void;
  /** A streaming replica of databaseUrl, opened as a second pool of the same size. */
  readUrl?: string | undefined;
  /** `pgbouncer-transaction`: the connections go through PgBouncer in transaction mode (see `migrate` and `prepared.ts`). */
  pooler?: 'none' | 'pgbouncer-transaction';
  /** PostgreSQL itself when databaseUrl is a transaction pooler: the LISTEN session of live events needs it. */
  directUrl?: string | undefined;
}

/** Behind a transaction pooler a session lock would stay on whichever server connection took it. */
export class MigrationsNeedSessionError extends Error {
  constructor(pending: string[]) {
    super(
      `${pending.length} migration(s) are pending (${pending.join(', ')}) and DATABASE_POOLER=pgbouncer-transaction ` +
        'gives no session to migrate under a lock. Run `npm run migrate` with DATABASE_URL pointing at PostgreSQL ' +
        'itself (or a session-mode pool) and DATABASE_POOLER unset, then start the instances.',
    );
    this.name = 'MigrationsNeedSessionError';
  }
}

function openPool(url: string, options: DatabaseOptions): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle connection the server closes (restart, failover) must not crash the process; the pool replaces it.
  pool.on('error', (error) => options.onIdleError?.(error));
  return pool;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pooled = options.pooler === 'pgbouncer-transaction';
    if (pooled) useUnnamedStatements();
    const pool = openPool(options.databaseUrl, options);
    const replicaPool = options.readUrl ? openPool(options.readUrl, options) : undefined;
    const db = drizzlePg(pool) as unknown as Database;
    const listenUrl = pooled ? options.directUrl : options.databaseUrl;
    return {
      db,
      ...(replicaPool ? { replica: drizzlePg(replicaPool) as unknown as Database } : {}),
      ...(listenUrl ? { listen: listenThrough(listenUrl, (error) => options.onIdleError?.(error)) } : {}),
      kind: 'postgres',
      async migrate() {
        if (pooled) {
          // The session lock below cannot be held through a transaction pooler: check, and leave migrating to a session.
          await refuseNewerDatabase((text) => pool.query(text));
          const pending = await pendingMigrations(db);
          if (pending.length > 0) throw new MigrationsNeedSessionError(pending);
          return;
        }
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          await refuseNewerDatabase((text) => client.query(text));
          await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
          client.release();
        }
      },
      async close() {
        await Promise.all([pool.end(), replicaPool?.end()]);
      },
    };
  }
  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  const client = new PGlite({
    ...(options.pgliteDir ? { dataDir: embeddedDirOf(options.pgliteDir) } : {}),
    parsers: { [pgliteTypes.INT8]: parseBigint },
  });
  const db = drizzlePglite(client) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      await refuseNewerDatabase((text) => client.query(text));
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
    },
    dumpEmbedded: () => dumpEmbedded(client),
    // One process, one session: NOTIFY reaches this listener at commit, and the session never drops.
    listen: async (channel, onNotify) => client.listen(channel, onNotify),
    close: () => client.close(),
  };
}
