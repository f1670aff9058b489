/**
 * What `npm run test:cluster` and `npm run sim` share: a throwaway PostgreSQL database, the environment every instance
 * of one cluster runs with, API servers and workers as child processes (started, awaited, killed with SIGKILL), and an
 * HTTP client that fails over to the other server the way a balancer retries.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export { ADMIN_URL, createDatabase, databaseUrlOf } from './databases.ts';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function waitFor(what: string, timeoutMs: number, done: () => Promise<boolean>, everyMs = 250) {
  const until = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The environment of every instance of one cluster: one database, one Redis, one secret, short waits, no inline worker. */
export function clusterEnv(databaseUrl: string, jwtSecret: string, overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    // One secret for every instance: a token signed by one server is good on the other.
    JWT_SECRET: jwtSecret,
    // Behind one balancer: each simulated client names its address, so per-IP limits count per client, not per test.
    TRUST_PROXY: '1',
    WORKER: 'off',
    WORKER_INTERVAL_MS: '250',
    FEE_PERCENT: '0',
    HOLD_HOURS: '0.001',
    RECONCILE_AFTER_MINUTES: '0.1',
    SANDBOX_WEBHOOK_DELAY_MS: '50',
    SANDBOX_PAYOUT_DELAY_MS: '500',
    PAYOUT_RAIL: 'sandbox',
    ...overrides,
  };
}

export interface Instance {
  name: string;
  script: string;
  port?: number;
  process?: ChildProcess;
  starts: number;
}

/** Two API servers on `basePort` and the next, and two workers. */
export function clusterInstances(basePort: number): { servers: Instance[]; workers: Instance[] } {
  return {
    servers: [0, 1].map((i) => ({ name: `server-${'AB'[i]}`, script: 'apps/api/src/server.ts', port: basePort + i, starts: 0 })),
    workers: [0, 1].map((i) => ({ name: `worker-${i + 1}`, script: 'apps/api/src/jobs/worker-main.ts', starts: 0 })),
  };
}

/**
 * Every instance process still running: a driver stopped by Ctrl-C, `kill` or a `timeout` takes them with it, rather
 * than leaving servers and workers polling a database that is gone.
 */
const running = new Set<ChildProcess>();
const killRunning = () => {
  for (const child of running) child.kill('SIGKILL');
};
process.once('exit', killRunning);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killRunning();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/** Starts the instance with `env`, its output appended to `<logs>/<name>.log`. */
export function start(instance: Instance, env: NodeJS.ProcessEnv, logs: string) {
  instance.starts += 1;
  const log = createWriteStream(join(logs, `${instance.name}.log`), { flags: 'a' });
  const child = spawn('node', ['--import', 'tsx', instance.script], {
    cwd: ROOT,
    env: {
      ...env,
      ...(instance.port ? { PORT: String(instance.port), PUBLIC_URL: `http://127.0.0.1:${instance.port}` } : {}),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'tipcard-cluster-data-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  running.add(child);
  child.once('exit', () => running.delete(child));
  instance.process = child;
}

export async function untilReady(instance: Instance, logs: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(`http://127.0.0.1:${instance.port}/api/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`${instance.name} did not become ready (log: ${join(logs, `${instance.name}.log`)})`);
}

export function kill9(instance: Instance) {
  instance.process?.kill('SIGKILL');
  instance.process = undefined;
}

/** SIGTERM to every instance, then SIGKILL to any still there a second later. */
export async function stopAll(instances: Instance[]) {
  for (const instance of instances) instance.process?.kill('SIGTERM');
  await sleep(1_000);
  for (const instance of instances) instance.process?.kill('SIGKILL');
}

export interface Answer {
  status: number;
  body: any;
  server: number;
  location: string | null;
}

export interface CallOptions {
  token?: string;
  key?: string;
  json?: unknown;
  /** A raw JSON text (e.g. one a client could not have built with JSON.stringify). */
  rawJson?: string;
  form?: string;
  headers?: Record<string, string>;
}

export interface ClientFigures {
  requests: number;
  failovers: number;
  refusals: Record<string, number>;
  serverErrors: string[];
}

export const newClientFigures = (): ClientFigures => ({ requests: 0, failovers: 0, refusals: {}, serverErrors: [] });

/**
 * `call(prefer, ip, …)`: one request to server `prefer`, as a client behind the balancer at `ip`; when that server is
 * down (killed) the same request, with the same Idempotency-Key, goes to the other one, as the balancer would retry it.
 * 5xx answers and refusals are counted in `figures`, and each answer's time and status told to `observe`. `codeFrom`: the newest code texted to a phone, from the dev outbox.
 */
export function clusterClient(
  servers: Instance[],
  figures: ClientFigures,
  observe?: (answer: { ms: number; status: number }) => void,
) {
  async function call(prefer: number, ip: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    for (let attempt = 0; attempt < servers.length; attempt += 1) {
      const server = (prefer + attempt) % servers.length;
      const headers: Record<string, string> = { 'x-forwarded-for': ip, ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.key) headers['idempotency-key'] = options.key;
      if (options.json !== undefined || options.rawJson !== undefined) headers['content-type'] = 'application/json';
      if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      figures.requests += 1;
      const sent = performance.now();
      try {
        const answer = await fetch(`http://127.0.0.1:${servers[server]!.port}${path}`, {
          method,
          headers,
          redirect: 'manual',
          body: options.json !== undefined ? JSON.stringify(options.json) : (options.rawJson ?? options.form),
        });
        const text = await answer.text();
        observe?.({ ms: performance.now() - sent, status: answer.status });
        const body = text && answer.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
        if (answer.status >= 500) figures.serverErrors.push(`${method} ${path} → ${answer.status} on ${servers[server]!.name}`);
        else if (answer.status >= 400) {
          const refusal = `${answer.status} ${body?.code ?? ''}`.trim();
          figures.refusals[refusal] = (figures.refusals[refusal] ?? 0) + 1;
        }
        return { status: answer.status, body, server, location: answer.headers.get('location') };
      } catch {
        figures.failovers += 1;
      }
    }
    throw new Error(`${method} ${path}: no server answered`);
  }

  /** The newest code texted to `phone` in a text that has `marker`, read from the dev outbox (it answers loopback). */
  async function codeFrom(prefer: number, phone: string, marker = ''): Promise<string> {
    for (let tries = 0; tries < 50; tries += 1) {
      const outbox = await call(prefer, '127.0.0.1', 'GET', `/api/dev/outbox?limit=50&to=${encodeURIComponent(phone)}`);
      for (const message of (outbox.body?.data ?? []) as { body: string }[]) {
        const code = message.body.includes(marker) ? /\b(\d{6})\b/.exec(message.body)?.[1] : undefined;
        if (code) return code;
      }
      await sleep(100);
    }
    throw new Error(`no code for ${phone}`);
  }

  return { call, codeFrom };
}
