import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { ConfigError, databaseOptions, loadConfig } from './config.ts';
import { PRODUCTION_ENV } from './test/production-env.ts';
import { createTestDatabase } from './test/test-database.ts';
import { createTestApp, runJob, type TestApp } from './test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('platform', () => {
  it('answers health and readiness', async () => {
    expect(await t.call({ method: 'GET', url: '/api/health' })).toMatchObject({ status: 200, body: { data: { status: 'ok' } } });
    expect(await t.call({ method: 'GET', url: '/api/ready' })).toMatchObject({ status: 200, body: { data: { status: 'ok' } } });
  });

  it('sends the security headers on every response, without HSTS on localhost', async () => {
    for (const url of ['/api/health', '/api/nope']) {
      const { headers } = await t.call({ method: 'GET', url });
      expect(headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('answers an unknown API route with a 404 in the error format', async () => {
    const response = await t.call({ method: 'GET', url: '/api/does-not-exist' });
    expect(response).toMatchObject({ status: 404, body: { code: 'not_found', errors: ['Not found'], validation_errors: {} } });
  });

  it('answers malformed JSON with a 400 in the error format', async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/request-otp',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(response).toMatchObject({ status: 400, body: { code: 'bad_request', errors: ['Malformed request'] } });
  });

  it('answers an unknown content type with 415 and a body of the wrong shape with 422', async () => {
    expect(
      (await t.call({ method: 'POST', url: '/api/request-otp', headers: { 'content-type': 'application/xml' }, payload: '<x/>' }))
        .status,
    ).toBe(415);
    expect(
      (await t.call({ method: 'POST', url: '/api/request-otp', headers: { 'content-type': 'text/plain' }, payload: 'x' })).status,
    ).toBe(422);
    expect((await t.call({ method: 'POST', url: '/api/request-otp', payload: [1, 2] as unknown as object })).status).toBe(422);
  });

  it('serves the OpenAPI document generated from the zod schemas, and its UI', async () => {
    const json = await t.call({ method: 'GET', url: '/api/docs/json' });
    expect(json.status).toBe(200);
    expect(Object.keys(json.body.paths)).toEqual(expect.arrayContaining(['/api/request-otp', '/api/login_check', '/api/me']));
    expect(json.body.paths['/api/register'].post.requestBody.content['application/json'].schema.required).toContain('username');
    const ui = await t.call({ method: 'GET', url: '/api/docs/' });
    expect(ui.status).toBe(200);
    expect(String(ui.headers['content-type'])).toContain('text/html');
  });
});

describe('the web app', () => {
  it('answers page paths with its index, files as they are, and a missing asset with a 404', async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'tipcard-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Tipcard</title>');
    writeFileSync(join(webDist, 'assets', 'app-1.js'), 'console.log(1)');
    const web = await createTestApp({ config: { webDist } });
    try {
      for (const url of ['/', '/teams/4b1d/join', '/#/login']) {
        const page = await web.call({ method: 'GET', url });
        expect(page.status).toBe(200);
        expect(page.body).toMatch(/<title>Tipcard[^<]*<\/title>/);
        expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      }
      expect((await web.call({ method: 'GET', url: '/assets/app-1.js' })).headers['content-type']).toContain('javascript');
      expect((await web.call({ method: 'GET', url: '/assets/app-0.js' })).status).toBe(404);
      expect((await web.call({ method: 'GET', url: '/api/unknown' })).body.code).toBe('not_found');
    } finally {
      await web.close();
    }
  });
});

describe('production mode', () => {
  it('has no dev outbox nor pseudo-locale, sends HSTS on https, and never shows internals in a 500', async () => {
    const database = await createTestDatabase();
    const config = loadConfig({ ...PRODUCTION_ENV, LOG_LEVEL: 'silent', PUBLIC_URL: 'https://tipcard.example' });
    const app = await buildApp(config, { database });
    app.get('/api/boom', async () => {
      throw new Error('connection string postgres://secret@db');
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
      // The pseudo-locale is for development and tests: whatever a visitor sets, there are no catalogs to switch to.
      const pseudo = await app.inject({ method: 'GET', url: '/api/dev/pseudo-catalogs', headers: { cookie: 'locale=pseudo' } });
      expect(pseudo.statusCode).toBe(404);
      expect(pseudo.json()).toMatchObject({ code: 'not_found' });
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.headers['strict-transport-security']).toContain('max-age=31536000');
      const boom = await app.inject({ method: 'GET', url: '/api/boom' });
      expect(boom.statusCode).toBe(500);
      expect(boom.json()).toEqual({
        message: 'Something went wrong',
        code: 'internal',
        errors: ['Something went wrong'],
        validation_errors: {},
      });
      expect(boom.body).not.toContain('secret');
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('logs', () => {
  it('never carry codes, tokens or phone numbers through a sign-up and sign-in in production', async () => {
    const lines: string[] = [];
    const texts: { to: string; body: string }[] = [];
    const database = await createTestDatabase();
    const config = loadConfig({ ...PRODUCTION_ENV, LOG_LEVEL: 'trace' });
    const app = await buildApp(config, {
      database,
      logStream: { write: (line) => void lines.push(line) },
      sms: { send: async (to, body) => void texts.push({ to, body }) },
    });
    try {
      const phone = '+37129998877';
      const registered = await app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: phone, age_confirmed: true, terms_accepted: true },
      });
      await runJob(app, 'messages.deliver');
      const code = /\d{6}/.exec(texts[0]!.body)![0];
      await app.inject({
        method: 'POST',
        url: `/api/register/${registered.json().data.uuid}/verify`,
        payload: { code: '000000' },
      });
      const verified = await app.inject({
        method: 'POST',
        url: `/api/register/${registered.json().data.uuid}/verify`,
        payload: { code },
      });
      const { jwt, refresh_token } = verified.json().data;
      await app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${jwt}` } });
      await app.inject({ method: 'POST', url: '/api/refresh-token', payload: { refreshToken: refresh_token } });
      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(5);
      for (const secret of [code, jwt, refresh_token, phone, phone.slice(1)]) expect(log).not.toContain(secret);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('configuration', () => {
  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', NODE_ENV: 'production', SMS_PROVIDER: 'carrier-pigeon' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'SMS_PROVIDER']) expect(problems).toContain(name);
  });

  it('requires JWT_SECRET and a real SMS provider in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SANDBOX_PAYMENTS: '1' })).toThrow(/JWT_SECRET[\s\S]*SMS_PROVIDER/);
  });

  it('takes JWT_SECRET_PREVIOUS only beside a different JWT_SECRET', () => {
    const secret = 'a'.repeat(40);
    expect(() => loadConfig({ ...PRODUCTION_ENV, JWT_SECRET_PREVIOUS: PRODUCTION_ENV.JWT_SECRET })).toThrow(
      /JWT_SECRET_PREVIOUS: must differ from JWT_SECRET/,
    );
    expect(() => loadConfig({ JWT_SECRET_PREVIOUS: secret })).toThrow(/JWT_SECRET: is required with JWT_SECRET_PREVIOUS/);
    expect(() => loadConfig({ ...PRODUCTION_ENV, JWT_SECRET_PREVIOUS: 'short' })).toThrow(
      /JWT_SECRET_PREVIOUS: must be at least 32/,
    );
    expect(loadConfig({ ...PRODUCTION_ENV, JWT_SECRET_PREVIOUS: secret }).jwtSecretPrevious).toBe(secret);
  });

  it("requires the operator's name, registration, address and support e-mail in production, and takes them", () => {
    for (const name of ['COMPANY_NAME', 'COMPANY_REGISTRATION_NUMBER', 'COMPANY_ADDRESS', 'SUPPORT_EMAIL'] as const) {
      expect(() => loadConfig({ ...PRODUCTION_ENV, [name]: '' })).toThrow(new RegExp(`${name}: is required in production`));
    }
    expect(loadConfig(PRODUCTION_ENV).site).toMatchObject({
      companyName: 'Tipcard SIA',
      supportEmail: 'support@tipcard.example',
    });
  });

  it("keeps the embedded data in the repository's ./data, and reads a relative DATA_DIR from where npm was started", () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    expect(loadConfig({}, { jwtSecret: 'x'.repeat(40) }).dataDir).toBe(join(root, 'data'));
    expect(loadConfig({ DATA_DIR: 'elsewhere', INIT_CWD: '/srv/tipcard' }, { jwtSecret: 'x'.repeat(40) }).dataDir).toBe(
      '/srv/tipcard/elsewhere',
    );
    expect(loadConfig({ DATA_DIR: '/var/lib/tipcard' }, { jwtSecret: 'x'.repeat(40) }).dataDir).toBe('/var/lib/tipcard');
  });

  it('takes a read replica and a transaction pooler only with PostgreSQL', () => {
    const secret = { jwtSecret: 'x'.repeat(40) };
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://replica/tipcard' }, secret)).toThrow(
      /DATABASE_URL: is required with DATABASE_READ_URL/,
    );
    expect(() => loadConfig({ DATABASE_POOLER: 'pgbouncer-transaction' }, secret)).toThrow(
      /DATABASE_URL: is required with DATABASE_POOLER/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/tipcard', DATABASE_POOLER: 'pgpool' }, secret)).toThrow(
      /DATABASE_POOLER/,
    );
    const config = loadConfig(
      {
        DATABASE_URL: 'postgres://pgbouncer:6432/tipcard',
        DATABASE_READ_URL: 'postgres://replica/tipcard',
        DATABASE_POOLER: 'pgbouncer-transaction',
      },
      secret,
    );
    expect(databaseOptions(config)).toMatchObject({
      databaseUrl: 'postgres://pgbouncer:6432/tipcard',
      readUrl: 'postgres://replica/tipcard',
      pooler: 'pgbouncer-transaction',
    });
    expect(loadConfig({}, secret)).toMatchObject({ databaseReadUrl: undefined, databasePooler: 'none' });
  });

  it('has working defaults for the embedded mode', () => {
    const config = loadConfig({}, { jwtSecret: 'x'.repeat(40) });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      devOutbox: true,
    });
  });
});
