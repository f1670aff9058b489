import pino from 'pino';
import { loadConfigOrExit } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createServices } from '../services.ts';
import { startWorker } from './worker.ts';

/** `npm run worker`: the background loop as its own process, for scale-out beside `WORKER=off` servers. */
const config = loadConfigOrExit();
const log = pino({ level: config.logLevel });
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.dataDir });
await database.migrate();
const services = createServices(config, database.db, log);
const worker = startWorker({
  db: database.db,
  clock: services.clock,
  log,
  intervalMs: config.workerIntervalMs,
  jobs: services.jobs,
  payouts: { rail: services.payoutRail, debtor: config.payouts.debtor },
});
log.info(`worker running every ${config.workerIntervalMs} ms`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void worker
      .stop()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
