/**
 * `npm run test:deploy` (issue 32): builds the production image (Dockerfile) and runs compose.yaml's set on this
 * machine with Podman and podman-compose from Debian's packages, then checks it from the outside: compose.yaml's shape,
 * every service's health check, both API instances ready through the TLS proxy, a sign-up, a card and a sandbox tip end
 * to end through the proxy, and the app containers running as a non-root user on a read-only root file system.
 *
 * No registry can be pulled here, so the base is assembled from Debian's packages: a minimal bookworm by debootstrap
 * with this machine's `node` (v20, as the official image has) copied in, passed as BASE_IMAGE; PostgreSQL, Redis and
 * Caddy run as images built on that base from Debian's packages (e2e/deploy/images), standing in for the official
 * ones compose.yaml names by default. The app containers run exactly as compose.yaml says (NODE_ENV=production).
 *
 * Needs root, and `apt-get install podman podman-compose buildah debootstrap runc`. Exits 1 on any failure; prints its
 * figures (image size, build and total time). KEEP=1 leaves the set running for a look (`podman ps`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';

const ROOT = resolve(import.meta.dirname, '../..');
const WORK = process.env.DEPLOY_WORK_DIR ?? '/var/tmp/tipcard-deploy-test';
const PROJECT = 'tipcard-deploy-test';
const HTTPS_PORT = Number(process.env.DEPLOY_HTTPS_PORT ?? 18443);
const DOMAIN = 'tipcard.test';
const BASE_IMAGE = 'localhost/tipcard-test-base:bookworm';
const IMAGE = 'localhost/tipcard:deploy-test';
const APP_UID = '10001';

const started = Date.now();
const figures: Record<string, string> = {};
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;

// ---- podman, as this sandbox lets it run ----

/**
 * Podman's settings for this machine kind (the reasons are in docs/decisions/0037-container-image.md): runc, because
 * crun refuses the hybrid cgroup layout here ("cgroups in hybrid mode not supported"); and limits no higher than this
 * shell's, because podman's defaults raise RLIMIT_NOFILE and RLIMIT_NPROC, which a root without CAP_SYS_RESOURCE may
 * not (here even setting NPROC to its current value is refused, so it gets a lower one).
 */
function containersConf(): string {
  const openFiles = execFileSync('bash', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
  const file = join(WORK, 'containers.conf');
  writeFileSync(
    file,
    [
      '[containers]',
      `default_ulimits = ["nofile=${openFiles}:${openFiles}", "nproc=4096:4096"]`,
      '[engine]',
      'runtime = "runc"',
      '',
    ].join('\n'),
  );
  return file;
}

let podmanEnv: NodeJS.ProcessEnv = process.env;

/** Runs a command; its output, or a thrown error with the output when it fails (unless `allowFailure`). */
function run(command: string, args: string[], options: { input?: Buffer; cwd?: string; allowFailure?: boolean } = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    env: podmanEnv,
    input: options.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0 && !options.allowFailure) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`.slice(-6000));
  }
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}
const podman = (...args: string[]) => run('podman', args).stdout;
const container = (service: string) => `${PROJECT}_${service}_1`;
const psql = (query: string) => podman('exec', container('postgres'), 'psql', '-U', 'tipcard', '-d', 'tipcard', '-tAc', query);

// ---- the images ----

/**
 * A minimal Debian bookworm with this machine's node and npm (and its extra CA certificates, for npm behind a proxy),
 * kept in WORK and in podman's store between runs: `podman rmi` it (or delete WORK) to assemble it afresh.
 */
function buildBase() {
  const rootfs = join(WORK, 'rootfs');
  if (!existsSync(join(rootfs, 'usr/local/bin/node'))) {
    rmSync(rootfs, { recursive: true, force: true });
    run('debootstrap', ['--variant=minbase', '--include=ca-certificates', 'bookworm', rootfs, 'http://deb.debian.org/debian']);
    cpSync(process.execPath, join(rootfs, 'usr/local/bin/node'));
    const npm = resolve(process.execPath, '../../lib/node_modules/npm');
    cpSync(npm, join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
    run('ln', ['-sf', '../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm')]);
    run('ln', ['-sf', '../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx')]);
    run('sh', ['-c', `cat /usr/local/share/ca-certificates/*.crt > ${rootfs}/usr/local/share/ca-certificates/host.crt || true`]);
    run('chroot', [rootfs, 'update-ca-certificates']);
    run('sh', ['-c', `rm -rf ${rootfs}/var/cache/apt/archives/*.deb ${rootfs}/var/lib/apt/lists/*`]);
  }
  if (run('podman', ['image', 'exists', BASE_IMAGE], { allowFailure: true }).status === 0) return;
  const tar = execFileSync('tar', ['-C', rootfs, '-c', '.'], { maxBuffer: 1024 * 1024 * 1024 });
  run(
    'podman',
    [
      'import',
      '--change',
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--change',
      'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
      '-',
      BASE_IMAGE,
    ],
    { input: tar },
  );
}

function buildImages() {
  let since = Date.now();
  buildBase();
  figures['base (debootstrap + node, imported)'] = seconds(since);
  since = Date.now();
  for (const name of ['postgres', 'redis', 'caddy']) {
    podman(
      'build',
      '-q',
      '--build-arg',
      `BASE_IMAGE=${BASE_IMAGE}`,
      '-f',
      `e2e/deploy/images/${name}.Containerfile`,
      '-t',
      `localhost/tipcard-test-${name}`,
      'e2e/deploy/images',
    );
  }
  figures['PostgreSQL, Redis and Caddy images (Debian packages)'] = seconds(since);
  since = Date.now();
  // Docker's format keeps the HEALTHCHECK (the OCI format has no field for it).
  podman('build', '--format', 'docker', '--build-arg', `BASE_IMAGE=${BASE_IMAGE}`, '-t', IMAGE, '.');
  figures['app image build'] = seconds(since);
  const size = Number(podman('image', 'inspect', IMAGE, '--format', '{{.Size}}'));
  const baseSize = Number(podman('image', 'inspect', BASE_IMAGE, '--format', '{{.Size}}'));
  figures['app image size'] = `${Math.round(size / 1e6)} MB (base ${Math.round(baseSize / 1e6)} MB)`;
}

// ---- compose.yaml's shape ----

interface Service {
  image?: string;
  command?: string[];
  restart?: string;
  read_only?: boolean;
  user?: string;
  cap_drop?: string[];
  ports?: string[];
  healthcheck?: { test?: string[] };
  environment?: Record<string, string>;
  env_file?: string | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
}

function checkComposeShape() {
  // Python's YAML reader (podman-compose's own) resolves the anchors and merge keys as compose does.
  const json = run('python3', ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'], {
    input: readFileSync(join(ROOT, 'compose.yaml')),
  }).stdout;
  const { services } = JSON.parse(json) as { services: Record<string, Service> };
  const names = Object.keys(services).sort();
  check(
    ['api-1', 'api-2', 'migrate', 'postgres', 'proxy', 'redis', 'worker'].every((name) => names.includes(name)),
    `compose.yaml has postgres, redis, migrate, two API instances, a worker and a proxy (${names.join(', ')})`,
  );
  for (const [name, service] of Object.entries(services)) {
    check((service.healthcheck?.test?.length ?? 0) > 0, `${name} has a health check`);
    check(Boolean(service.restart), `${name} has a restart policy (${service.restart})`);
    const literalSecrets = Object.entries(service.environment ?? {}).filter(
      ([key, value]) => /SECRET|PASSWORD|TOKEN/.test(key) && !String(value).includes('${'),
    );
    check(literalSecrets.length === 0, `${name} has no secret written in compose.yaml`);
  }
  const apps = Object.entries(services).filter(([, service]) => service.image?.includes('TIPCARD_IMAGE'));
  check(apps.length === 4, `migrate, api-1, api-2 and worker run the Tipcard image (${apps.map(([name]) => name).join(', ')})`);
  for (const [name, service] of apps) {
    check(
      service.read_only === true && service.user === `${APP_UID}:${APP_UID}` && Boolean(service.cap_drop?.includes('ALL')),
      `${name}: read-only root, user ${APP_UID}, no capabilities`,
    );
    check(
      service.env_file === '.env' && service.environment?.NODE_ENV === 'production',
      `${name}: production, settings from .env`,
    );
  }
  const published = Object.entries(services).filter(([, service]) => (service.ports?.length ?? 0) > 0);
  check(published.length === 1 && published[0]![0] === 'proxy', 'only the proxy publishes ports');
  check(
    services['api-1']?.environment?.WORKER === 'off' && services['api-2']?.environment?.WORKER === 'off',
    'the API instances run no jobs (WORKER=off)',
  );
  check(Boolean(services.worker?.command?.includes('apps/api/dist/worker.js')), 'the worker service runs the worker');
  check(services.migrate?.restart === 'no', 'migrate is a one-shot service');
}

// ---- the running set ----

/** The operator's layout: compose.yaml and deploy/ copied beside a .env, as README "Run it in production" says. */
function projectDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tipcard-deploy-'));
  cpSync(join(ROOT, 'compose.yaml'), join(dir, 'compose.yaml'));
  cpSync(join(ROOT, 'deploy'), join(dir, 'deploy'), { recursive: true });
  const secret = () => randomBytes(32).toString('hex');
  const env = {
    TIPCARD_IMAGE: IMAGE,
    POSTGRES_IMAGE: 'localhost/tipcard-test-postgres',
    REDIS_IMAGE: 'localhost/tipcard-test-redis',
    CADDY_IMAGE: 'localhost/tipcard-test-caddy',
    TIPCARD_DOMAIN: DOMAIN,
    TLS: 'internal',
    HTTP_PORT: String(HTTPS_PORT - 1),
    HTTPS_PORT: String(HTTPS_PORT),
    POSTGRES_PASSWORD: secret(),
    JWT_SECRET: secret(),
    // The sandbox provider in production is allowed only with this flag: a demo deployment, no real money.
    PAYMENT_PROVIDER: 'sandbox',
    SANDBOX_PAYMENTS: '1',
    SANDBOX_WEBHOOK_DELAY_MS: '50',
    SMS_PROVIDER: 'twilio',
    // A well-formed account that does not exist; texts stay in the outbox, where the test reads the sign-in code.
    TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: secret(),
    TWILIO_FROM: '+15005550006',
    // Twilio's client goes through HTTP_PROXY: a closed port, so the fake account never reaches Twilio.
    HTTP_PROXY: 'http://127.0.0.1:9',
    COMPANY_NAME: 'Tipcard Deploy Test SIA',
    COMPANY_REGISTRATION_NUMBER: '40000000000',
    COMPANY_ADDRESS: 'Brīvības iela 1, Rīga',
    SUPPORT_EMAIL: 'support@tipcard.test',
    PAYOUT_RAIL: 'sandbox',
  };
  writeFileSync(
    join(dir, '.env'),
    Object.entries(env)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n') + '\n',
  );
  return dir;
}

const compose = (dir: string, ...args: string[]) => run('podman-compose', ['-p', PROJECT, ...args], { cwd: dir });

function down(dir: string) {
  run('podman-compose', ['-p', PROJECT, 'down', '-v'], { cwd: dir, allowFailure: true });
  for (const volume of ['postgres-data', 'tipcard-data', 'caddy-data', 'caddy-config']) {
    run('podman', ['volume', 'rm', '-f', `${PROJECT}_${volume}`], { allowFailure: true });
  }
  // podman-compose 1.0.3's `down` leaves the project's network behind.
  run('podman', ['network', 'rm', '-f', `${PROJECT}_backend`], { allowFailure: true });
}

async function waitFor(what: string, timeoutMs: number, done: () => boolean | Promise<boolean>) {
  const until = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

const state = (name: string) =>
  run('podman', ['inspect', container(name), '--format', '{{.State.Status}} {{.State.ExitCode}}'], { allowFailure: true }).stdout;
/** Podman without systemd runs no health-check timers, so the test runs each service's check itself. */
const healthy = (name: string) => run('podman', ['healthcheck', 'run', container(name)], { allowFailure: true }).status === 0;

/** HTTPS to the proxy on this machine's port, trusting only Caddy's internal CA, with the domain's SNI. */
function proxyClient(ca: string) {
  const dispatcher = new Agent({
    connect: {
      ca,
      servername: DOMAIN,
      lookup: (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]),
    },
  });
  return async (method: string, path: string, options: { json?: unknown; form?: string; token?: string; key?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.key) headers['idempotency-key'] = options.key;
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const answer = await undiciFetch(`https://${DOMAIN}:${HTTPS_PORT}${path}`, {
      method,
      headers,
      redirect: 'manual',
      dispatcher,
      body: options.json !== undefined ? JSON.stringify(options.json) : options.form,
    });
    const text = await answer.text();
    const body: any = text && answer.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    return { status: answer.status, body, headers: answer.headers };
  };
}

async function endToEnd(call: ReturnType<typeof proxyClient>) {
  const phone = `+3712${String(1_000_000 + (Date.now() % 8_000_000)).padStart(7, '0')}`;
  const registered = await call('POST', '/api/register', {
    json: { username: phone, age_confirmed: true, terms_accepted: true },
  });
  check(registered.status === 200, `sign-up through the proxy answers 200 (${registered.status})`);
  // Production texts the code through Twilio; the test reads it from the outbox table the worker sends from.
  let code: string | undefined;
  await waitFor('the sign-up code in the outbox', 20_000, () => {
    const body = psql(`select body from outbox_messages where recipient = '${phone}' order by created_at desc limit 1`);
    code = /\b(\d{6})\b/.exec(body)?.[1];
    return Boolean(code);
  });
  const verified = await call('POST', `/api/register/${registered.body.data.uuid}/verify`, { json: { code } });
  check(verified.status === 200, `the code verifies (${verified.status})`);
  const token = verified.body.data.jwt as string;
  const me = await call('GET', '/api/me', { token });
  const clientId = me.body.data.clients[0].id as string;
  const card = await call('POST', `/api/clients/${clientId}/cards`, {
    token,
    json: {
      title: 'Deploy bar',
      public_name: 'Anna',
      welcome_phrase: null,
      public_text: null,
      activity_type: 'WAITER',
      country: 'LV',
      instagram: null,
      facebook: null,
      tiktok: null,
    },
  });
  check(card.status === 201, `a card is made (${card.status})`);
  const page = await call('GET', `/payment/${card.body.data.id}`);
  check(
    page.status === 200 && String(page.body).includes('Anna'),
    `the card's payment page is served and rendered (${page.status})`,
  );
  const payment = await call('POST', `/api/public/cards/${card.body.data.id}/payments`, {
    key: randomUUID(),
    json: { amount_cents: 1_500, cover_fee: false, terms_accepted: true },
  });
  check(payment.status === 201, `a guest opens a tip's checkout (${payment.status})`);
  const checkout = new URL(payment.body.data.checkout_url as string);
  check(checkout.origin === `https://${DOMAIN}`, `the checkout is on the public URL (${checkout.origin})`);
  const paid = await call('POST', `${checkout.pathname}${checkout.search}`, { form: 'method=card&card_number=4242424242424242' });
  check(paid.status === 303, `the sandbox checkout takes the card (${paid.status})`);
  const paymentId = payment.body.data.id as string;
  const status = () => psql(`select status from payments where id = '${paymentId}'`);
  await waitFor('the tip to succeed', 30_000, () => status() === 'succeeded').catch(() => undefined);
  check(status() === 'succeeded', `the tip succeeded: the sandbox's webhook reached an API instance (${status()})`);
}

async function main() {
  mkdirSync(WORK, { recursive: true });
  for (const tool of ['podman', 'podman-compose', 'debootstrap', 'runc']) {
    if (run('sh', ['-c', `command -v ${tool}`], { allowFailure: true }).status !== 0) {
      throw new Error(`${tool} is missing: apt-get install podman podman-compose buildah debootstrap runc`);
    }
  }
  podmanEnv = { ...process.env, CONTAINERS_CONF: containersConf() };
  checkComposeShape();
  buildImages();

  const dir = projectDir();
  down(dir);
  let since = Date.now();
  try {
    // Docker Compose holds migrate and the apps back until PostgreSQL and Redis are healthy (depends_on conditions);
    // podman-compose 1.0.3 ignores conditions, so the test starts them first, then the rest beside them.
    compose(dir, 'up', '-d', 'postgres', 'redis');
    await waitFor('PostgreSQL and Redis healthy', 120_000, () => healthy('postgres') && healthy('redis'));
    run('podman-compose', ['--no-cleanup', '-p', PROJECT, 'up', '-d'], { cwd: dir, allowFailure: true });
    await waitFor('migrate to finish', 120_000, () => state('migrate').startsWith('exited'));
    check(state('migrate') === 'exited 0', `the migrate service ran and exited 0 (${state('migrate')})`);
    if (failures.length > 0) throw new Error('the set did not start');
    const services = ['postgres', 'redis', 'api-1', 'api-2', 'worker', 'proxy'];
    await waitFor('every service healthy', 120_000, () => services.every(healthy));
    for (const service of services) check(healthy(service), `${service}'s health check passes`);
    figures['compose up to all healthy'] = seconds(since);

    // Caddy's internal CA signs the site's certificate; the client trusts that root and nothing else.
    let ca = '';
    await waitFor("Caddy's internal CA", 30_000, () => {
      const answer = run('podman', ['exec', container('proxy'), 'cat', '/data/caddy/pki/authorities/local/root.crt'], {
        allowFailure: true,
      });
      ca = answer.stdout;
      return answer.status === 0 && ca.includes('BEGIN CERTIFICATE');
    });
    const call = proxyClient(`${ca}\n`);
    await waitFor(
      '/api/ready through the proxy',
      60_000,
      async () => (await call('GET', '/api/ready').catch(() => ({ status: 0 }))).status === 200,
    );

    // Each instance alone behind the proxy: the other stopped, /api/ready still answers through TLS.
    for (const [up, stopped] of [
      ['api-1', 'api-2'],
      ['api-2', 'api-1'],
    ] as const) {
      podman('stop', '-t', '15', container(stopped));
      const ready = await call('GET', '/api/ready');
      check(ready.status === 200, `${up} alone answers /api/ready through the proxy over TLS (${ready.status})`);
      podman('start', container(stopped));
      await waitFor(`${stopped} healthy again`, 60_000, () => healthy(stopped));
    }
    await sleep(6_000); // the proxy's next active health check sees both again

    since = Date.now();
    await endToEnd(call);
    figures['sign-up, card and tip through the proxy'] = seconds(since);

    // The operators' commands run from the same image, on its read-only root, against the running database.
    const deadList = run('podman', ['exec', container('api-1'), 'node', 'apps/api/dist/ops-messages.js', 'list'], {
      allowFailure: true,
    });
    check(
      deadList.status === 0 && /\d+ dead message\(s\)/.test(deadList.stdout),
      `ops-messages.js lists dead messages in the image (${deadList.stdout.split('\n').pop()})`,
    );

    for (const service of ['api-1', 'api-2', 'worker']) {
      const uid = podman('exec', container(service), 'id', '-u');
      const config = podman('inspect', container(service), '--format', '{{.Config.User}} {{.HostConfig.ReadonlyRootfs}}');
      check(
        uid === APP_UID && config === `${APP_UID}:${APP_UID} true`,
        `${service} runs as uid ${uid} on a read-only root (${config})`,
      );
      const write = (path: string) =>
        run('podman', ['exec', container(service), 'node', '-e', `require('fs').writeFileSync('${path}', 'x')`], {
          allowFailure: true,
        });
      const refused = write('/app/written-at-run-time');
      check(
        refused.status !== 0 && /EROFS|read-only/i.test(refused.stderr),
        `${service} cannot write into the image (${/E[A-Z]+/.exec(refused.stderr)?.[0]})`,
      );
      check(write('/data/probe').status === 0 && write('/tmp/probe').status === 0, `${service} writes only to /data and /tmp`);
    }
  } finally {
    if (failures.length > 0) {
      for (const service of ['migrate', 'api-1', 'api-2', 'worker', 'proxy']) {
        const log = run('podman', ['logs', '--tail', '20', container(service)], { allowFailure: true });
        console.log(`--- ${service} log (tail) ---\n${log.stdout}\n${log.stderr}`);
      }
    }
    if (process.env.KEEP === '1') console.log(`KEEP=1: the set is still running (project ${PROJECT}, files in ${dir})`);
    else down(dir);
  }
}

try {
  await main();
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
  console.error(error);
}
figures['total'] = seconds(started);
console.log('\nfigures:');
for (const [what, value] of Object.entries(figures)) console.log(`  ${what}: ${value}`);
if (failures.length > 0) {
  console.error(`\n${failures.length} failure(s):\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
  process.exit(1);
}
console.log('\ntest:deploy passed');
process.exit(0);
