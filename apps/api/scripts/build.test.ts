import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const API_DIR = fileURLToPath(new URL('../', import.meta.url));
const WEB_INDEX = fileURLToPath(new URL('../../web/dist/index.html', import.meta.url));
const startCommand = (JSON.parse(readFileSync(join(API_DIR, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts.start!;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The production build as `npm start` runs it: `npm run build -w @tipcard/api`, then the start script's `node` command
 * on the output, from another working directory and with a bare environment, so nothing is found by luck.
 */
describe('the compiled server', () => {
  let child: ChildProcess;
  let base: string;
  let output = '';
  const dataDir = mkdtempSync(join(tmpdir(), 'tipcard-compiled-'));

  beforeAll(async () => {
    await promisify(execFile)('npm', ['run', 'build'], { cwd: API_DIR });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const [command, ...args] = startCommand.split(' ');
    child = spawn(
      command!,
      args.map((arg) => (arg.startsWith('dist/') ? join(API_DIR, arg) : arg)),
      {
        cwd: dataDir,
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    // The embedded database migrates on disk first: seconds alone, minutes on a machine busy with other suites.
    const deadline = Date.now() + 170_000;
    let status: number | undefined;
    while (Date.now() < deadline && status !== 200) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${output}`);
      status = (await fetch(`${base}/api/ready`).catch(() => undefined))?.status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 240_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is started by plain node, without tsx', () => {
    expect(startCommand).toMatch(/^node .*dist\/server\.js$/);
    expect(startCommand).not.toContain('tsx');
  });

  it('migrates its database from the copied migrations and answers /api/ready', async () => {
    const ready = await fetch(`${base}/api/ready`);
    expect(ready.status, output).toBe(200);
    expect(await ready.json()).toEqual({ data: { status: 'ok' } });
  });

  it('reads the translation catalogs it was built with: the sign-up SMS in Latvian and in English', async () => {
    const smsIn = async (language: string, phone: string) => {
      const registered = await fetch(`${base}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': language },
        body: JSON.stringify({ username: phone, age_confirmed: true, terms_accepted: true }),
      });
      expect(registered.status).toBe(200);
      const outbox = (await (await fetch(`${base}/api/dev/outbox?to=${encodeURIComponent(phone)}`)).json()) as {
        data: { body: string }[];
      };
      return outbox.data[0]!.body;
    };
    const latvian = await smsIn('lv', '+37120000101');
    const english = await smsIn('en', '+37120000102');
    for (const text of [latvian, english]) expect(text).toMatch(/\b\d{6}\b/);
    expect(latvian.replace(/\d/g, '')).not.toBe(english.replace(/\d/g, ''));
    expect(latvian).not.toContain('sms.');
  });

  it.skipIf(!existsSync(WEB_INDEX))('serves the built web app (after `npm run build`)', async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    // The entry script the build wrote into its index, served from apps/web/dist as found from the compiled code.
    const entry = /src="(\/assets\/index-[^"]+\.js)"/.exec(readFileSync(WEB_INDEX, 'utf8'))![1]!;
    expect(await page.text()).toContain(entry);
    const script = await fetch(`${base}${entry}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
  });
});
