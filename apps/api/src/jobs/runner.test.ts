import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createMetrics } from '../lib/metrics.ts';
import { createTestClock } from '../test/test-app.ts';
import type { Job } from './job.ts';
import { runTick, startRunner } from './runner.ts';

function capturingLog() {
  const lines: string[] = [];
  return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) };
}

/** A job with `due` items, counting its calls. */
function countingJob(name: string, due: number) {
  const job = {
    name,
    calls: 0,
    async runOne() {
      job.calls += 1;
      if (due === 0) return false;
      due -= 1;
      return true;
    },
  };
  return job;
}

describe('the job runner', () => {
  it("counts each job's runs, items and failures, and its lag grows only while it has not caught up", async () => {
    const { log } = capturingLog();
    const metrics = createMetrics();
    const failing: Job = {
      name: 'broken.job',
      runOne: async () => {
        throw new Error('down');
      },
    };
    const jobs = [countingJob('deep', 5), countingJob('idle', 0), failing];

    await runTick({ jobs, clock: createTestClock(), log, metrics: metrics.job, batchPerTick: 3 });
    await runTick({ jobs, clock: createTestClock(), log, metrics: metrics.job, batchPerTick: 3 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = await metrics.registry.metrics();

    const value = (series: string) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('tipcard_job_runs_total{job_name="deep"}')).toBe(2);
    expect(value('tipcard_job_items_total{job_name="deep"}')).toBe(5);
    expect(value('tipcard_job_failures_total{job_name="broken.job"}')).toBe(2);
    expect(value('tipcard_job_failures_total{job_name="deep"}')).toBeNaN();
    expect(value('tipcard_job_duration_seconds_count{job_name="idle"}')).toBe(2);
    // "deep" caught up in its second tick (2 items left, batch of 3); the failing job never did.
    expect(value('tipcard_job_lag_seconds{job_name="idle"}')).toBeLessThan(
      value('tipcard_job_lag_seconds{job_name="broken.job"}'),
    );
    expect(value('tipcard_job_lag_seconds{job_name="broken.job"}')).toBeGreaterThanOrEqual(0.05);
  });

  it('runs every job in its own try: a failing job is logged by name, without its message, and the others still run', async () => {
    const { lines, log } = capturingLog();
    const before = countingJob('before', 2);
    const failing: Job = {
      name: 'broken.job',
      runOne: async () => {
        throw new Error('Failed query: insert into outbox_messages params: +37120000000,your code is 123456');
      },
    };
    const after = countingJob('after', 3);

    await runTick({ jobs: [before, failing, after], clock: createTestClock(), log });

    expect(before.calls).toBe(3);
    expect(after.calls).toBe(4);
    const errors = lines.map((line) => JSON.parse(line)).filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ job: 'broken.job', error: { type: 'Error' } });
    expect(lines.join('')).not.toMatch(/37120000000|123456|your code/);
  });

  it('does at most a batch of one job per tick, and the rest on the next', async () => {
    const { log } = capturingLog();
    const busy = countingJob('busy', 7);

    await runTick({ jobs: [busy], clock: createTestClock(), log, batchPerTick: 5 });
    expect(busy.calls).toBe(5);
    await runTick({ jobs: [busy], clock: createTestClock(), log, batchPerTick: 5 });
    expect(busy.calls).toBe(8);
  });

  it('gives every call the time of the moment it is made', async () => {
    const { log } = capturingLog();
    const clock = createTestClock();
    const seen: number[] = [];
    const job: Job = {
      name: 'timed',
      runOne: async (now) => {
        seen.push(now.getTime());
        clock.advance(1_000);
        return seen.length < 3;
      },
    };
    await runTick({ jobs: [job], clock, log });
    expect(seen).toEqual([seen[0], seen[0]! + 1_000, seen[0]! + 2_000]);
  });

  it('stops scheduling on stop, and waits for the tick that is running', async () => {
    const { log } = capturingLog();
    let started!: () => void;
    const tickStarted = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    let finished = false;
    const slow: Job = {
      name: 'slow',
      runOne: async () => {
        calls += 1;
        started();
        await released;
        finished = true;
        return false;
      },
    };

    const runner = startRunner({ jobs: [slow], clock: createTestClock(), log, intervalMs: 10 });
    await tickStarted;
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);

    release();
    await stopping;
    expect(finished).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(1);
  });

  it('runs a partitioned job in as many loops side by side when announced, each on its part, and as one loop on ticks', async () => {
    const { log } = capturingLog();
    let notify!: () => void;
    const listen = async (_channel: string, onNotify: (payload: string) => void) => {
      notify = () => onNotify('');
      return async () => undefined;
    };
    const due = new Map([
      ['0/3', 5],
      ['1/3', 5],
      ['2/3', 5],
      ['all', 2],
    ]);
    let inFlight = 0;
    let mostInFlight = 0;
    const job: Job = {
      name: 'partitioned',
      wakeOn: 'due_work',
      partitions: 3,
      runOne: async (_now, partition) => {
        const key = partition ? `${partition.index}/${partition.count}` : 'all';
        if (!due.get(key)) return 0;
        due.set(key, due.get(key)! - 1);
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return 1;
      },
    };
    const runner = startRunner({ jobs: [job], clock: createTestClock(), log, intervalMs: 3_600_000, listen });
    await vi.waitFor(() => expect(notify).toBeDefined(), { timeout: 10_000 });
    notify();
    await vi.waitFor(() => expect([due.get('0/3'), due.get('1/3'), due.get('2/3')]).toEqual([0, 0, 0]), { timeout: 10_000 });
    await runner.stop();
    expect(mostInFlight).toBe(3);
    // Woken loops never ask for all of it; a tick does.
    expect(due.get('all')).toBe(2);
    await runTick({ jobs: [job], clock: createTestClock(), log });
    expect(due.get('all')).toBe(0);
  });

  it('runs a job whose channel announces work at once, through a backlog deeper than a tick, and not after stop', async () => {
    const { log } = capturingLog();
    let notify!: () => void;
    let unlistened = false;
    const listen = async (channel: string, onNotify: (payload: string) => void) => {
      expect(channel).toBe('due_work');
      notify = () => onNotify('');
      return async () => void (unlistened = true);
    };
    let due = 0;
    // A batch job: up to 40 items a call.
    const job: Job = {
      name: 'announced',
      wakeOn: 'due_work',
      runOne: async () => {
        const batch = Math.min(due, 40);
        due -= batch;
        return batch;
      },
    };
    // No tick within the test: only notices run it.
    const runner = startRunner({ jobs: [job], clock: createTestClock(), log, intervalMs: 3_600_000, listen, batchPerTick: 100 });
    await vi.waitFor(() => expect(notify).toBeDefined(), { timeout: 10_000 });
    due = 250;
    notify();
    notify(); // a second notice while it runs: one more run, not a pile of them
    await vi.waitFor(() => expect(due).toBe(0), { timeout: 10_000 });
    await runner.stop();
    expect(unlistened).toBe(true);
    due = 10;
    notify();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(due).toBe(10);
  });
});
