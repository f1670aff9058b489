/**
 * `npm run sim -- --seed N --steps M [--faults] [--minutes T] [--shrink-minutes S]` (issue 24): the whole-system
 * simulator. Drives the real app (two API servers with WORKER=off and two `npm run worker` processes on a throwaway
 * PostgreSQL database, with Redis, as `npm run test:cluster` runs them) with a seeded random mix of what users,
 * guests, operators, the payment provider and faults do (`actions.ts`), checks the global invariants after every
 * step and in full at the end (`invariants.ts`), and on a failure prints the seed, the invariant and the shortest
 * action list found that still breaks it, by replaying shortened lists on fresh databases (`shrink.ts`). Prints its
 * figures and exits 1 on any failure.
 *
 * Needs PostgreSQL (CLUSTER_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres; a template database and
 * one database per run are created there and dropped) and Redis (REDIS_URL). Ports SIM_PORT and +1.
 */
import { parseArgs } from 'node:util';
import { ACTIONS, describe, generate, type Action } from './actions.ts';
import { checkEnd, checkStep, effects, GRACE_MS } from './invariants.ts';
import { mulberry32 } from './prng.ts';
import { shrink } from './shrink.ts';
import { prepareTemplate, World } from './world.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    steps: { type: 'string', default: '300' },
    faults: { type: 'boolean', default: false },
    minutes: { type: 'string' },
    'shrink-minutes': { type: 'string', default: '10' },
    /** Print every step's action and what came of it. */
    trace: { type: 'boolean', default: false },
  },
});
const seed = Number(values.seed);
const steps = Number(values.steps);
const faults = values.faults!;
const NOTHING = 'nothing to act on';
const BASE_PORT = Number(process.env.SIM_PORT ?? 3400 + (process.pid % 400) * 2);

interface RunResult {
  world: World;
  actions: Action[];
  outcomes: string[];
  /** The step (1-based) at which each invariant first broke. */
  brokenAt: Map<string, number>;
  /** Invariants first broken by the end's checks: a replay must run to the end to see them again. */
  brokenAtEnd: Set<string>;
  stuck?: Record<string, number>;
  effects?: Record<string, number>;
}

/**
 * Runs actions (drawn lazily from `next` until it answers undefined) on the world as it is (fresh, or just reset), the invariants after each;
 * with `target`, stops as soon as that invariant breaks. The end's checks run unless stopped early.
 */
async function run(
  world: World,
  next: (step: number) => Action | undefined,
  options: { target?: string; endChecks?: boolean; quiet?: boolean } = {},
): Promise<RunResult> {
  const { target, endChecks = true, quiet = false } = options;
  const result: RunResult = { world, actions: [], outcomes: [], brokenAt: new Map(), brokenAtEnd: new Set() };
  const noteBroken = () => {
    for (const [name, detail] of world.failures) {
      if (result.brokenAt.has(name)) continue;
      result.brokenAt.set(name, result.actions.length);
      // A long run says at once what broke, not only at its end.
      if (!quiet) console.log(`  broken: ${name} (${detail})`);
    }
  };
  const stepsStarted = Date.now();
  for (let step = 0; ; step += 1) {
    const action = next(step);
    if (!action) break;
    world.figures.steps += 1;
    result.actions.push(action);
    let outcome: string | null;
    try {
      outcome = await ACTIONS[action.name]!.run(world, action.p);
    } catch (error) {
      outcome = `error: ${error instanceof Error ? error.message : String(error)}`;
      world.figures.actionErrors += 1;
    }
    if (outcome === null) world.figures.skipped[action.name] = (world.figures.skipped[action.name] ?? 0) + 1;
    else world.figures.actions[action.name] = (world.figures.actions[action.name] ?? 0) + 1;
    result.outcomes.push(outcome ?? NOTHING);
    if (values.trace && !quiet) console.log(`  ${String(step + 1).padStart(5)}. ${describe(action)}  → ${outcome ?? NOTHING}`);
    await checkStep(world);
    noteBroken();
    if (!quiet && (step + 1) % 100 === 0)
      console.log(`  step ${step + 1}: ${world.failures.size} invariant(s) broken, ${world.clientFigures.requests} requests`);
    if (target && world.failures.has(target)) return result;
  }
  if (!quiet) console.log(`  ${result.actions.length} steps in ${((Date.now() - stepsStarted) / 1000).toFixed(1)} s; draining`);
  if (!endChecks) {
    // Some step invariants judge only what is older than their grace (money given back by a job): a replay that ends
    // right after its last action gives them that time once before it is judged passing.
    if (target && !world.failures.has(target)) {
      await new Promise((resolve) => setTimeout(resolve, GRACE_MS + 1_000));
      await checkStep(world);
    }
    return result;
  }
  const draining = Date.now();
  const before = new Set(world.failures.keys());
  result.stuck = await checkEnd(world);
  if (!quiet) result.effects = await effects(world);
  if (!quiet) console.log(`  drained and checked in ${((Date.now() - draining) / 1000).toFixed(1)} s`);
  noteBroken();
  for (const name of world.failures.keys()) if (!before.has(name)) result.brokenAtEnd.add(name);
  return result;
}

async function main(): Promise<number> {
  const started = Date.now();
  const prng = mulberry32(seed);
  console.log(
    `sim: seed ${seed}, ${steps} steps${faults ? ', with faults' : ''}${values.minutes ? `, at most ${values.minutes} min` : ''}; ports ${BASE_PORT}, ${BASE_PORT + 1}`,
  );
  const template = await prepareTemplate();
  console.log(`  template ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const world = new World(BASE_PORT);
  try {
    await world.startUp(template);
    console.log(`  cluster up (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    // The minutes are the steps' own: on a busy machine the template and the cluster alone can take them all.
    const stopAt = values.minutes ? Date.now() + Number(values.minutes) * 60_000 : Infinity;
    const main = await run(world, (step) => (step < steps && Date.now() < stopAt ? generate(prng, step, faults) : undefined));
    const failures = new Map(world.failures);
    console.log(`\nlogs: ${world.logs}`);
    console.log('steps', world.figures.steps, `(${((Date.now() - started) / 1000).toFixed(1)} s)`);
    console.log('actions by kind', world.figures.actions);
    console.log('skipped (nothing to act on)', world.figures.skipped);
    console.log('action errors', world.figures.actionErrors);
    console.log('requests', {
      total: world.clientFigures.requests,
      failedOverToOtherServer: world.clientFigures.failovers,
      serverErrors: world.clientFigures.serverErrors.length,
    });
    console.log('refusals by code', world.clientFigures.refusals);
    console.log('kills', world.figures.kills, '· invariant checks', world.figures.invariantChecks);
    const adjustments: Record<number, number> = {};
    for (const adjustment of world.adjustments) adjustments[adjustment.status] = (adjustments[adjustment.status] ?? 0) + 1;
    console.log('period adjustments by last status answered', adjustments);
    console.log('effects', main.effects);
    console.log('at the end', main.stuck ?? '(not reached)');
    if (failures.size === 0) {
      console.log('\nno invariant broken');
      return 0;
    }
    console.log(`\nFAILED, seed ${seed}: ${failures.size} invariant(s) broken`);
    for (const [name, detail] of failures) console.log(`- ${name} (${detail})`);

    // Each broken invariant shrunk in turn, within one time budget shared between them.
    const deadline = Date.now() + Number(values['shrink-minutes']) * 60_000;
    const names = [...failures.keys()];
    for (const name of names) {
      const prefix = main.actions.slice(0, main.brokenAt.get(name) ?? main.actions.length);
      const budget = Date.now() + (deadline - Date.now()) / (names.length - names.indexOf(name));
      console.log(`\nshrinking "${name}" from ${prefix.length} actions (until ${new Date(budget).toISOString().slice(11, 19)})…`);
      let last: { actions: Action[]; outcomes: string[]; detail: string } | undefined;
      const fails = async (candidate: Action[]) => {
        try {
          await world.reset();
          const replay = await run(world, (step) => candidate[step], {
            target: name,
            endChecks: main.brokenAtEnd.has(name),
            quiet: true,
          });
          const detail = world.failures.get(name);
          if (detail) last = { actions: replay.actions, outcomes: replay.outcomes, detail };
          return detail !== undefined;
        } catch (error) {
          console.log(`  a replay stopped: ${error instanceof Error ? error.message : String(error)}`);
          return false;
        }
      };
      // An action that found nothing to act on changed nothing: all of them go first, in one replay.
      const acting = prefix.filter((_, i) => main.outcomes[i] !== NOTHING);
      const start = acting.length < prefix.length && (await fails(acting)) ? acting : prefix;
      const shrunk = await shrink(start, fails, budget);
      const confirmed = last && last.actions.length === shrunk.actions.length ? last : undefined;
      console.log(
        `"${name}", seed ${seed}: ${shrunk.actions.length} action(s) after ${shrunk.replays} replays${shrunk.complete ? '' : ' (time bound reached: maybe not the shortest)'}${confirmed ? `, broken: ${confirmed.detail}` : ''}`,
      );
      shrunk.actions.forEach((action, i) =>
        console.log(`  ${String(i + 1).padStart(3)}. ${describe(action)}${confirmed ? `  → ${confirmed.outcomes[i]}` : ''}`),
      );
    }
    return 1;
  } finally {
    await world.shutDown();
    await template.drop();
    console.log(`wall time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

process.exit(
  await main().catch((error) => {
    console.error(error);
    return 1;
  }),
);
