import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * The real server as a child process, for the tests that kill it (SIGKILL takes its whole process group at once) and
 * start it again on the same data: `integrations/sandbox-psp/sandbox-kill.test.ts`, `payout-schedules-kill.test.ts`.
 */
const API_DIR = fileURLToPath(new URL('../../', import.meta.url));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

export interface Server {
  base: string;
  child: ChildProcess;
  output: () => string;
}

/** `npm start`'s command in its own process group, so a kill takes the whole server down at once; on a free port unless given one. */
export async function startServer(env: Record<string, string>, port?: number): Promise<Server> {
  port ??= await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: API_DIR,
    // Only what is named here: the suite's own DATABASE_URL must not leak into the embedded case.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const server = { base: `http://127.0.0.1:${port}`, child, output: () => output };
  await until(`server on port ${port} answers`, 90_000, async () => {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    return (await fetch(`${server.base}/api/health`).catch(() => undefined))?.ok === true;
  });
  return server;
}

export async function kill(server: Server, signal: NodeJS.Signals) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = once(server.child, 'exit');
  process.kill(-server.child.pid!, signal);
  await exited;
}

/** Polls `done` until it holds, failing after `limitMs`. */
export async function until(what: string, limitMs: number, done: () => Promise<boolean>) {
  const deadline = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
