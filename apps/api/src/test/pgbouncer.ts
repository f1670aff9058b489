import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './streaming-replica.ts';

export interface PgBouncer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: swap the path for a database (every name is passed through). */
  url: string;
  stop(): Promise<void>;
}

const PGBOUNCER = '/usr/sbin/pgbouncer';

/** The uid and gid of a system user, as `id` gives them. */
function userInfoOf(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('error', () => resolve(false));
  });
}

/**
 * Debian's PgBouncer (`apt-get install pgbouncer`; 1.18 on Debian 12) in transaction mode in front of the PostgreSQL
 * at `primaryUrl` (trust auth), on a free port, with `serverConnections` server connections per database, so that
 * clients' transactions share them as in production. It refuses to run as root: it runs as the postgres user.
 */
export async function startPgBouncer(primaryUrl: string, serverConnections = 2): Promise<PgBouncer> {
  const primary = new URL(primaryUrl);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tipcard-pgbouncer-'));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${primary.hostname} port=${primary.port || '5432'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${serverConnections}`,
      'max_client_conn = 500',
      // node-postgres sends none of these, but a client that does must not be refused.
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  const postgresUser = userInfoOf('postgres');
  const child = spawn(PGBOUNCER, [join(dir, 'pgbouncer.ini')], {
    ...postgresUser,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Its log, for the error when it does not come up.
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => void (log = `${log}${chunk.toString()}`.slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let tries = 0; !(await listening(port)); tries += 1) {
    if (tries > 100 || child.exitCode !== null) {
      await stop();
      throw new Error(`pgbouncer did not listen on ${port}:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}
