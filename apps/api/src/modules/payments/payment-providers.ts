import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { createSandboxProvider, type SandboxProvider } from '../../integrations/sandbox-psp/sandbox-provider.ts';
import { createSandboxJobs } from '../../integrations/sandbox-psp/sandbox.jobs.ts';
import { createStripeProvider } from '../../integrations/stripe/stripe-provider.ts';
import type { PaymentProvider, ProviderName } from './payment-provider.ts';

/** How often the sandbox's sender looks for due deliveries. */
const SANDBOX_DELIVERY_INTERVAL_MS = 200;

/**
 * The sandbox's webhook sender for this app. It delivers through the app's own HTTP stack (`inject`): the same
 * route, raw body and signature check as a provider's servers, with no dependency on the public URL being reachable.
 */
export const sandboxJobsOf = (app: FastifyInstance, config: Config) =>
  createSandboxJobs({
    db: app.db,
    secret: config.jwtSecret,
    failFirstAttempts: config.payments.sandboxFailFirst,
    deliver: async (body, headers) =>
      (await app.inject({ method: 'POST', url: '/api/webhooks/sandbox', payload: body, headers })).statusCode,
  });

/**
 * Runs the sandbox's sender inside this server until it closes, as the provider's servers run beside ours. Any
 * number of servers may run it on one database: each delivery is claimed with SKIP LOCKED.
 */
function runSandboxSender(app: FastifyInstance, config: Config) {
  const jobs = sandboxJobsOf(app, config);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    for (const job of jobs) {
      try {
        while (!stopped && (await job.runOne(app.clock.now())));
      } catch (error) {
        app.log.error({ err: error, job: job.name }, 'sandbox delivery failed; retrying next tick');
      }
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, SANDBOX_DELIVERY_INTERVAL_MS);
  };
  schedule();
  app.addHook('onClose', async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  });
}

/**
 * The providers this instance talks to. Webhooks of every configured provider are accepted; PAYMENT_PROVIDER opens
 * new checkouts.
 */
export function createPaymentProviders(app: FastifyInstance, config: Config) {
  const providers: Partial<Record<ProviderName, PaymentProvider>> = {};
  let sandbox: SandboxProvider | undefined;
  if (config.payments.sandboxEnabled) {
    sandbox = createSandboxProvider({
      db: app.db,
      clock: app.clock,
      publicUrl: config.publicUrl,
      secret: config.jwtSecret,
      deliveryDelayMs: config.payments.sandboxDelayMs,
    });
    providers.sandbox = sandbox;
    runSandboxSender(app, config);
  }
  if (config.payments.stripe) {
    const { secretKey, webhookSecret, apiBase } = config.payments.stripe;
    const api = apiBase ? new URL(apiBase) : undefined;
    providers.stripe = createStripeProvider({
      secretKey,
      webhookSecret,
      ...(api
        ? {
            apiHost: api.hostname,
            apiPort: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
            apiProtocol: api.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }
  return { providers, sandbox };
}
