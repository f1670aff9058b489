import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((value) => value === '1' || value === 'true');

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: optionalText.pipe(z.url().optional()),
    REDIS_URL: optionalText.pipe(z.url().optional()),
    JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    SANDBOX_PAYMENTS: flag,
    PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
    TWILIO_ACCOUNT_SID: optionalText,
    TWILIO_AUTH_TOKEN: optionalText,
    TWILIO_FROM: optionalText,
    SMTP_URL: optionalText.pipe(z.url().optional()),
    TURNSTILE_SITE_KEY: optionalText,
    TURNSTILE_SECRET: optionalText,
    SENTRY_DSN: optionalText.pipe(z.url().optional()),
    HOLD_HOURS: z.coerce.number().int().min(0).max(24 * 60).default(24),
    FEE_PERCENT: z.coerce.number().min(0).max(5).default(5),
    VERIFICATION_LIMIT_CENTS: z.coerce.number().int().min(0).default(100_000),
    SHORT_LINKS: optionalText,
    WORKER: z.enum(['inline', 'off']).default('inline'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    const need = (name: keyof typeof env, why: string) => {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `is required ${why}` });
    };
    if (production) need('JWT_SECRET', 'in production');
    if (production && env.SMS_PROVIDER === 'outbox') {
      ctx.addIssue({ code: 'custom', path: ['SMS_PROVIDER'], message: 'must be twilio in production' });
    }
    if (env.SMS_PROVIDER === 'twilio') {
      for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const) need(name, 'with SMS_PROVIDER=twilio');
    }
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) need(name, 'with PAYMENT_PROVIDER=stripe');
    }
    if (production && env.PAYMENT_PROVIDER === 'sandbox' && !env.SANDBOX_PAYMENTS) {
      ctx.addIssue({ code: 'custom', path: ['PAYMENT_PROVIDER'], message: 'sandbox needs SANDBOX_PAYMENTS=1 in production' });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  production: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** PostgreSQL when set; otherwise the embedded PGlite database under dataDir (or in memory for tests). */
  databaseUrl: string | undefined;
  /** In-memory PGlite instead of dataDir: tests only. */
  inMemoryDatabase: boolean;
  redisUrl: string | undefined;
  jwtSecret: string;
  sms: { provider: 'outbox' } | { provider: 'twilio'; accountSid: string; authToken: string; from: string };
  /** The dev outbox (GET /api/dev/outbox and SMS printed to the log) exists only outside production. */
  devOutbox: boolean;
  turnstileSecret: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  /** Prefix for rate-limit keys in Redis, so that test apps do not share counters. */
  rateLimitNamespace: string;
  worker: Env['WORKER'];
  /** The built web app served at `/` (apps/web/dist); nothing is served when it does not exist. */
  webDist: string;
  raw: Env;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment once; throws a ConfigError that lists every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`));
  }
  const env = parsed.data;
  const dataDir = resolve(env.DATA_DIR);
  const config: Config = {
    env: env.NODE_ENV,
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL,
    inMemoryDatabase: false,
    redisUrl: env.REDIS_URL,
    jwtSecret: env.JWT_SECRET ?? '',
    sms:
      env.SMS_PROVIDER === 'twilio'
        ? { provider: 'twilio', accountSid: env.TWILIO_ACCOUNT_SID!, authToken: env.TWILIO_AUTH_TOKEN!, from: env.TWILIO_FROM! }
        : { provider: 'outbox' },
    devOutbox: env.NODE_ENV !== 'production',
    turnstileSecret: env.TURNSTILE_SECRET,
    logLevel: env.LOG_LEVEL,
    rateLimitNamespace: 'tipcard-rl:',
    worker: env.WORKER,
    webDist: fileURLToPath(new URL('../../web/dist/', import.meta.url)),
    raw: env,
    ...overrides,
  };
  if (!config.jwtSecret) config.jwtSecret = readOrCreateDevSecret(dataDir);
  return config;
}

/** Outside production a missing JWT_SECRET is generated once and kept in DATA_DIR, so sessions survive restarts. */
function readOrCreateDevSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
