import { existsSync } from 'node:fs';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { openDatabase, type Database, type DatabaseHandle } from './db/client.ts';
import { createTurnstileVerifier } from './integrations/turnstile/turnstile-verifier.ts';
import { errorBody } from './lib/app-error.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';
import type { Job } from './jobs/job.ts';
import { jobsOf, messageSendersOf } from './jobs/jobs-of.ts';
import { startRunner } from './jobs/runner.ts';
import { sandboxCheckoutRoutes } from './integrations/sandbox-psp/sandbox-checkout.routes.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { createPaymentProviders } from './modules/payments/payment-providers.ts';
import { paymentPagesRoutes, paymentsRoutes } from './modules/payments/payments.routes.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { transactionsRoutes } from './modules/transactions/transactions.routes.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { accessTokenKeys } from './modules/auth/access-token.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createOtpService } from './modules/auth/otp.service.ts';
import { cardsRoutes } from './modules/cards/cards.routes.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { createContactService } from './modules/contact/contact.service.ts';
import { cardSheetRoutes, documentFilesRoutes } from './modules/documents/documents.routes.ts';
import { createDocumentsService } from './modules/documents/documents.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { meRoutes } from './modules/me/me.routes.ts';
import { verificationRoutes } from './modules/verification/verification.routes.ts';
import { createMessagingService } from './modules/messaging/messaging.service.ts';
import { outboxRoutes } from './modules/messaging/outbox.routes.ts';
import { createPayoutMethodsService } from './modules/payouts/payout-methods.service.ts';
import { payoutsRoutes } from './modules/payouts/payouts.routes.ts';
import { createPayoutsService } from './modules/payouts/payouts.service.ts';
import type { Mailer } from './modules/messaging/mailer.ts';
import type { SmsSender } from './modules/messaging/sms-sender.ts';
import { shortLinksRoutes, siteInfoRoutes, sitePagesRoutes } from './modules/site/site.routes.ts';
import { siteInfoOf } from './modules/site/site.service.ts';
import { antiBotPlugin, type HumanVerifier } from './plugins/anti-bot.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { securityPlugin } from './plugins/security.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    clock: Clock;
    /** The background work; its runner runs here with WORKER=inline, and tests with WORKER=off run it by hand. */
    jobs: Job[];
  }
}

/** Edges that tests replace: the clock and the SMS vendor. Everything else is real. */
export interface AppOverrides {
  clock?: Clock;
  /** The senders the message delivery job uses (requests only write messages to the outbox). */
  sms?: SmsSender;
  mailer?: Mailer;
  /** The anti-bot check; by default Turnstile when TURNSTILE_SECRET is set, none otherwise. */
  humanVerifier?: HumanVerifier;
  /** An already migrated database, e.g. one per test file. */
  database?: DatabaseHandle;
  /** Where log lines go (stdout by default); tests read them to prove no secret is logged. */
  logStream?: { write(line: string): void };
}

/** 10 MB of file as base64 plus the JSON around it. */
const BODY_LIMIT = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024;

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.code', '*.refreshToken', '*.refresh_token', '*.jwt'],
        censor: '[redacted]',
      },
      ...(overrides.logStream ? { stream: overrides.logStream } : {}),
      // Readable lines for a developer at a terminal (the dev outbox's codes among them); JSON everywhere else.
      ...(!overrides.logStream && !config.production && process.stdout.isTTY
        ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname,reqId', translateTime: 'HH:MM:ss' } } }
        : {}),
    },
    bodyLimit: BODY_LIMIT,
    trustProxy: config.production,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: config.inMemoryDatabase ? undefined : config.dataDir,
      onIdleError: (error) => app.log.warn({ err: error }, 'idle database connection lost'),
    }));
  if (!overrides.database) {
    await database.migrate();
    app.addHook('onClose', () => database.close());
  }
  const clock = overrides.clock ?? systemClock;
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('clock', clock);

  const https = config.publicUrl.startsWith('https://');
  const keys = accessTokenKeys(config.jwtSecret);
  await app.register(errorHandlerPlugin);
  await app.register(cookie);
  // The web app's scripts are most of a first visit's bytes: compressed they are a quarter of the size. Brotli at a
  // middle quality, since it runs per response.
  await app.register(compress, { encodings: ['br', 'gzip'], brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } } });
  await app.register(securityPlugin, { https, turnstile: Boolean(config.turnstileSiteKey) });
  await app.register(rateLimitPlugin, { redisUrl: config.redisUrl, nameSpace: config.rateLimitNamespace });
  await app.register(authPlugin, { keys, clock });
  const humanVerifier =
    overrides.humanVerifier ??
    (config.turnstileSecret
      ? createTurnstileVerifier({ secret: config.turnstileSecret, verifyUrl: config.turnstileVerifyUrl, log: app.log })
      : undefined);
  await app.register(antiBotPlugin, { verifier: humanVerifier });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Tipcard API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const configured = messageSendersOf(config, app.log);
  const senders = { sms: overrides.sms ?? configured.sms, mailer: overrides.mailer ?? configured.mailer };
  const messages = createMessagingService({ db: database.db, clock });
  const otp = createOtpService({ db: database.db, clock, messages, pepper: config.jwtSecret });
  const auth = createAuthService({ db: database.db, clock, otp, keys });
  // With no way to send e-mail the form is off rather than filling the outbox with mail that can only die there.
  const contact = createContactService({ db: database.db, messages, recipient: senders.mailer ? config.contactRecipient : undefined });
  const siteInfo = siteInfoOf(config, contact.enabled);
  const documents = createDocumentsService(config);
  const { providers, sandbox } = createPaymentProviders(app, config);
  const payments = createPaymentsService({
    db: database.db,
    clock,
    log: app.log,
    providers,
    active: config.payments.provider,
    publicUrl: config.publicUrl,
    feePercent: config.payments.feePercent,
    holdHours: config.payments.holdHours,
  });

  const payouts = createPayoutsService({
    db: database.db,
    clock,
    messages,
    pepper: config.jwtSecret,
    verificationLimitCents: config.raw.VERIFICATION_LIMIT_CENTS,
    requestsPerHour: config.payouts.requestsPerHour,
    railMode: config.payouts.rail,
  });
  const payoutMethods = createPayoutMethodsService({ db: database.db, clock, messages });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes, { auth, secureCookies: https });
      await api.register(meRoutes);
      await api.register(verificationRoutes);
      await api.register(cardsRoutes);
      await api.register(accountsRoutes);
      await api.register(transactionsRoutes);
      await api.register(payoutsRoutes, { payouts, methods: payoutMethods });
      await api.register(paymentsRoutes, { payments });
      if (sandbox) await api.register(sandboxCheckoutRoutes, { sandbox });
      await api.register(siteInfoRoutes, { info: siteInfo });
      await api.register(contactRoutes, { contact });
      await api.register(analyticsRoutes);
      await api.register(cardSheetRoutes, { documents });
      if (config.devOutbox) await api.register(outboxRoutes, { messages });
    },
    { prefix: '/api' },
  );

  await app.register(sitePagesRoutes, { info: siteInfo });
  await app.register(paymentPagesRoutes, { payments });
  await app.register(documentFilesRoutes, { documents });
  await app.register(shortLinksRoutes, { links: config.shortLinks });

  // The built web app, when there is one. A GET for a page path outside /api gets its index (hash routing does the
  // rest); a missing file (a stale hashed asset) stays a 404 rather than HTML the browser would refuse.
  const serveWeb = existsSync(config.webDist);
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      // Vite names assets by content hash: a changed file is a new URL, so these may be cached for ever.
      setHeaders: (reply, path) => {
        if (path.includes('/assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.decorate('jobs', jobsOf({ config, db: database.db, log: app.log, senders }));
  if (config.worker === 'inline') {
    const runner = startRunner({ jobs: app.jobs, clock, log: app.log, intervalMs: config.workerIntervalMs });
    app.addHook('onClose', () => runner.stop());
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const pagePath = request.method === 'GET' && !path.startsWith('/api') && !/\.[a-z0-9]+$/i.test(path);
    if (serveWeb && pagePath) return reply.sendFile('index.html');
    return reply.status(404).send(errorBody('not_found'));
  });
  return app;
}
