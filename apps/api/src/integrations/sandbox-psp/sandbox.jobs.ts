import type { Database } from '../../db/client.ts';
import type { Job } from '../../jobs/job.ts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from './sandbox-provider.ts';
import * as repo from './sandbox.repository.ts';

/** Longer than a webhook request may take: a worker that dies mid-send leaves its row due again after this. */
export const DELIVERY_LEASE_MS = 15_000;
/**
 * Waits between attempts double from half a second up to six hours, and the sandbox gives up after the 27th attempt,
 * about 69 hours after the first: Stripe's three days of retries, in a form a test can step through.
 */
export const MAX_DELIVERY_ATTEMPTS = 27;
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 6 * 3_600_000;

/** How long to wait after failed attempt number `attempt` (1 for the first). */
export const retryDelayMs = (attempt: number) => Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), LONGEST_RETRY_MS);

export interface SandboxJobDeps {
  db: Database;
  /** The webhook secret the events are signed with. */
  secret: string;
  /** Sends a signed event to our webhook endpoint, like the provider's servers would; answers the HTTP status. */
  deliver: (body: string, headers: Record<string, string>) => Promise<number>;
  /** Every event's first attempts that fail as if the network dropped them (SANDBOX_WEBHOOK_FAIL_FIRST). */
  failFirstAttempts: number;
}

/**
 * The sandbox's webhook sender (DESIGN "Payments for many purposes", Reconciliation): one due delivery per run,
 * sent outside any transaction, retried on anything but a 2xx, as a real provider does.
 */
export function createSandboxJobs(deps: SandboxJobDeps): Job[] {
  const deliverOne = async (now: Date) => {
    const event = await repo.claimDueEvent(deps.db, now, new Date(now.getTime() + DELIVERY_LEASE_MS));
    if (!event) return false;
    let failure: { status: number | null; error: string | null };
    if (event.attempts <= deps.failFirstAttempts) {
      failure = { status: null, error: 'connection reset (SANDBOX_WEBHOOK_FAIL_FIRST)' };
    } else {
      try {
        const headers = {
          'content-type': 'application/json',
          [SANDBOX_SIGNATURE_HEADER]: signSandboxEvent(deps.secret, event.body, Math.floor(now.getTime() / 1000)),
        };
        const status = await deps.deliver(event.body, headers);
        if (status >= 200 && status < 300) {
          await repo.markDelivered(deps.db, event.id, status, now);
          return true;
        }
        failure = { status, error: null };
      } catch (error) {
        failure = { status: null, error: error instanceof Error ? error.message : String(error) };
      }
    }
    const nextDueAt = event.attempts >= MAX_DELIVERY_ATTEMPTS ? null : new Date(now.getTime() + retryDelayMs(event.attempts));
    await repo.markFailed(deps.db, event.id, event.attempts, failure, nextDueAt);
    return true;
  };
  return [{ name: 'sandbox.deliver-events', runOne: deliverOne }];
}
