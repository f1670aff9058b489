import pino from 'pino';
import { loadConfigOrExit, databaseOptions } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { safeLogOptions } from '../lib/log-safety.ts';
import { createServices } from '../services.ts';
import { startRunner } from './runner.ts';

/** `npm run worker`: the background loop as its own process, for scale-out beside `WORKER=off` servers. */
const config = loadConfigOrExit();
const log = pino({ level: config.logLevel, ...safeLogOptions });
const database = await openDatabase(databaseOptions(config));
await database.migrate();
const services = createServices(config, database.db, log);
const runner = startRunner({
  jobs: services.jobs,
  clock: services.clock,
  log,
  errors: services.errors,
  intervalMs: config.workerIntervalMs,
});
log.info(`worker running every ${config.workerIntervalMs} ms`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void runner
      .stop()
      .then(() => services.errors.flush())
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
