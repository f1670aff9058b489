import type { Server } from 'node:http';
import pino from 'pino';
import { loadConfigOrExit, databaseOptions } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { safeLogOptions } from '../lib/log-safety.ts';
import { serveMetrics } from '../lib/metrics.ts';
import { createServices } from '../services.ts';
import { startRunner } from './runner.ts';

/** `npm run worker`: the background loop as its own process, for scale-out beside `WORKER=off` servers. */
const config = loadConfigOrExit();
const log = pino({ level: config.logLevel, ...safeLogOptions });
const database = await openDatabase(databaseOptions(config));
await database.migrate();
const services = createServices(config, database.db, log);
// The worker has no API, so its metrics (job runs, failures, lag) are served only on METRICS_PORT.
let metricsServer: Server | undefined;
if (config.metrics.port !== undefined) {
  services.metrics.collectProcessMetrics();
  metricsServer = await serveMetrics(services.metrics, config.metrics.port, config.host);
}
const runner = startRunner({
  jobs: services.jobs,
  clock: services.clock,
  log,
  errors: services.errors,
  metrics: services.metrics.job,
  intervalMs: config.workerIntervalMs,
  listen: database.listen,
});
log.info(`worker running every ${config.workerIntervalMs} ms`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void runner
      .stop()
      .then(() => metricsServer?.close())
      .then(() => services.errors.flush())
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
