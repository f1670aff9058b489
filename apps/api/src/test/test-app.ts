import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Locale } from '@tipcard/shared/constants';
import { buildApp, type AppOverrides } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import type { Clock } from '../lib/clock.ts';
import { drainJob } from './jobs.ts';
import { createTestDatabase } from './test-database.ts';

/** A clock that tests move by hand. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function createTestClock(start = new Date('2026-11-20T10:00:00Z')): TestClock {
  let current = start.getTime();
  return { now: () => new Date(current), advance: (ms) => void (current += ms) };
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  /** Inject with JSON parsed; `token` adds the bearer header. */
  call(options: InjectOptions & { token?: string }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** Runs one of the app's jobs by hand (test apps run no worker), e.g. `payments.release`, until nothing is due at the test clock's time; answers how many items it did. */
  runJob(name: string): Promise<number>;
  /** The newest code texted to `phone`, read from the dev outbox like a developer would. */
  lastCode(phone: string): Promise<string>;
  close(): Promise<void>;
}

/** The real app on a clean database; only the clock is fake. Rate-limit counters are private to this app. */
export async function createTestApp(
  options: { env?: Record<string, string>; config?: Partial<Config>; overrides?: AppOverrides } = {},
): Promise<TestApp> {
  // A database given by the test (several instances on one) is the test's to close.
  const ownDatabase = options.overrides?.database ? undefined : await createTestDatabase();
  const database = options.overrides?.database ?? ownDatabase;
  const clock = createTestClock();
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WORKER: 'off',
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      ...options.env,
    },
    {
      jwtSecret: 'test-secret-that-is-long-enough-for-hs256-signing',
      rateLimitNamespace: `test-${randomUUID()}:`,
      ...options.config,
    },
  );
  const app = await buildApp(config, { database, clock, ...options.overrides });
  await app.ready();

  const call: TestApp['call'] = async ({ token, ...options }) => {
    const response = await app.inject({
      ...options,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers },
    } as InjectOptions);
    let body: unknown = response.body;
    if (String(response.headers['content-type'] ?? '').includes('application/json')) body = response.json();
    return { status: response.statusCode, body, headers: response.headers };
  };

  return {
    app,
    clock,
    call,
    runJob: (name) => runJob(app, name),
    async lastCode(phone) {
      const { body } = await call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(phone)}` });
      const code = /\b(\d{6})\b/.exec(body.data[0]?.body ?? '')?.[1];
      if (!code) throw new Error(`no code was texted to ${phone}`);
      return code;
    },
    async close() {
      await app.close();
      await ownDatabase?.close();
    },
  };
}

/** Runs the app's job `name` until it has nothing due at the app's clock; answers how many items it did. */
export async function runJob(app: FastifyInstance, name: string): Promise<number> {
  const job = app.services.jobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no job named ${name}`);
  return drainJob(job, () => app.services.clock.now());
}

let phoneCounter = 0;
/** A valid Latvian mobile number, different on every call. */
export function uniquePhone(): string {
  phoneCounter += 1;
  return `+3712${String(Date.now() % 1_000_000)
    .padStart(6, '0')
    .slice(0, 3)}${String(phoneCounter).padStart(4, '0')}`;
}

let signUpCounter = 0;
/**
 * Registers and verifies a new user; answers its tokens, id and private client. Each from an address of its own, as
 * people sign up from their own phones: a file that signs up many users within a minute is not one address over the
 * sign-up limit (tests of that limit call the route themselves).
 */
export async function signUp(t: TestApp, phone = uniquePhone()) {
  signUpCounter += 1;
  const registered = await t.call({
    method: 'POST',
    url: '/api/register',
    payload: { username: phone, age_confirmed: true, terms_accepted: true },
    remoteAddress: `10.66.${(signUpCounter >> 8) & 255}.${signUpCounter & 255}`,
  });
  if (registered.status !== 200) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const code = await t.lastCode(phone);
  const verified = await t.call({ method: 'POST', url: `/api/register/${registered.body.data.uuid}/verify`, payload: { code } });
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
  const me = await t.call({ method: 'GET', url: '/api/me', token: verified.body.data.jwt });
  return {
    phone,
    jwt: verified.body.data.jwt as string,
    refreshToken: verified.body.data.refresh_token as string,
    userId: me.body.data.id as string,
    clientId: me.body.data.clients[0].id as string,
  };
}

/** Settings → language: the language of every text, e-mail and PDF the user is sent from now on. */
export async function chooseLanguage(t: TestApp, user: { clientId: string; jwt: string }, language: Locale) {
  const saved = await t.call({
    method: 'PATCH',
    url: `/api/clients/${user.clientId}/language`,
    token: user.jwt,
    payload: { language },
  });
  if (saved.status !== 200) throw new Error(`choosing the language failed: ${JSON.stringify(saved.body)}`);
}

/** The smallest valid card body. */
export const CARD_INPUT = {
  title: 'Bar Riga',
  public_name: 'Anna',
  welcome_phrase: null,
  public_text: null,
  activity_type: 'WAITER',
  country: 'LV',
  instagram: null,
  facebook: null,
  tiktok: null,
} as const;

/** A signed-up staff member with a private card, made through the API. */
export async function signUpWithCard(t: TestApp, card: Partial<Record<keyof typeof CARD_INPUT, string | null>> = {}) {
  const user = await signUp(t);
  const created = await t.call({
    method: 'POST',
    url: `/api/clients/${user.clientId}/cards`,
    token: user.jwt,
    payload: { ...CARD_INPUT, ...card },
  });
  if (created.status !== 201) throw new Error(`card create failed: ${JSON.stringify(created.body)}`);
  return { ...user, cardId: created.body.data.id as string };
}
