import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { createSandboxProvider, type SandboxProvider } from '../../integrations/sandbox-psp/sandbox-provider.ts';
import { createSandboxJobs } from '../../integrations/sandbox-psp/sandbox.jobs.ts';
import { createStripeProvider } from '../../integrations/stripe/stripe-provider.ts';
import type { Job } from '../../jobs/job.ts';
import type { PaymentProvider, ProviderName } from './payment-provider.ts';

/**
 * The providers this instance talks to. Webhooks of every configured provider are accepted; PAYMENT_PROVIDER opens
 * new checkouts. The sandbox's sender hands its signed events to `deliverSandboxEvent`: the same raw body and signature check
 * as a provider's servers, with no dependency on the public URL being reachable (a worker process has no HTTP server).
 */
export function createPaymentProviders(
  config: Config,
  deps: { db: Database; clock: Clock; deliverSandboxEvent: (body: string, headers: Record<string, string>) => Promise<number> },
) {
  const providers: Partial<Record<ProviderName, PaymentProvider>> = {};
  let sandbox: SandboxProvider | undefined;
  /** The sandbox's webhook sender: the provider's servers, run beside ours by the server (not by our job runner). */
  let sandboxJobs: Job[] = [];
  if (config.payments.sandboxEnabled) {
    sandbox = createSandboxProvider({
      db: deps.db,
      clock: deps.clock,
      publicUrl: config.publicUrl,
      secret: config.jwtSecret,
      deliveryDelayMs: config.payments.sandboxDelayMs,
    });
    providers.sandbox = sandbox;
    sandboxJobs = createSandboxJobs({
      db: deps.db,
      secret: config.jwtSecret,
      failFirstAttempts: config.payments.sandboxFailFirst,
      deliver: deps.deliverSandboxEvent,
    });
  }
  if (config.payments.stripe) {
    const { secretKey, webhookSecret, apiBase } = config.payments.stripe;
    const api = apiBase ? new URL(apiBase) : undefined;
    providers.stripe = createStripeProvider({
      secretKey,
      webhookSecret,
      clock: deps.clock,
      ...(api
        ? {
            apiHost: api.hostname,
            apiPort: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
            apiProtocol: api.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }
  return { providers, sandbox, sandboxJobs };
}
