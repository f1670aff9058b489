import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabase, dropDatabase } from '../cluster/databases.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** The compiled server, as production runs it: `npm run build` (which `npm run test:e2e` runs first) makes it. */
const SERVER_SCRIPT = 'apps/api/dist/server.js';
export const READY_TIMEOUT_MS = 300_000;

export interface TestServer {
  port: number;
  /** `http://localhost:<port>`: the browser's cookies are set for `localhost`. */
  base: string;
  /** Everything the server printed on stdout so far (the first admin's set-up link is printed there). */
  output(): string;
  /** SIGTERM, and SIGKILL if it has not exited within 10 seconds; then its data folder goes. */
  stop(): Promise<void>;
}

/** The servers of this Playwright worker still running: a worker that ends abruptly must not leave one on its port. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts the compiled server on `port` with `env` over the usual development settings, on an embedded database in a
 * data folder of its own unless `env` names a DATABASE_URL (one in this process's environment is never inherited),
 * and resolves once `/api/ready` answers. REDIS_URL is inherited; the rate-limit counters get a namespace of this
 * server's own, so servers of parallel workers count as separate services, like the one server of a serial run.
 */
export async function startServer(port: number, env: NodeJS.ProcessEnv = {}): Promise<TestServer> {
  await assertPortFree(port);
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'tipcard-e2e-'));
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.DATABASE_URL;
  const child = spawn('node', ['--enable-source-maps', SERVER_SCRIPT], {
    cwd: ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      RATE_LIMIT_NAMESPACE: `e2e-${port}-${randomUUID().slice(0, 8)}:`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(child);
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
    // Shown with the test that is running: the server's warnings and errors (LOG_LEVEL=warn) and its start banner.
    process.stdout.write(chunk);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  void exited.then(() => running.delete(child));
  const stop = async () => {
    if (running.has(child)) {
      child.kill('SIGTERM');
      const killLater = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killLater);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  // A fresh embedded database migrates at start: minutes on a busy 2-core machine.
  const until = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!running.has(child)) {
      await stop();
      throw new Error(`the server on port ${port} exited before it was ready:\n${printed.slice(-4_000)}`);
    }
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`the server on port ${port} was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${printed.slice(-4_000)}`);
    }
    // Polling for a state: the next look in a moment, or at once when the process exits.
    await Promise.race([exited, new Promise((done) => setTimeout(done, 200))]);
  }
  return { port, base, output: () => printed, stop };
}

/**
 * A server with a database of its own, empty at start: with DATABASE_URL in this run's environment (CI), a database
 * `<that database>_<suffix>` on that PostgreSQL, made afresh and dropped when the server stops (its migrations take
 * seconds there, where a fresh embedded database takes minutes on a busy 2-core machine); without it, the embedded one.
 * `databaseUrl` names the PostgreSQL database, for a command-line tool a spec runs on the same data.
 */
export async function startServerOnOwnDatabase(
  port: number,
  suffix: string,
  env: NodeJS.ProcessEnv = {},
): Promise<TestServer & { databaseUrl?: string }> {
  const shared = process.env.DATABASE_URL;
  if (!shared) return startServer(port, env);
  const name = `${new URL(shared).pathname.slice(1)}_${suffix}`;
  await dropDatabase(name, shared);
  const database = await createDatabase(name, undefined, shared);
  const server = await startServer(port, { ...env, DATABASE_URL: database.url }).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  return {
    ...server,
    databaseUrl: database.url,
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}

/** Refuses a port another process listens on: its /api/ready could answer for a server of ours that never started. */
async function assertPortFree(port: number) {
  await new Promise<void>((done, fail) => {
    const probe = createServer();
    probe.once('error', () =>
      fail(new Error(`port ${port} is in use; choose other ports with E2E_PORT (the first worker's port, default 3100)`)),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => done()));
  });
}
