/**
 * A benchmark's subject in a child process of its own (so the load generator in the benchmark's process does not
 * share its event loop), on a free port: the real server (`apps/api/src/server.ts`, ready when `/api/ready` is) or
 * another script, such as the bare hello-world.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface RunningServer {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `script` with `env` over the benchmark's own environment, a throwaway DATA_DIR and warnings-only logs.
 * With BENCH_PROFILE_DIR set, the real server writes a CPU profile there when it stops (open it in Chrome's DevTools).
 */
export async function startServer(
  env: Record<string, string> = {},
  { script = 'apps/api/src/server.ts', readyPath = '/api/ready' }: { script?: string; readyPath?: string } = {},
): Promise<RunningServer> {
  const profile =
    process.env.BENCH_PROFILE_DIR && script === 'apps/api/src/server.ts'
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
      : [];
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'tipcard-bench-'));
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}${readyPath}`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error('the server did not become ready within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseUrl,
    pid: child.pid!,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
