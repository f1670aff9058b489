import { existsSync } from 'node:fs';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { databaseOptions, type Config } from './config.ts';
import { openDatabase, type Database, type DatabaseHandle } from './db/client.ts';
import { backupToken } from './db/backup.ts';
import { createReadRouter, lastWritesIn } from './db/read-replica.ts';
import { COMPRESSION } from './lib/http-cache.ts';
import { errorBody } from './lib/app-error.ts';
import { safeLogOptions } from './lib/log-safety.ts';
import { serveMetrics } from './lib/metrics.ts';
import { LOCALES, MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';
import { startRunner } from './jobs/runner.ts';
import { sandboxCheckoutRoutes } from './integrations/sandbox-psp/sandbox-checkout.routes.ts';
import { balancesRoutes } from './modules/balances/balances.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { receiptPagesRoutes } from './modules/receipts/receipts.routes.ts';
import { paymentPagesRoutes } from './modules/tips/payment-pages.routes.ts';
import { transactionsRoutes } from './modules/transactions/transactions.routes.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { cardsRoutes } from './modules/cards/cards.routes.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { cardSheetRoutes, documentFilesRoutes } from './modules/documents/documents.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { meRoutes } from './modules/me/me.routes.ts';
import { verificationRoutes } from './modules/verification/verification.routes.ts';
import { outboxRoutes } from './modules/messaging/outbox.routes.ts';
import { liveRoutes } from './modules/messaging/live.routes.ts';
import { noticesRoutes } from './modules/messaging/notices.routes.ts';
import { pushRoutes } from './modules/messaging/push.routes.ts';
import { pseudoLocaleRoutes } from './modules/site/pseudo-locale.routes.ts';
import { payoutSchedulesRoutes } from './modules/payouts/payout-schedules.routes.ts';
import { payoutsRoutes } from './modules/payouts/payouts.routes.ts';
import { shortLinksRoutes, siteInfoRoutes, sitePagesRoutes } from './modules/site/site.routes.ts';
import { antiBotPlugin } from './plugins/anti-bot.ts';
import { authPlugin } from './plugins/auth.ts';
import { embeddedBackupRoutes } from './plugins/embedded-backup.ts';
import { errorHandlerPlugin, frameworkErrorAnswer } from './plugins/error-handler.ts';
import { inputRulesPlugin } from './plugins/input-rules.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { readYourWritesPlugin } from './plugins/read-your-writes.ts';
import { securityPlugin } from './plugins/security.ts';
import { createServices, type ServiceOverrides, type Services } from './services.ts';
import type { Clock } from './lib/clock.ts';
import { tipsRoutes } from './modules/tips/tips.routes.ts';
import { tipAnswersRoutes } from './modules/tips/tip-answers.routes.ts';
import { opsRoutes } from './modules/ops/ops.routes.ts';
import { supportDevRoutes, supportRoutes } from './modules/support/support.routes.ts';
import { accountRoutes } from './modules/account/account.routes.ts';
import { cardOrdersRoutes } from './modules/card-orders/card-orders.routes.ts';
import { invoicePagesRoutes, invoicesRoutes } from './modules/invoices/invoices.routes.ts';
import { actionPagesRoutes, donationsRoutes } from './modules/donations/donations.routes.ts';
import { teamsRoutes } from './modules/teams/teams.routes.ts';
import { venuePagesRoutes, venueQrRoutes } from './modules/teams/venue-page.routes.ts';
import { venueTipsRoutes } from './modules/venue-tips/venue-tips.routes.ts';
import { referralsRoutes } from './modules/referrals/referrals.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    clock: Clock;
    /** Every service of this instance (the composition root), for the worker loop and for tests. */
    services: Services;
  }
}

/** Edges that tests replace (see ServiceOverrides), the database and the log's destination. */
export interface AppOverrides extends ServiceOverrides {
  /** An already migrated database, e.g. one per test file. */
  database?: DatabaseHandle;
  /** Where log lines go (stdout by default); tests read them to prove no secret is logged. */
  logStream?: { write(line: string): void };
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** How often the sandbox provider looks for webhook deliveries that are due. */
const SANDBOX_SENDER_INTERVAL_MS = 200;

/** A comment line on each open live stream this often, so proxies and the client see it is alive. */
const LIVE_HEARTBEAT_MS = 20_000;

/** 10 MB of file as base64 plus the JSON around it. */
const BODY_LIMIT = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024;

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...safeLogOptions,
      ...(overrides.logStream ? { stream: overrides.logStream } : {}),
      // Readable lines for a developer at a terminal (the dev outbox's codes among them); JSON everywhere else.
      ...(!overrides.logStream && !config.production && process.stdout.isTTY
        ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname,reqId', translateTime: 'HH:MM:ss' } } }
        : {}),
    },
    bodyLimit: BODY_LIMIT,
    // Fastify's types omit its number form: n hops is "trust the i-th hop for i < n", as it does itself.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    frameworkErrors: frameworkErrorAnswer,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const database =
    overrides.database ??
    (await openDatabase({
      ...databaseOptions(config),
      onIdleError: (error) => app.log.warn({ err: error }, 'idle database connection lost'),
    }));
  if (!overrides.database) {
    await database.migrate();
    app.addHook('onClose', () => database.close());
  }
  const reads = createReadRouter({
    primary: database.db,
    replica: database.replica,
    // Users' last writes in Redis when there is one (its client is the rate-limit plugin's, made below), so that every
    // instance knows them.
    lastWrites: lastWritesIn(
      config.redisUrl
        ? { set: (key, value, mode, ms) => app.redis!.set(key, value, mode, ms), get: (key) => app.redis!.get(key) }
        : undefined,
    ),
    onProbeError: (error) => app.log.warn({ err: error }, 'read replica probe failed; reading the primary'),
  });
  const services = createServices(config, database.db, app.log, overrides, reads, database.listen);
  app.addHook('onClose', () => services.live.close());
  app.addHook('onClose', () => services.publicCards.close());
  const { clock } = services;
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('clock', clock);
  app.decorate('services', services);

  if (config.metrics.port !== undefined || config.metrics.token) services.metrics.collectProcessMetrics();
  if (config.metrics.port !== undefined) {
    const metricsServer = await serveMetrics(services.metrics, config.metrics.port, config.host);
    app.addHook('onClose', () => new Promise<void>((resolve) => metricsServer.close(() => resolve())));
  }

  const https = config.publicUrl.startsWith('https://');
  await app.register(errorHandlerPlugin, { errors: services.errors });
  // Reports still on their way when the server stops.
  app.addHook('onClose', async () => void (await services.errors.flush()));
  await app.register(metricsPlugin, { metrics: services.metrics, token: config.metrics.token });
  // Imported only when configured: without an endpoint no OpenTelemetry code is loaded at all.
  if (config.tracing) await app.register((await import('./plugins/tracing.ts')).tracingPlugin, config.tracing);
  await app.register(inputRulesPlugin);
  await app.register(cookie);
  await app.register(compress, COMPRESSION);
  await app.register(securityPlugin, {
    https,
    turnstile: Boolean(config.turnstileSiteKey),
    errorReportingOrigin: config.errorReporting ? new URL(config.errorReporting.dsn).origin : undefined,
  });
  await app.register(rateLimitPlugin, {
    enabled: config.rateLimitsEnabled,
    redisUrl: config.redisUrl,
    nameSpace: config.rateLimitNamespace,
    checkoutsPerMinute: config.payments.globalCheckoutsPerMinute,
  });
  await app.register(authPlugin, { keys: services.keys, clock, sessionIsLive: services.auth.sessionIsLive });
  await app.register(readYourWritesPlugin, { reads, publicCards: services.publicCards });
  await app.register(antiBotPlugin, { verifier: services.humanVerifier });
  await app.register(openapiPlugin);

  const {
    health,
    analytics,
    balances,
    me,
    transactions,
    cards,
    documents,
    auth,
    payments,
    tips,
    payouts,
    payoutMethods,
    sandbox,
    contact,
    siteInfo,
  } = services;

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { health, redis: app.redis });
      await api.register(authRoutes, { auth, secureCookies: https });
      await api.register(meRoutes, { me });
      await api.register(verificationRoutes, { verification: services.verification });
      await api.register(cardsRoutes, { cards });
      await api.register(balancesRoutes, { balances });
      await api.register(transactionsRoutes, { transactions });
      // Behind a transaction pooler without DATABASE_DIRECT_URL there is no session to LISTEN on (decision 0041).
      if (services.live.available) await api.register(liveRoutes, { hub: services.live, heartbeatMs: LIVE_HEARTBEAT_MS });
      // Without VAPID keys (production without VAPID_*) there is no push: its paths are 404s (decision 0046).
      if (config.push) {
        const { publicKey, allowLoopbackEndpoints: allowLoopback } = config.push;
        await api.register(pushRoutes, { push: services.push, publicKey, allowLoopback });
      }
      await api.register(noticesRoutes, { notices: services.notices });
      await api.register(payoutsRoutes, { payouts, methods: payoutMethods });
      await api.register(payoutSchedulesRoutes, { schedules: services.payoutSchedules });
      await api.register(paymentsRoutes, { payments });
      await api.register(tipsRoutes, { tips });
      await api.register(tipAnswersRoutes, { tips });
      await api.register(cardOrdersRoutes, { cardOrders: services.cardOrders });
      await api.register(teamsRoutes, { teams: services.teams });
      await api.register(venueQrRoutes, { venuePages: services.venuePages });
      await api.register(venueTipsRoutes, { venueTips: services.venueTips });
      await api.register(referralsRoutes, { referrals: services.referrals });
      if (sandbox) await api.register(sandboxCheckoutRoutes, { sandbox });
      await api.register(siteInfoRoutes, {
        info: siteInfo,
        errorReporting: { dsn: config.errorReporting?.dsn ?? null, environment: config.errorReporting?.environment ?? null },
      });
      await api.register(contactRoutes, { contact });
      await api.register(analyticsRoutes, { analytics });
      await api.register(cardSheetRoutes, { documents });
      if (config.devOutbox) await api.register(outboxRoutes, { messages: services.messages, public: config.devOutboxPublic });
      if (config.pseudoLocale) await api.register(pseudoLocaleRoutes);
      await api.register(opsRoutes, { opsAuth: services.opsAuth, ops: services.ops });
      await api.register(supportRoutes, { support: services.support });
      await api.register(accountRoutes, { account: services.account });
      if (config.devOutbox) await api.register(supportDevRoutes, { support: services.support, public: config.devOutboxPublic });
      await api.register(invoicesRoutes, { invoices: services.invoices });
      await api.register(donationsRoutes, { donations: services.donations });
      if (database.dumpEmbedded) {
        await api.register(embeddedBackupRoutes, { token: backupToken(config.jwtSecret), dump: database.dumpEmbedded });
      }
    },
    { prefix: '/api' },
  );

  await app.register(sitePagesRoutes, { info: siteInfo, firstViews: services.firstViews });
  // The guest's pages, also under a language prefix (`/lv/payment/…`), which then decides the page's language.
  for (const prefix of ['', ...LOCALES.map((locale) => `/${locale}`)]) {
    await app.register(paymentPagesRoutes, { tips, prefix });
    await app.register(venuePagesRoutes, { venuePages: services.venuePages, prefix });
    await app.register(invoicePagesRoutes, { invoices: services.invoices, prefix });
    await app.register(actionPagesRoutes, { prefix });
    await app.register(receiptPagesRoutes, { receipts: services.receipts, pseudoLocale: config.pseudoLocale, prefix });
  }
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
        // The installed app's service worker (decision 0046): its scope is the whole site, and the browser must check
        // it on every visit so a new build's worker (a new shell list) takes over at once.
        if (path.endsWith('/sw.js')) reply.header('cache-control', 'no-cache').header('service-worker-allowed', '/');
      },
    });
  }
  if (services.sandboxJobs.length > 0) {
    // The sandbox's own servers: they send its webhooks whatever WORKER says, as a real provider's would.
    const sender = startRunner({ jobs: services.sandboxJobs, clock, log: app.log, intervalMs: SANDBOX_SENDER_INTERVAL_MS });
    app.addHook('onClose', () => sender.stop());
  }
  if (config.worker === 'inline') {
    const runner = startRunner({
      jobs: services.jobs,
      clock,
      log: app.log,
      errors: services.errors,
      metrics: services.metrics.job,
      intervalMs: config.workerIntervalMs,
      listen: database.listen,
    });
    app.addHook('onClose', () => runner.stop());
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const pagePath = request.method === 'GET' && !path.startsWith('/api') && !/\.[a-z0-9]+$/i.test(path);
    // The back office is its own entry (issue 15).
    if (serveWeb && request.method === 'GET' && (path === '/ops' || path === '/ops/')) return reply.sendFile('ops.html');
    if (serveWeb && pagePath) return reply.sendFile('index.html');
    return reply.status(404).send(errorBody('not_found'));
  });
  return app;
}
