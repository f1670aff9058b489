import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';

const run = promisify(execFile);

/**
 * Backups and restores (docs/operations.md "Backups"; the drill: `backup.test.ts`). PostgreSQL: pg_dump's custom
 * format, pg_restore into the database. The embedded database (PGlite in DATA_DIR): PGlite's own `dumpDataDir`, a
 * tarball of its data directory taken while no transaction is open, through the running server when there is one
 * (PGlite is one process's: a second one must never open the directory beside it).
 */

/** Where the embedded database lives in DATA_DIR. */
export const embeddedDirOf = (dataDir: string) => join(dataDir, 'pglite');

/** A server on the embedded database says here where it listens, so the commands reach it instead of the files. */
const serverFileOf = (dataDir: string) => join(dataDir, 'server.json');

export interface EmbeddedServer {
  pid: number;
  /** `http://127.0.0.1:3000`: where the backup is asked for. */
  url: string;
}

/** Written once the server listens, removed when it closes. */
export function announceEmbeddedServer(dataDir: string, url: string): () => void {
  const file = serverFileOf(dataDir);
  writeFileSync(file, JSON.stringify({ pid: process.pid, url } satisfies EmbeddedServer));
  return () => rmSync(file, { force: true });
}

/** The server running on this DATA_DIR, if any: its file, and a process of that id alive. */
export function runningEmbeddedServer(dataDir: string): EmbeddedServer | undefined {
  const file = serverFileOf(dataDir);
  if (!existsSync(file)) return undefined;
  const server = JSON.parse(readFileSync(file, 'utf8')) as EmbeddedServer;
  try {
    process.kill(server.pid, 0);
    return server;
  } catch {
    // A server killed without closing left its file behind.
    unlinkSync(file);
    return undefined;
  }
}

/** What the backup command shows the running server: derived from JWT_SECRET, which both read from the same place. */
export function backupToken(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('tipcard-embedded-backup').digest('base64url');
}

/**
 * The embedded database as a gzipped tarball, consistent: PGlite runs no query while it dumps, and holding its
 * transaction lock keeps any transaction from being open across the dump; a checkpoint first writes out what is only
 * in memory, so the copy needs no recovery.
 */
export async function dumpEmbedded(client: PGlite): Promise<Buffer> {
  await client.exec('CHECKPOINT');
  const tarball = await client._runExclusiveTransaction(() => client.dumpDataDir('gzip'));
  return Buffer.from(await tarball.arrayBuffer());
}

/**
 * Replaces the embedded database in DATA_DIR by a backup, the server stopped: the backup is loaded into a directory
 * beside it and opened once (a broken file fails here, touching nothing), then the current one is kept as
 * `pglite.before-restore-<time>` and the restored one takes its place. Answers where the previous one was kept.
 */
export async function restoreEmbedded(dataDir: string, tarball: Buffer, now: Date): Promise<string | undefined> {
  const server = runningEmbeddedServer(dataDir);
  if (server) throw new Error(`A Tipcard server (process ${server.pid}, ${server.url}) runs on ${dataDir}: stop it first.`);
  const target = embeddedDirOf(dataDir);
  const staging = `${target}.restoring`;
  rmSync(staging, { recursive: true, force: true });
  const loaded = new PGlite({ dataDir: staging, loadDataDir: new Blob([new Uint8Array(tarball)]) });
  let problem: unknown;
  try {
    await loaded.query('SELECT count(*) FROM drizzle.__drizzle_migrations');
  } catch (error) {
    problem = error;
  } finally {
    await loaded.close();
  }
  if (problem !== undefined) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `The backup holds no Tipcard database (${problem instanceof Error ? problem.message : String(problem)}); nothing was changed.`,
      { cause: problem },
    );
  }
  const kept = existsSync(target) ? `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}` : undefined;
  if (kept) renameSync(target, kept);
  renameSync(staging, target);
  return kept;
}

/** PostgreSQL: pg_dump's custom format (compressed, restorable table by table), from the server's own tools. */
export async function dumpPostgres(databaseUrl: string, file: string): Promise<void> {
  await run('pg_dump', ['--format=custom', '--no-owner', '--file', file, '--dbname', databaseUrl]);
}

/** PostgreSQL: the dump into the database, replacing what is there, in one transaction (all or nothing). */
export async function restorePostgres(databaseUrl: string, file: string): Promise<void> {
  await run('pg_restore', [
    '--clean',
    '--if-exists',
    '--no-owner',
    '--single-transaction',
    '--exit-on-error',
    '--dbname',
    databaseUrl,
    file,
  ]);
}
