/**
 * `npm run build -w @tipcard/api` (part of `npm run build`): the server, the worker and the operators' commands as
 * JavaScript in `apps/api/dist/`, for `node` alone in production (no tsx, no TypeScript at run time).
 *
 * esbuild bundles our code and the shared package (its exports are TypeScript) into ESM, one file per command and
 * shared chunks beside them; every npm dependency stays an import, installed as a production dependency. The output
 * sits in one folder, so the files that code finds beside itself through `import.meta.url` are copied there: the
 * migrations (`db/client.ts`) and the translation catalogs (`@tipcard/shared/i18n/node-catalogs`). Paths that climb out
 * of `src/` (the web app's build, `./data`) are as deep from `dist/` and need nothing.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const API = fileURLToPath(new URL('../', import.meta.url));
const SHARED = fileURLToPath(new URL('../../../packages/shared/', import.meta.url));
const OUT = `${API}dist/`;

const dependenciesOf = (folder: string) =>
  Object.keys((JSON.parse(readFileSync(`${folder}package.json`, 'utf8')) as { dependencies?: object }).dependencies ?? {});

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: {
    server: `${API}src/server.ts`,
    worker: `${API}src/jobs/worker-main.ts`,
    migrate: `${API}src/cli/migrate.ts`,
    backup: `${API}src/cli/backup.ts`,
    restore: `${API}src/cli/restore.ts`,
    payouts: `${API}src/cli/payouts.ts`,
    'verification-review': `${API}src/cli/verification-review.ts`,
    'ops-create-admin': `${API}src/cli/ops-create-admin.ts`,
    'ops-messages': `${API}src/cli/ops-messages.ts`,
    healthcheck: `${API}src/cli/healthcheck.ts`,
  },
  outdir: OUT,
  // Chunks beside the entries, not in a folder of their own: `import.meta.url` must mean `dist/` in every file.
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  // A package keeps its own files (PGlite's WebAssembly, the fonts, native modules): imported, never copied in.
  external: [...dependenciesOf(API), ...dependenciesOf(SHARED)],
  logLevel: 'warning',
});
cpSync(`${API}src/db/migrations`, `${OUT}migrations`, { recursive: true });
cpSync(`${SHARED}src/i18n/locales`, `${OUT}locales`, { recursive: true });
// The ISO 20022 schemas the bank reports are checked against (`modules/payouts/bank-report.ts`).
cpSync(`${API}src/modules/payouts/schemas`, `${OUT}schemas`, { recursive: true });
console.log(`API built into ${OUT}`);
