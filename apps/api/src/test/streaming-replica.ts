import { execFile } from 'node:child_process';
import { readFileSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import pg from 'pg';
import { parseLsn } from '../db/read-replica.ts';

const run = promisify(execFile);

/** Debian's PostgreSQL, whose tools make the replica; the primary is the cluster DATABASE_URL names. */
const PG_VERSION = '15';
const REPLICATION_RULE = 'host replication all 127.0.0.1/32 trust';

export interface StreamingReplica {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the replica server; swap the path for a database. */
  url: string;
  /** Waits until the replica has replayed everything the primary has written so far; answers how long it took (ms). */
  catchUp(timeoutMs?: number): Promise<number>;
  /** Stops and resumes replaying (what the replica receives waits in its WAL meanwhile). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops and removes the cluster. */
  drop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The first row of a query on a connection of its own. */
async function queryOnce<Row>(url: string, text: string): Promise<Row> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows[0] as Row;
  } finally {
    await client.end();
  }
}

/**
 * A real streaming replica of the PostgreSQL at `primaryUrl` (superuser, trust auth, on this machine, run as root):
 * a cluster of its own on a free port (`pg_createcluster`), filled by `pg_basebackup -R` so it follows the primary.
 * The primary's pg_hba.conf gets a replication rule for 127.0.0.1 if it has none (and is reloaded).
 */
export async function startStreamingReplica(primaryUrl: string): Promise<StreamingReplica> {
  const primary = new URL(primaryUrl);
  const adminUrl = new URL(primaryUrl);
  adminUrl.pathname = '/postgres';
  const { hba_file: hbaFile } = await queryOnce<{ hba_file: string }>(adminUrl.toString(), 'SHOW hba_file');
  const rules = readFileSync(hbaFile, 'utf8').split('\n');
  if (!rules.some((line) => line.trim().replace(/\s+/g, ' ') === REPLICATION_RULE)) {
    appendFileSync(hbaFile, `${REPLICATION_RULE}\n`);
    await queryOnce(adminUrl.toString(), 'SELECT pg_reload_conf()');
  }

  const port = await freePort();
  const name = `tipcard_replica_${port}`;
  await run('pg_createcluster', [PG_VERSION, name, '--port', String(port), '--', '--auth=trust']);
  const dataDir = `/var/lib/postgresql/${PG_VERSION}/${name}`;
  const drop = async () => void (await run('pg_dropcluster', [PG_VERSION, name, '--stop']));
  try {
    // The new cluster's own files give way to the primary's: -R writes standby.signal and primary_conninfo.
    await run('find', [dataDir, '-mindepth', '1', '-delete']);
    await run('runuser', [
      '-u',
      'postgres',
      '--',
      'pg_basebackup',
      '--host',
      primary.hostname,
      '--port',
      primary.port || '5432',
      '--username',
      decodeURIComponent(primary.username) || 'postgres',
      '--pgdata',
      dataDir,
      '--write-recovery-conf',
      '--wal-method=stream',
      '--checkpoint=fast',
    ]);
    await run('pg_ctlcluster', [PG_VERSION, name, 'start']);
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const { recovering } = await queryOnce<{ recovering: boolean }>(url, 'SELECT pg_is_in_recovery() AS recovering');
  if (!recovering) {
    await drop();
    throw new Error('the new cluster is not a standby');
  }

  return {
    url,
    async catchUp(timeoutMs = 10_000) {
      const started = Date.now();
      const { lsn } = await queryOnce<{ lsn: string }>(adminUrl.toString(), 'SELECT pg_current_wal_lsn()::text AS lsn');
      const target = parseLsn(lsn);
      for (;;) {
        const { replayed } = await queryOnce<{ replayed: string }>(url, 'SELECT pg_last_wal_replay_lsn()::text AS replayed');
        if (parseLsn(replayed) >= target) return Date.now() - started;
        if (Date.now() - started > timeoutMs) throw new Error(`the replica did not replay ${lsn} in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    // pg_wal_replay_pause() only asks: replay goes on until the startup process sees the request, so wait for it.
    pauseReplay: async () => {
      await queryOnce(url, 'SELECT pg_wal_replay_pause()');
      for (let tries = 0; tries < 100; tries++) {
        const { state } = await queryOnce<{ state: string }>(url, 'SELECT pg_get_wal_replay_pause_state() AS state');
        if (state === 'paused') return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the replica did not pause its replay within 5 s');
    },
    resumeReplay: async () => void (await queryOnce(url, 'SELECT pg_wal_replay_resume()')),
    drop,
  };
}
