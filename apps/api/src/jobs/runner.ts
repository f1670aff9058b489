import type { FastifyBaseLogger } from 'fastify';
import type { Listen } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { ErrorReporter } from '../lib/error-reporting.ts';
import type { JobMetrics } from '../lib/metrics.ts';
import type { Job } from './job.ts';

/** Items one job may do in one tick, so that a job with a deep backlog cannot keep the others waiting. */
export const BATCH_PER_TICK = 100;

export interface RunnerDeps {
  jobs: Job[];
  clock: Clock;
  log: FastifyBaseLogger;
  /** Where a failed tick is reported besides the log (Sentry when configured). */
  errors?: ErrorReporter;
  /** Runs, items, failures, durations and lag per job (`lib/metrics.ts`). */
  metrics?: JobMetrics;
  batchPerTick?: number;
}

/**
 * Where a failure happened, never what it was about: error messages carry data (a failed query's message lists its
 * parameters: phone numbers, texts), so the log gets the error's type, its SQLSTATE and its stack frames only.
 */
function failureOf(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const sqlState = [error, cause]
    .map((e) => (e as { code?: unknown } | undefined)?.code)
    .find((code) => typeof code === 'string');
  return {
    type: error.name,
    ...(cause ? { cause: cause.name } : {}),
    ...(sqlState ? { sqlState } : {}),
    frames: error.stack
      ?.split('\n')
      .filter((line) => line.trimStart().startsWith('at '))
      .slice(0, 8),
  };
}

/** The items a job's `runOne` did: one for `true`, or the count a batch job answers. */
export const itemsOf = (did: boolean | number): number => (typeof did === 'number' ? did : did ? 1 : 0);

/**
 * One tick: every job in turn, each doing due items until it has none or has done its batch, each in its own try so
 * that one failing job never stops the others. Every call gets the clock's time then, so a lease taken late in a long
 * tick still runs from when it was taken.
 */
export async function runTick({ jobs, clock, log, errors, metrics, batchPerTick = BATCH_PER_TICK }: RunnerDeps): Promise<{
  /** Whether a job stopped at its batch with work still due (not when it failed: that waits for the next tick). */
  more: boolean;
}> {
  let more = false;
  for (const job of jobs) {
    let done = 0;
    let caughtUp = false;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      while (done < batchPerTick) {
        const did = itemsOf(await job.runOne(clock.now()));
        if (did === 0) {
          caughtUp = true;
          break;
        }
        done += did;
      }
    } catch (error) {
      metrics?.failed(job.name, done, seconds());
      log.error({ job: job.name, done, error: failureOf(error) }, `job ${job.name} failed; it runs again next tick`);
      errors?.exception(error, { tags: { source: 'job', job: job.name }, extra: { done } });
      continue;
    }
    metrics?.ran(job.name, done, seconds(), caughtUp);
    if (done > 0) log.info({ job: job.name, done }, `job ${job.name} did ${done}`);
    if (!caughtUp) more = true;
  }
  return { more };
}

export interface Runner {
  /** Stops scheduling and waits for the tick that is running, if any. */
  stop(): Promise<void>;
}

/**
 * Runs one job whenever its channel announces due work: at once when idle, or once more right after the run in
 * progress when a notice comes during it, so notices never pile up runs and none is missed; and on until it has caught
 * up, so a backlog deeper than one tick's batch is not left for the next tick. A job with `partitions` runs that many
 * such loops, each on its own part.
 */
function runOnNotice(job: Job, deps: RunnerDeps, listen: Listen, log: FastifyBaseLogger) {
  let stopped = false;
  const count = job.partitions ?? 1;
  const loops = Array.from({ length: count }, (_, index) => {
    const part: Job = count === 1 ? job : { ...job, runOne: (now) => job.runOne(now, { index, count }) };
    let running: Promise<void> | undefined;
    let again = false;
    const run = () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        let more: boolean;
        do {
          again = false;
          ({ more } = await runTick({ ...deps, jobs: [part] }));
        } while ((again || more) && !stopped);
      })().finally(() => {
        running = undefined;
      });
    };
    return { run, finished: () => running };
  });
  const runAll = () => {
    for (const loop of loops) loop.run();
  };
  const unlisten = listen(job.wakeOn!, runAll, runAll).catch((error: unknown) => {
    // Without its session the job still runs every tick.
    log.warn({ job: job.name, err: error }, `job ${job.name} cannot listen for its notices; it runs on ticks only`);
    return async () => undefined;
  });
  return async () => {
    stopped = true;
    await (
      await unlisten
    )();
    await Promise.all(loops.map((loop) => loop.finished()));
  };
}

/**
 * The background loop (DESIGN "Background work"), inline in the server (WORKER=inline) or as `npm run worker`. Due
 * work is claimed with SKIP LOCKED or a lease, so any number of loops can run at once and killing one at any line
 * loses nothing. A tick starts `intervalMs` after the previous one ended, so ticks never overlap. With `listen`, a job
 * that names a channel (`wakeOn`) also runs as soon as its work is announced.
 */
export function startRunner(deps: RunnerDeps & { intervalMs: number; listen?: Listen }): Runner {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runTick(deps).finally(schedule);
    }, deps.intervalMs);
  };
  schedule();
  const listeners = deps.listen
    ? deps.jobs.filter((job) => job.wakeOn).map((job) => runOnNotice(job, deps, deps.listen!, deps.log))
    : [];

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(listeners.map((stop) => stop()));
      await running;
    },
  };
}
