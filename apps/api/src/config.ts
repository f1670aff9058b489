import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isUuid } from '@tipcard/shared/uuid';
import type { DatabaseOptions } from './db/client.ts';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/** An optional https link (social profiles): a typo in production config should fail the start, not ship. */
const optionalHttpsUrl = optionalText.pipe(
  z
    .url()
    .refine((value) => value.startsWith('https://'), 'must be an https:// link')
    .optional(),
);

/** The first path segments the server or the app already answer; a short link may not shadow them. */
const RESERVED_SHORT_PATHS = new Set([
  'api',
  'assets',
  'docs',
  'payment',
  'invoice',
  'actions',
  'teams',
  'en',
  'lv',
  'fr',
  'es',
  'login',
  'registration',
  'about',
  'contacts',
  'affiliate-program',
  'cookies',
  'faq',
  'how-it-works',
  'privacy',
  'terms',
  'favicon.svg',
  'favicon.ico',
]);
const MAX_SHORT_LINKS = 3;
/** The dev outbox's stand-in for SUPPORT_EMAIL: never shown on the site, only the recipient of outbox e-mails. */
export const DEV_SUPPORT_EMAIL = 'support@localhost';

/**
 * `SHORT_LINKS=tip=<cardId>,bar=<cardId>`: at most three short paths (lower-case letters, digits, dashes) that
 * redirect to a card's payment page. Answers the map, or the problems found.
 */
export function parseShortLinks(text: string | undefined): { links: Record<string, string> } | { problems: string[] } {
  const links: Record<string, string> = {};
  const problems: string[] = [];
  const pairs = (text ?? '')
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean);
  if (pairs.length > MAX_SHORT_LINKS) problems.push(`at most ${MAX_SHORT_LINKS} short links, got ${pairs.length}`);
  for (const pair of pairs) {
    const [name = '', cardId = '', ...rest] = pair.split('=').map((part) => part.trim());
    if (rest.length > 0 || !/^[a-z0-9][a-z0-9-]{0,31}$/.test(name) || !isUuid(cardId)) {
      problems.push(`"${pair}" is not name=<card id> (name: lower-case letters, digits and dashes)`);
    } else if (RESERVED_SHORT_PATHS.has(name)) {
      problems.push(`"${name}" is a path the site already uses`);
    } else if (name in links) {
      problems.push(`"${name}" is given twice`);
    } else {
      links[name] = cardId.toLowerCase();
    }
  }
  return problems.length > 0 ? { problems } : { links };
}

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
    DATA_DIR: z.string().optional(),
    DATABASE_URL: optionalText.pipe(z.url().optional()),
    /** Connections each process keeps to PostgreSQL (not PGlite); instances × pool must stay below the server's max_connections. */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** A streaming replica for reads that may be a little behind (history, statistics, exports, back-office searches). */
    DATABASE_READ_URL: optionalText.pipe(z.url().optional()),
    /** What DATABASE_URL reaches: PostgreSQL itself, or PgBouncer in transaction mode (no named prepared statements, no session). */
    DATABASE_POOLER: z.enum(['none', 'pgbouncer-transaction']).default('none'),
    /** PostgreSQL itself, bypassing the pooler: the one session that LISTENs for live events (decision 0041). */
    DATABASE_DIRECT_URL: optionalText.pipe(z.url().optional()),
    REDIS_URL: optionalText.pipe(z.url().optional()),
    JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    /** The secret JWT_SECRET replaced, during a rotation: its tokens and sealed TOTP secrets stay good (docs/operations.md). */
    JWT_SECRET_PREVIOUS: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    /** Signs the links in monthly donors' e-mails (/actions/…); its own secret, so rotating JWT_SECRET keeps them working. */
    ACTION_LINK_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    SANDBOX_PAYMENTS: flag,
    PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    /** Another Stripe API origin (a local fake in tests), e.g. http://127.0.0.1:12111. */
    STRIPE_API_BASE: optionalText.pipe(z.url().optional()),
    SANDBOX_WEBHOOK_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(500),
    /** Fails every sandbox event's first N delivery attempts as if the network dropped them, to watch the retries. */
    SANDBOX_WEBHOOK_FAIL_FIRST: z.coerce.number().int().min(0).max(20).default(0),
    SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
    TWILIO_ACCOUNT_SID: optionalText,
    TWILIO_AUTH_TOKEN: optionalText,
    TWILIO_FROM: optionalText,
    SMTP_URL: optionalText.pipe(z.url().optional()),
    /** Web Push's application server keys (VAPID, RFC 8292): the P-256 public key (65 bytes) and private key (32), base64url. */
    VAPID_PUBLIC_KEY: optionalText.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a P-256 public key, 65 bytes in base64url (npx web-push generate-vapid-keys)')
        .optional(),
    ),
    VAPID_PRIVATE_KEY: optionalText.pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a P-256 private key, 32 bytes in base64url')
        .optional(),
    ),
    /** Who push services contact about our pushes: a mailto: address or an https: page. */
    VAPID_SUBJECT: optionalText.pipe(
      z
        .string()
        .regex(/^(mailto:.+@.+|https:\/\/.+)$/, 'must be a mailto: address or an https:// link')
        .optional(),
    ),
    MAIL_FROM: optionalText.pipe(z.email().optional()),
    TURNSTILE_SITE_KEY: optionalText,
    TURNSTILE_SECRET: optionalText,
    TURNSTILE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
    COMPANY_NAME: optionalText,
    COMPANY_REGISTRATION_NUMBER: optionalText,
    COMPANY_LICENCE: optionalText,
    COMPANY_ADDRESS: optionalText,
    SUPPORT_EMAIL: optionalText.pipe(z.email().optional()),
    SUPPORT_PHONE: optionalText,
    SOCIAL_INSTAGRAM_URL: optionalHttpsUrl,
    SOCIAL_FACEBOOK_URL: optionalHttpsUrl,
    SOCIAL_TIKTOK_URL: optionalHttpsUrl,
    SENTRY_DSN: optionalText.pipe(z.url().optional()),
    /** The environment events are filed under in Sentry; NODE_ENV by default. */
    SENTRY_ENVIRONMENT: optionalText,
    // Fractions are allowed so a test run can hold tips for seconds.
    HOLD_HOURS: z.coerce
      .number()
      .min(0)
      .max(24 * 60)
      .default(24),
    FEE_PERCENT: z.coerce.number().min(0).max(5).default(5),
    VERIFICATION_LIMIT_CENTS: z.coerce.number().int().min(0).default(100_000),
    RECONCILE_AFTER_MINUTES: z.coerce
      .number()
      .min(0.01)
      .max(24 * 60)
      .default(5),
    PAYMENT_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(100),
    PAYMENT_APPLIERS: z.coerce.number().int().min(1).max(32).default(4),
    // Card testing (someone trying stolen cards through a card's page from many addresses).
    CHECKOUTS_PER_CARD_PER_10_MINUTES: z.coerce.number().int().min(1).max(100_000).default(60),
    // Far above real traffic: a brake on card testing spread over many cards, not a quota.
    CHECKOUTS_GLOBAL_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    FAILED_PAYMENTS_PER_CARD_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
    REFUND_APPROVAL_CENTS: z.coerce.number().int().min(0).default(10_000),
    CARD_PRICE_CENTS: z.coerce.number().int().min(1).max(100_000).default(500),
    PAYOUT_RAIL: z.enum(['sandbox', 'files']).default('sandbox'),
    PAYOUT_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(20),
    SANDBOX_PAYOUT_DELAY_MS: z.coerce.number().int().min(0).max(86_400_000).default(10_000),
    PAYOUT_DEBTOR_NAME: optionalText,
    PAYOUT_DEBTOR_IBAN: optionalText,
    PAYOUT_DEBTOR_BIC: optionalText,
    /** The payee-name check (VoP/CoP, decision 0043); a bank's or a provider's service would be another value. */
    PAYEE_CHECK: z.enum(['sandbox']).default('sandbox'),
    SHORT_LINKS: optionalText,
    WORKER: z.enum(['inline', 'off']).default('inline'),
    WORKER_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
    /** Prometheus metrics alone on this port (GET /metrics), for a private network; never publish it. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** Prometheus metrics at GET /api/metrics for `Authorization: Bearer <token>`; unset, that path does not exist. */
    METRICS_TOKEN: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    /** OpenTelemetry traces go to this OTLP/HTTP collector (`<url>/v1/traces`); unset, tracing is not even loaded. */
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalText.pipe(z.url().optional()),
    OTEL_SERVICE_NAME: optionalText,
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: optionalText,
    DEV_OUTBOX_PUBLIC: flag,
    /** `off` only for a benchmark run, so it measures the served path rather than 429s; refused in production. */
    RATE_LIMITS: z.enum(['on', 'off']).default('on'),
    /** Prefix of the rate-limit counters in Redis: servers that must not count together (one per browser-test worker) each get one. */
    RATE_LIMIT_NAMESPACE: z
      .string()
      .regex(/^[\w:.-]{1,64}$/, 'letters, digits and _ : . - only')
      .default('tipcard-rl:'),
  })
  .superRefine((env, ctx) => {
    const production = env.NODE_ENV === 'production';
    const need = (name: keyof typeof env, why: string) => {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: `is required ${why}` });
    };
    if (production) need('JWT_SECRET', 'in production');
    if (env.JWT_SECRET_PREVIOUS && !env.JWT_SECRET) need('JWT_SECRET', 'with JWT_SECRET_PREVIOUS');
    if (env.JWT_SECRET_PREVIOUS && env.JWT_SECRET_PREVIOUS === env.JWT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET_PREVIOUS'], message: 'must differ from JWT_SECRET' });
    }
    // A payment service names who runs it (the site's "Operator", the terms, the privacy policy) and how to reach them.
    if (production) {
      for (const name of ['COMPANY_NAME', 'COMPANY_REGISTRATION_NUMBER', 'COMPANY_ADDRESS', 'SUPPORT_EMAIL'] as const)
        need(name, 'in production: the site names its operator and support contact');
    }
    if (production && env.SMS_PROVIDER === 'outbox') {
      ctx.addIssue({ code: 'custom', path: ['SMS_PROVIDER'], message: 'must be twilio in production' });
    }
    if (env.SMS_PROVIDER === 'twilio') {
      for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const)
        need(name, 'with SMS_PROVIDER=twilio');
    }
    if (env.PAYMENT_PROVIDER === 'stripe') {
      for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) need(name, 'with PAYMENT_PROVIDER=stripe');
    }
    // One without the other would either reject every visitor or show a widget nobody checks.
    if (Boolean(env.TURNSTILE_SECRET) !== Boolean(env.TURNSTILE_SITE_KEY)) {
      const missing = env.TURNSTILE_SECRET ? 'TURNSTILE_SITE_KEY' : 'TURNSTILE_SECRET';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'TURNSTILE_SITE_KEY and TURNSTILE_SECRET go together' });
    }
    // Half a key pair cannot sign, and a subject-less push is refused by the push services: all three or none.
    const vapid = [env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY, env.VAPID_SUBJECT];
    if (vapid.some(Boolean) && !vapid.every(Boolean)) {
      for (const name of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const)
        need(name, 'with the other VAPID_* variables');
    }
    if (env.SMTP_URL && !env.MAIL_FROM && !env.SUPPORT_EMAIL) need('MAIL_FROM', 'with SMTP_URL (or SUPPORT_EMAIL)');
    if (env.DATABASE_READ_URL) need('DATABASE_URL', 'with DATABASE_READ_URL (a replica of that PostgreSQL)');
    if (env.DATABASE_POOLER !== 'none') need('DATABASE_URL', 'with DATABASE_POOLER');
    const shortLinks = parseShortLinks(env.SHORT_LINKS);
    if ('problems' in shortLinks) {
      for (const problem of shortLinks.problems) ctx.addIssue({ code: 'custom', path: ['SHORT_LINKS'], message: problem });
    }
    if (
      env.PAYOUT_DEBTOR_IBAN &&
      !/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(env.PAYOUT_DEBTOR_IBAN.replace(/\s+/g, '').toUpperCase())
    ) {
      ctx.addIssue({ code: 'custom', path: ['PAYOUT_DEBTOR_IBAN'], message: 'must be an IBAN' });
    }
    if (env.PAYOUT_DEBTOR_BIC && !/^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(env.PAYOUT_DEBTOR_BIC.toUpperCase())) {
      ctx.addIssue({ code: 'custom', path: ['PAYOUT_DEBTOR_BIC'], message: 'must be a BIC (8 or 11 characters)' });
    }
    if ('problem' in parseTrustProxy(env.TRUST_PROXY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_PROXY'],
        message: 'must be a number of hops (1-10) or addresses / CIDR ranges separated by commas',
      });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT' });
    }
    if (production && env.RATE_LIMITS === 'off') {
      ctx.addIssue({ code: 'custom', path: ['RATE_LIMITS'], message: 'cannot be off in production' });
    }
    if (production && env.PAYMENT_PROVIDER === 'sandbox' && !env.SANDBOX_PAYMENTS) {
      ctx.addIssue({ code: 'custom', path: ['PAYMENT_PROVIDER'], message: 'sandbox needs SANDBOX_PAYMENTS=1 in production' });
    }
  });

export type Env = z.infer<typeof envSchema>;

/**
 * `TRUST_PROXY` (DESIGN "Scale-out"): unset trusts no proxy, so `X-Forwarded-For` is ignored and every per-IP limit
 * counts the connection's address; a number trusts that many hops; addresses or CIDR ranges trust those proxies.
 */
export function parseTrustProxy(text: string | undefined): { value: false | number | string[] } | { problem: true } {
  if (!text || text === '0' || text === 'none') return { value: false };
  if (/^\d+$/.test(text)) return Number(text) <= 10 ? { value: Number(text) } : { problem: true };
  const addresses = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const address = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)(?:\/\d{1,3})?$/i;
  return addresses.length > 0 && addresses.every((part) => address.test(part)) ? { value: addresses } : { problem: true };
}

export interface Config {
  env: Env['NODE_ENV'];
  production: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** PostgreSQL when set; otherwise the embedded PGlite database under dataDir (or in memory for tests). */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** DATABASE_READ_URL: the replica some reads go to while it is fresh enough (`db/read-replica.ts`); PostgreSQL only. */
  databaseReadUrl: string | undefined;
  /** DATABASE_POOLER: `pgbouncer-transaction` when DATABASE_URL (and DATABASE_READ_URL) go through PgBouncer in transaction mode. */
  databasePooler: Env['DATABASE_POOLER'];
  /** DATABASE_DIRECT_URL: with a transaction pooler, where the live events' LISTEN session connects (decision 0041). */
  databaseDirectUrl: string | undefined;
  /** In-memory PGlite instead of dataDir: tests only. */
  inMemoryDatabase: boolean;
  redisUrl: string | undefined;
  jwtSecret: string;
  /** JWT_SECRET_PREVIOUS: still accepted for access and operator tokens and sealed TOTP secrets during a rotation. */
  jwtSecretPrevious: string | undefined;
  /** HMAC key of the donors' signed `/actions/…` links. */
  actionLinkSecret: string;
  sms: { provider: 'outbox' } | { provider: 'twilio'; accountSid: string; authToken: string; from: string };
  /** The dev outbox (GET /api/dev/outbox and SMS printed to the log) exists only outside production. */
  devOutbox: boolean;
  /** DEV_OUTBOX_PUBLIC=1: the dev outbox answers any address, not only this machine's. */
  devOutboxPublic: boolean;
  /** The pseudo-locale's catalogs (GET /api/dev/pseudo-catalogs) exist only outside production (decision 0035). */
  pseudoLocale: boolean;
  turnstileSecret: string | undefined;
  /** Given to the web app, which renders the widget when it is set. */
  turnstileSiteKey: string | undefined;
  /** Where tokens are checked: Cloudflare's siteverify, or any compatible service (a local fake in tests). */
  turnstileVerifyUrl: string;
  /**
   * Web Push (decision 0046): the VAPID keys and subject. From VAPID_*, or outside production a sandbox pair generated
   * once and kept in DATA_DIR; undefined (production or tests without VAPID_*): no push, its routes answer 404.
   */
  push: VapidConfig | undefined;
  /** E-mail goes out through SMTP when set; otherwise to the dev outbox (outside production) or nowhere. */
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  /**
   * Support's mailbox (SUPPORT_EMAIL), told of each contact-form message (which is a ticket in the back office's inbox);
   * in development without it, a placeholder address in the dev outbox. Undefined: the inbox alone.
   */
  contactRecipient: string | undefined;
  /** Company and contact details shown on the public site; every one is optional and left out when unset. */
  site: SiteConfig;
  /** Short path → card id (`/tip` → `/payment/{cardId}`). */
  shortLinks: Record<string, string>;
  logLevel: Env['LOG_LEVEL'];
  /** Where Prometheus reads this process: a port of its own, and/or /api/metrics behind a token; neither by default. */
  metrics: { port: number | undefined; token: string | undefined };
  /** OTEL_EXPORTER_OTLP_ENDPOINT: a server span per request sent there (`plugins/tracing.ts`); off when unset. */
  tracing: { endpoint: string; serviceName: string } | undefined;
  /** Which proxies may name the client's address in X-Forwarded-For: none by default (TRUST_PROXY). */
  trustProxy: false | number | string[];
  /** Prefix for rate-limit keys in Redis, so that test apps do not share counters. */
  rateLimitNamespace: string;
  /** RATE_LIMITS=off (never in production): every limiter lets requests through, for a benchmark run. */
  rateLimitsEnabled: boolean;
  worker: Env['WORKER'];
  workerIntervalMs: number;
  /** What one printed card or sticker costs after the free first order. */
  cardPriceCents: number;
  payments: {
    /** The provider that opens new checkouts. */
    provider: 'sandbox' | 'stripe';
    feePercent: number;
    holdHours: number;
    /** A payment pending this long is checked with the provider by the reconciliation job. */
    reconcileAfterMinutes: number;
    /** Webhooks' events applied, or held shares released, per transaction at most (decision 0060). */
    batchSize: number;
    /** Loops per listening worker applying recorded events side by side, each for its part of the recipients. */
    appliers: number;
    /** The built-in sandbox exists outside production, and in production only with SANDBOX_PAYMENTS=1. */
    sandboxEnabled: boolean;
    sandboxDelayMs: number;
    sandboxFailFirst: number;
    stripe: { secretKey: string; webhookSecret: string; apiBase: string | undefined } | undefined;
    /** Velocity limits on checkouts against card testing (DESIGN "Payments"). */
    velocity: { perSubjectPer10Minutes: number; failedPerSubjectPerHour: number };
    /** Checkouts guests may open per minute over the whole service, counted like the rate limits (Redis when set). */
    globalCheckoutsPerMinute: number;
  };
  payouts: {
    /** sandbox: the pretend bank settles after a delay; files: SEPA pain.001 and UK CSV files for an operator. */
    rail: 'sandbox' | 'files';
    sandboxDelayMs: number;
    /** Withdrawal requests per user and hour; each one texts a code. */
    requestsPerHour: number;
    /**
     * The company account bank files pay from. Outside production, unset variables fall back to clearly fake test
     * values so files can be tried; in production they must be set or no SEPA file is made.
     */
    debtor: { name: string; iban: string; bic: string } | undefined;
  };
  /** Who answers the payee-name check; only the sandbox with its test accounts exists so far. */
  payeeCheck: 'sandbox';
  /** Received total (cents) after which identity verification is required before payouts. */
  verificationLimitCents: number;
  /** A back-office refund larger than this (cents) needs a second finance operator's approval. */
  refundApprovalCents: number;
  /** The built web app served at `/` (apps/web/dist); nothing is served when it does not exist. */
  webDist: string;
  /** SENTRY_DSN: server errors go there, and the web app is told to send its own (a DSN is public by design). */
  errorReporting: { dsn: string; environment: string } | undefined;
  /**
   * The guest pages' server renderer (apps/web `vite build -c vite.public.config.ts --ssr`: dist-server/public-server.js);
   * without it the pages are served unrendered and the browser renders them.
   */
  webServerEntry: string;
  /** The landing page's (apps/web `vite build --ssr`: dist-server/landing-server.js); likewise optional. */
  webLandingEntry: string;
}

export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
  /** Push endpoints on this machine (http://127.0.0.1, localhost) are accepted: a local push service, never in production. */
  allowLoopbackEndpoints: boolean;
}

export interface SiteConfig {
  companyName: string | undefined;
  companyRegistrationNumber: string | undefined;
  companyLicence: string | undefined;
  companyAddress: string | undefined;
  supportEmail: string | undefined;
  supportPhone: string | undefined;
  instagramUrl: string | undefined;
  facebookUrl: string | undefined;
  tiktokUrl: string | undefined;
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
  // npm runs workspace scripts inside the workspace, so a relative DATA_DIR means relative to where npm was started,
  // and the default is the repository's ./data whichever script (server, worker, CLI) opens it.
  const dataDir = env.DATA_DIR
    ? resolve(source.INIT_CWD ?? process.cwd(), env.DATA_DIR)
    : fileURLToPath(new URL('../../../data', import.meta.url));
  const shortLinks = parseShortLinks(env.SHORT_LINKS);
  const config: Config = {
    env: env.NODE_ENV,
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseReadUrl: env.DATABASE_READ_URL,
    databasePooler: env.DATABASE_POOLER,
    databaseDirectUrl: env.DATABASE_DIRECT_URL,
    inMemoryDatabase: false,
    redisUrl: env.REDIS_URL,
    jwtSecret: env.JWT_SECRET ?? '',
    jwtSecretPrevious: env.JWT_SECRET_PREVIOUS,
    actionLinkSecret: env.ACTION_LINK_SECRET ?? '',
    sms:
      env.SMS_PROVIDER === 'twilio'
        ? { provider: 'twilio', accountSid: env.TWILIO_ACCOUNT_SID!, authToken: env.TWILIO_AUTH_TOKEN!, from: env.TWILIO_FROM! }
        : { provider: 'outbox' },
    devOutbox: env.NODE_ENV !== 'production',
    devOutboxPublic: env.DEV_OUTBOX_PUBLIC,
    pseudoLocale: env.NODE_ENV !== 'production',
    turnstileSecret: env.TURNSTILE_SECRET,
    turnstileSiteKey: env.TURNSTILE_SITE_KEY,
    turnstileVerifyUrl: env.TURNSTILE_VERIFY_URL,
    push:
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY && env.VAPID_SUBJECT
        ? {
            publicKey: env.VAPID_PUBLIC_KEY,
            privateKey: env.VAPID_PRIVATE_KEY,
            subject: env.VAPID_SUBJECT,
            allowLoopbackEndpoints: env.NODE_ENV !== 'production',
          }
        : undefined,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? env.SUPPORT_EMAIL,
    contactRecipient: env.SUPPORT_EMAIL ?? (env.NODE_ENV !== 'production' && !env.SMTP_URL ? DEV_SUPPORT_EMAIL : undefined),
    site: {
      companyName: env.COMPANY_NAME,
      companyRegistrationNumber: env.COMPANY_REGISTRATION_NUMBER,
      companyLicence: env.COMPANY_LICENCE,
      companyAddress: env.COMPANY_ADDRESS,
      supportEmail: env.SUPPORT_EMAIL,
      supportPhone: env.SUPPORT_PHONE,
      instagramUrl: env.SOCIAL_INSTAGRAM_URL,
      facebookUrl: env.SOCIAL_FACEBOOK_URL,
      tiktokUrl: env.SOCIAL_TIKTOK_URL,
    },
    // Already checked by the schema above, so there are no problems left here.
    shortLinks: 'links' in shortLinks ? shortLinks.links : {},
    logLevel: env.LOG_LEVEL,
    metrics: { port: env.METRICS_PORT, token: env.METRICS_TOKEN },
    tracing: env.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: env.OTEL_SERVICE_NAME ?? 'tipcard-api' }
      : undefined,
    trustProxy: (() => {
      const trust = parseTrustProxy(env.TRUST_PROXY);
      return 'value' in trust ? trust.value : false;
    })(),
    rateLimitNamespace: env.RATE_LIMIT_NAMESPACE,
    rateLimitsEnabled: env.RATE_LIMITS === 'on',
    worker: env.WORKER,
    workerIntervalMs: env.WORKER_INTERVAL_MS,
    payments: {
      provider: env.PAYMENT_PROVIDER,
      feePercent: env.FEE_PERCENT,
      holdHours: env.HOLD_HOURS,
      reconcileAfterMinutes: env.RECONCILE_AFTER_MINUTES,
      batchSize: env.PAYMENT_BATCH_SIZE,
      appliers: env.PAYMENT_APPLIERS,
      sandboxEnabled: env.NODE_ENV !== 'production' || env.SANDBOX_PAYMENTS,
      sandboxDelayMs: env.SANDBOX_WEBHOOK_DELAY_MS,
      sandboxFailFirst: env.SANDBOX_WEBHOOK_FAIL_FIRST,
      stripe:
        env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
          ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiBase: env.STRIPE_API_BASE }
          : undefined,
      velocity: {
        perSubjectPer10Minutes: env.CHECKOUTS_PER_CARD_PER_10_MINUTES,
        failedPerSubjectPerHour: env.FAILED_PAYMENTS_PER_CARD_PER_HOUR,
      },
      globalCheckoutsPerMinute: env.CHECKOUTS_GLOBAL_PER_MINUTE,
    },
    payouts: {
      rail: env.PAYOUT_RAIL,
      sandboxDelayMs: env.SANDBOX_PAYOUT_DELAY_MS,
      requestsPerHour: env.PAYOUT_REQUESTS_PER_HOUR,
      debtor: payoutDebtorOf(env),
    },
    payeeCheck: env.PAYEE_CHECK,
    verificationLimitCents: env.VERIFICATION_LIMIT_CENTS,
    refundApprovalCents: env.REFUND_APPROVAL_CENTS,
    cardPriceCents: env.CARD_PRICE_CENTS,
    webDist: fileURLToPath(new URL('../../web/dist/', import.meta.url)),
    errorReporting: env.SENTRY_DSN ? { dsn: env.SENTRY_DSN, environment: env.SENTRY_ENVIRONMENT ?? env.NODE_ENV } : undefined,
    webServerEntry: fileURLToPath(new URL('../../web/dist-server/public-server.js', import.meta.url)),
    webLandingEntry: fileURLToPath(new URL('../../web/dist-server/landing-server.js', import.meta.url)),
    ...overrides,
  };
  if (!config.jwtSecret) config.jwtSecret = readOrCreateDevSecret(dataDir);
  // Tests (NODE_ENV=test) get push only with the keys they give, and write nothing into the repository's data folder.
  if (!config.push && config.env === 'development') {
    const sandbox = readOrCreateDevVapidKeys(dataDir);
    config.push = { ...sandbox, subject: `mailto:${DEV_SUPPORT_EMAIL}`, allowLoopbackEndpoints: true };
  }
  // Unset, the links' key is derived from JWT_SECRET (kept secret, required in production); set it to rotate them apart.
  if (!config.actionLinkSecret)
    config.actionLinkSecret = createHmac('sha256', config.jwtSecret).update('action-links').digest('hex');
  return config;
}

/** TEST VALUES outside production: a sandbox name and a valid-checksum Latvian IBAN that is nobody's account. */
const TEST_PAYOUT_DEBTOR = { name: 'Tipcard TEST debtor', iban: 'LV80BANK0000435195001', bic: 'HABALV22' } as const;

function payoutDebtorOf(env: Env): Config['payouts']['debtor'] {
  const fallback = env.NODE_ENV === 'production' ? undefined : TEST_PAYOUT_DEBTOR;
  const name = env.PAYOUT_DEBTOR_NAME ?? fallback?.name;
  const iban = env.PAYOUT_DEBTOR_IBAN?.replace(/\s+/g, '').toUpperCase() ?? fallback?.iban;
  const bic = env.PAYOUT_DEBTOR_BIC?.toUpperCase() ?? fallback?.bic;
  return name && iban && bic ? { name, iban, bic } : undefined;
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

/**
 * Outside production without VAPID_*, a sandbox key pair generated once and kept in DATA_DIR like the JWT secret: the
 * browsers' subscriptions are bound to the public key, so a new pair at each start would orphan every one of them.
 */
function readOrCreateDevVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = join(dataDir, 'vapid-keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
  // The public key as push services want it: the uncompressed point 0x04 ‖ x ‖ y.
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  const keys = { publicKey: point.toString('base64url'), privateKey: jwk.d! };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

/** For process entry points: the configuration, or the list of every bad variable on stderr and exit code 1. */
/** Where this configuration keeps its data: PostgreSQL at DATABASE_URL, else the embedded database (in DATA_DIR). */
export function databaseOptions(config: Config): DatabaseOptions {
  return {
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    readUrl: config.databaseReadUrl,
    pooler: config.databasePooler,
    directUrl: config.databaseDirectUrl,
    pgliteDir: config.inMemoryDatabase ? undefined : config.dataDir,
  };
}

export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
