import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { createSandboxProvider, type SandboxProvider } from '../../integrations/sandbox-psp/sandbox-provider.ts';
import { createStripeProvider } from '../../integrations/stripe/stripe-provider.ts';
import type { PaymentProvider, ProviderName } from './payment-provider.ts';

/**
 * The providers this instance talks to. Webhooks of every configured provider are accepted; PAYMENT_PROVIDER opens
 * new checkouts. The sandbox delivers its events through this app's own HTTP stack (`inject`): the same route,
 * raw body and signature check as a provider's servers, with no dependency on the public URL being reachable.
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
      deliver: async (body, headers) => (await app.inject({ method: 'POST', url: '/api/webhooks/sandbox', payload: body, headers })).statusCode,
    });
    providers.sandbox = sandbox;
  }
  if (config.payments.stripe) {
    const { secretKey, webhookSecret, apiBase } = config.payments.stripe;
    const api = apiBase ? new URL(apiBase) : undefined;
    providers.stripe = createStripeProvider({
      secretKey,
      webhookSecret,
      ...(api ? { apiHost: api.hostname, apiPort: Number(api.port || (api.protocol === 'https:' ? 443 : 80)), apiProtocol: api.protocol === 'https:' ? 'https' : 'http' } : {}),
    });
  }
  return { providers, sandbox };
}
