/**
 * `npm run soak -- --minutes N [--seed S]` (issue 32): a steady mix of guests, users and operators for N minutes
 * against two API servers and two workers on a throwaway PostgreSQL database, with Redis: the simulator's world and
 * actions (`e2e/sim`) without its faults and without its per-step checks. Prints per minute the requests, p50 and p99
 * latency, server errors and each process's resident memory; at the end how memory and p99 moved and the simulator's
 * end checks (ledger invariants, nothing stuck). Exits 1 on a server error, a failed request or a broken invariant;
 * growth is printed for a person to judge, never asserted.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ACTIONS, generate } from '../sim/actions.ts';
import { checkEnd } from '../sim/invariants.ts';
import { mulberry32 } from '../sim/prng.ts';
import { prepareTemplate, World } from '../sim/world.ts';
import type { Instance } from '../cluster/processes.ts';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string', default: '32' } },
});
const minutes = Number(values.minutes);
const seed = Number(values.seed);
const BASE_PORT = Number(process.env.SOAK_PORT ?? 3700 + (process.pid % 100) * 2);

/** Resident memory of a running process in MB, from /proc (Linux), or undefined once it is gone. */
function residentMb(instance: Instance): number | undefined {
  const pid = instance.process?.pid;
  if (pid === undefined) return undefined;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Minute {
  requests: number;
  p50: number;
  p99: number;
  serverErrors: number;
  memory: Record<string, number | undefined>;
}

async function main(): Promise<number> {
  const started = Date.now();
  let latencies: number[] = [];
  let serverErrors = 0;
  const world = new World(BASE_PORT, ({ ms, status }) => {
    latencies.push(ms);
    if (status >= 500) serverErrors += 1;
  });
  console.log(`soak: ${minutes} min, seed ${seed}, ports ${BASE_PORT}, ${BASE_PORT + 1}`);
  const template = await prepareTemplate();
  const minutesSeen: Minute[] = [];
  let failedRequests = 0;
  try {
    await world.startUp(template);
    console.log(`  cluster up in ${((Date.now() - started) / 1000).toFixed(1)} s; one line a minute:`);
    const processes = [...world.servers, ...world.workers];
    console.log(`  min  requests   p50 ms   p99 ms  5xx  ${processes.map((p) => `${p.name} MB`.padStart(12)).join('')}`);
    const prng = mulberry32(seed);
    const soakStart = Date.now();
    let nextMinute = soakStart + 60_000;
    const closeMinute = () => {
      const sorted = latencies.sort((a, b) => a - b);
      const minute: Minute = {
        requests: sorted.length,
        p50: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        serverErrors,
        memory: Object.fromEntries(processes.map((p) => [p.name, residentMb(p)])),
      };
      minutesSeen.push(minute);
      latencies = [];
      serverErrors = 0;
      console.log(
        `  ${String(minutesSeen.length).padStart(3)} ${String(minute.requests).padStart(9)} ${minute.p50.toFixed(1).padStart(8)} ${minute.p99.toFixed(1).padStart(8)} ${String(minute.serverErrors).padStart(4)}  ${processes.map((p) => (minute.memory[p.name]?.toFixed(0) ?? 'gone').padStart(12)).join('')}`,
      );
    };
    for (let step = 0; Date.now() < soakStart + minutes * 60_000; step += 1) {
      const action = generate(prng, step, false);
      try {
        await ACTIONS[action.name]!.run(world, action.p);
      } catch (error) {
        // An action whose request no server answered, or whose answer broke the action's expectations.
        failedRequests += 1;
        console.log(`  step ${step + 1} ${action.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (Date.now() >= nextMinute) {
        closeMinute();
        nextMinute += 60_000;
      }
    }
    if (latencies.length > 0 && minutesSeen.length < minutes) closeMinute();

    console.log('  draining, then the end checks…');
    const stuck = await checkEnd(world);
    const totals = {
      requests: world.clientFigures.requests,
      serverErrors: world.clientFigures.serverErrors.length,
      failedActions: failedRequests,
    };
    console.log('\ntotals', totals);
    console.log('refusals by code (4xx the actions expect or meet)', world.clientFigures.refusals);
    console.log('at the end', stuck);
    // The first minute warms the processes up (JIT, pools, caches): growth is judged from the second one.
    const from = minutesSeen[Math.min(1, minutesSeen.length - 1)];
    const last = minutesSeen.at(-1);
    if (from && last) {
      for (const p of processes) {
        const a = from.memory[p.name];
        const b = last.memory[p.name];
        if (a !== undefined && b !== undefined)
          console.log(
            `memory ${p.name}: ${a.toFixed(0)} MB at minute 2 → ${b.toFixed(0)} MB at the end (${(((b - a) / a) * 100).toFixed(1)} %)`,
          );
      }
      console.log(`p99 latency: ${from.p99.toFixed(1)} ms at minute 2 → ${last.p99.toFixed(1)} ms in the last minute`);
    }
    for (const [name, detail] of world.failures) console.log(`broken: ${name} (${detail})`);
    const ok = totals.serverErrors === 0 && failedRequests === 0 && world.failures.size === 0;
    console.log(ok ? '\nno server error, no failed action, no invariant broken' : '\nFAILED');
    if (totals.serverErrors > 0) console.log(world.clientFigures.serverErrors.slice(0, 20).join('\n'));
    return ok ? 0 : 1;
  } finally {
    await world.shutDown();
    await template.drop();
    console.log(`wall time ${((Date.now() - started) / 1000).toFixed(1)} s; logs ${world.logs}`);
  }
}

process.exit(
  await main().catch((error) => {
    console.error(error);
    return 1;
  }),
);
