import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { runPayoutWork, type PayoutWorkerDeps } from '../modules/payouts/payouts.worker.ts';
import type { Job } from './job.ts';

/** Items one job may do per tick, so one busy job cannot starve the others. */
const BATCH = 500;

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
  jobs: readonly Job[];
  /** The payout rail and the files' debtor account; without it no payout work runs in this loop. */
  payouts?: Pick<PayoutWorkerDeps, 'rail' | 'debtor'>;
}): Worker {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const tick = async () => {
    for (const job of deps.jobs) {
      // Each job in its own try: one failing kind of work never stops the others.
      try {
        let done = 0;
        while (done < BATCH && (await job.runOne(deps.clock.now()))) done += 1;
        if (done > 0) deps.log.info({ job: job.name, done }, 'background work done');
      } catch (error) {
        deps.log.error({ err: error, job: job.name }, 'background job failed; retrying next tick');
      }
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
