import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createSandboxRail } from '../modules/payouts/payout-rail.ts';
import { payoutJobs } from '../modules/payouts/payouts.jobs.ts';
import { tipJobs } from '../modules/transactions/transactions.jobs.ts';
import type { Job } from './job.ts';

/** Every module's background work, for the runner in the server (WORKER=inline) and in `npm run worker`. */
export function jobsOf({ config, db, log }: { config: Config; db: Database; log: FastifyBaseLogger }): Job[] {
  return [
    ...tipJobs(db),
    ...payoutJobs({ db, log, rail: createSandboxRail(db, config.payouts.sandboxDelayMs), debtor: config.payouts.debtor }),
  ];
}
