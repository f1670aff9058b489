/**
 * `npm run ops:check` (run by .ci/run): the alert rules and dashboard in `ops/` are valid and name only metrics the
 * API exports. `promtool check rules` and `promtool test rules` (Debian's `prometheus` package; .ci/run installs it)
 * check the rules; every `tipcard_*` name in the rules and the dashboard must be one `lib/metrics.ts` registers.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createMetrics } from '../apps/api/src/lib/metrics.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RULES = 'ops/prometheus/alerts.yml';
const RULE_TESTS = 'ops/prometheus/alerts.test.yml';
const DASHBOARD = 'ops/grafana/tipcard.json';

const problems: string[] = [];
const promtool = (...args: string[]) => {
  try {
    process.stdout.write(execFileSync('promtool', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (error) {
    const failure = error as { code?: string; stdout?: string; stderr?: string };
    problems.push(
      failure.code === 'ENOENT'
        ? 'promtool is not installed (Debian: apt-get install prometheus)'
        : `promtool ${args.join(' ')}:\n${failure.stdout ?? ''}${failure.stderr ?? ''}`,
    );
  }
};
promtool('check', 'rules', RULES);
promtool('test', 'rules', RULE_TESTS);

// A histogram is scraped as its _bucket, _count and _sum series.
// The replica's gauge exists only where DATABASE_READ_URL is set.
const metrics = createMetrics();
metrics.readReplicaStalenessWith(async () => 0);
const exported = new Set(
  (await metrics.registry.getMetricsAsJSON()).flatMap((metric) =>
    metric.type === 'histogram' ? ['_bucket', '_count', '_sum'].map((suffix) => metric.name + suffix) : [metric.name],
  ),
);
const dashboardText = readFileSync(`${ROOT}${DASHBOARD}`, 'utf8');
try {
  JSON.parse(dashboardText);
} catch (error) {
  problems.push(`${DASHBOARD} is not JSON: ${(error as Error).message}`);
}
for (const [file, text] of [
  [RULES, readFileSync(`${ROOT}${RULES}`, 'utf8')],
  [DASHBOARD, dashboardText],
] as const) {
  for (const name of new Set(text.match(/\btipcard_[a-z_]+/g) ?? [])) {
    if (!exported.has(name)) problems.push(`${file} uses ${name}, which the API does not export`);
  }
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`ops:check: ${problem}`);
  process.exit(1);
}
console.log(`ops:check: ${RULES} valid and tested; ${RULES} and ${DASHBOARD} name only exported metrics`);
