import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { runPayoutWork, type PayoutWorkerDeps } from '../modules/payouts/payouts.worker.ts';
import { settleDueTips } from '../modules/transactions/transactions.service.ts';

export interface Worker {
  stop(): Promise<void>;
}

/**
 * The background loop (DESIGN "Background work"): due work lives in domain rows and is claimed with SKIP LOCKED, so
 * any number of loops, inline or `npm run worker`, can run at once, and killing one at any line loses nothing.
 */
export function startWorker(deps: {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  intervalMs: number;
  /** The payout rail and the files' debtor account; without it no payout work runs in this loop. */
  payouts?: Pick<PayoutWorkerDeps, 'rail' | 'debtor'>;
}): Worker {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const tick = async () => {
    try {
      const settled = await settleDueTips(deps.db, deps.clock.now());
      if (settled > 0) deps.log.info({ settled }, 'tips settled from hold to main');
    } catch (error) {
      deps.log.error({ err: error }, 'worker tick failed; retrying next tick');
    }
    // Its own try: a failing payout step must not stop tip settlement, nor the other way round.
    if (deps.payouts) {
      try {
        const done = await runPayoutWork({ db: deps.db, log: deps.log, ...deps.payouts }, deps.clock.now());
        if (Object.values(done).some((count) => count > 0)) deps.log.info(done, 'payout work done');
      } catch (error) {
        deps.log.error({ err: error }, 'payout work failed; retrying next tick');
      }
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, deps.intervalMs);
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
