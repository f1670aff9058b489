/**
 * `npm run bench:web`: figures for the web app's speed bars. Expects `npm run build` to have run; starts the server on
 * a free port with a throwaway DATA_DIR and prints one block per measurement. Not a test: it prints, it never fails on
 * a score. Each measurement is an exported function taking the base URL, so more can join `main` below.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The flags every browser run here uses (e2e/playwright.config.ts). */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface RunningServer {
  baseUrl: string;
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

/** The real server (API and built web app) on a free port with an empty embedded database. */
export async function startServer(): Promise<RunningServer> {
  if (!existsSync(join(ROOT, 'apps/web/dist/index.html'))) throw new Error('apps/web/dist is missing: run `npm run build` first');
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'tipcard-bench-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/ready`)).ok) break;
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
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  lcpMs: number;
  fcpMs: number;
  totalBlockingMs: number;
  layoutShift: number;
}

/** Lighthouse's default (mobile, throttled) run on the landing page, in Debian's Chromium. */
export async function measureLandingLighthouse(baseUrl: string): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    const result = await lighthouse(`${baseUrl}/`, {
      port: chrome.port,
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    const { categories, audits } = result.lhr;
    return {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? Number.NaN),
      fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? Number.NaN),
      totalBlockingMs: Math.round(audits['total-blocking-time']?.numericValue ?? Number.NaN),
      layoutShift: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    };
  } finally {
    chrome.kill();
  }
}

/** One file the guest's payment page loads, with its size on the wire when gzipped. */
export interface PaymentPageFile {
  path: string;
  bytes: number;
  gzipBytes: number;
}

export interface PaymentPageWeight {
  files: PaymentPageFile[];
  totalGzipBytes: number;
  /** Chunks the page may import later (the anti-bot widget when configured): listed, not counted. */
  lazy: string[];
}

/** A staff member with a card, made through the API as a user would (register, code from the dev outbox, verify). */
async function createCard(baseUrl: string): Promise<string> {
  const json = async (response: Response) => {
    if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: unknown }).data;
  };
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${baseUrl}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const phone = `+37129${String(Date.now()).slice(-6)}`;
  const { uuid } = (await json(await post('/register', { username: phone, age_confirmed: true, terms_accepted: true }))) as {
    uuid: string;
  };
  const outbox = (await json(await fetch(`${baseUrl}/api/dev/outbox?to=${encodeURIComponent(phone)}`))) as { body: string }[];
  const code = /\b(\d{6})\b/.exec(outbox[0]?.body ?? '')?.[1];
  if (!code) throw new Error('no sign-up code in the dev outbox');
  const { jwt } = (await json(await post(`/register/${uuid}/verify`, { code }))) as { jwt: string };
  const me = (await json(await fetch(`${baseUrl}/api/me`, { headers: { authorization: `Bearer ${jwt}` } }))) as {
    clients: { id: string }[];
  };
  const card = (await json(
    await post(
      `/clients/${me.clients[0]!.id}/cards`,
      { public_name: 'Anna', title: 'Bench', activity_type: 'WAITER', country: 'LV', welcome_phrase: 'Thank you!' },
      jwt,
    ),
  )) as { id: string };
  return card.id;
}

/**
 * Everything `/payment/{cardId}` loads for its first render, gzipped: the HTML the server answers (card inlined), the
 * scripts, module preloads and stylesheets it names, and recursively every static import of those scripts and every
 * font or image their CSS references. Dynamic imports are listed apart: the page renders without them.
 */
export async function measurePaymentPageWeight(baseUrl: string): Promise<PaymentPageWeight> {
  const { gzipSync } = await import('node:zlib');
  const cardId = await createCard(baseUrl);
  const files = new Map<string, PaymentPageFile>();
  const lazy = new Set<string>();
  const queue: string[] = [];
  const add = (path: string, body: Buffer) => files.set(path, { path, bytes: body.length, gzipBytes: gzipSync(body).length });

  const pagePath = `/payment/${cardId}`;
  const html = Buffer.from(await (await fetch(`${baseUrl}${pagePath}`)).arrayBuffer());
  add(pagePath, html);
  for (const match of html.toString('utf8').matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)) {
    const tag = match[0];
    if (tag.startsWith('<link') && !/rel="(?:stylesheet|modulepreload|preload)"/.test(tag)) continue;
    queue.push(match[1]!);
  }
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (files.has(path)) continue;
    const response = await fetch(new URL(path, baseUrl));
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    add(path, body);
    const text = body.toString('utf8');
    const resolve = (specifier: string) => new URL(specifier, new URL(path, baseUrl)).pathname;
    if (path.endsWith('.js')) {
      for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.{1,2}\/[^"'`]+)["'`]/g)) queue.push(resolve(m[1]!));
      for (const m of text.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+)["'`]\s*\)/g)) lazy.add(resolve(m[1]!));
    } else if (path.endsWith('.css')) {
      for (const m of text.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g))
        if (!m[1]!.startsWith('data:')) queue.push(resolve(m[1]!));
    }
  }
  for (const path of files.keys()) lazy.delete(path);
  const list = [...files.values()];
  return { files: list, totalGzipBytes: list.reduce((sum, file) => sum + file.gzipBytes, 0), lazy: [...lazy] };
}

async function main() {
  const server = await startServer();
  try {
    const payment = await measurePaymentPageWeight(server.baseUrl);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    console.log(`Guest payment page /payment/{cardId}: everything it loads for its first render, gzipped (target ≤ 120 KB)`);
    for (const file of payment.files)
      console.log(
        `  ${kb(file.gzipBytes).padStart(9)}  ${file.path.replace(/\/payment\/[0-9a-f-]{36}$/, '/payment/{cardId}')}  (${kb(file.bytes)} raw)`,
      );
    const verdict = payment.totalGzipBytes <= 120 * 1024 ? 'within' : 'OVER';
    console.log(`  ${kb(payment.totalGzipBytes).padStart(9)}  total: ${verdict} the 120 KB target`);
    if (payment.lazy.length > 0) console.log(`  (loaded only when needed, not counted: ${payment.lazy.join(', ')})`);
    console.log('');

    const landing = await measureLandingLighthouse(server.baseUrl);
    console.log('Landing page, Lighthouse mobile profile (targets: performance ≥ 90, accessibility ≥ 95)');
    console.log(`  performance    ${landing.performance}`);
    console.log(`  accessibility  ${landing.accessibility}`);
    console.log(`  LCP            ${(landing.lcpMs / 1000).toFixed(2)} s`);
    console.log(
      `  (FCP ${(landing.fcpMs / 1000).toFixed(2)} s, total blocking time ${landing.totalBlockingMs} ms, CLS ${landing.layoutShift.toFixed(3)})`,
    );
  } finally {
    await server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
