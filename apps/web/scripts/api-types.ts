import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run api:types`: the API's OpenAPI document (root `npm run openapi`, built from the routes' zod schemas) turned
 * into TypeScript at src/lib/api-types.gen.ts in the repository's Prettier style. Every step is deterministic: run
 * again on the same API, it writes the same text, so a diff in review is a change of the API.
 *
 * `npm run api:types:check [-- openapi.json]`: the same text, compared with the committed file instead of written;
 * fails when they differ. `npm run lint` passes the document it has just linted, so it is built once.
 */
const OUTPUT = 'src/lib/api-types.gen.ts';
const args = process.argv.slice(2);
const check = args.includes('--check');
const given = args.find((arg) => arg !== '--check');
const web = fileURLToPath(new URL('..', import.meta.url));
const root = join(web, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'tipcard-openapi-'));
try {
  // npm runs a workspace's script in the workspace: a relative path given on the command line is the caller's.
  const document = given ? resolve(process.env.INIT_CWD ?? process.cwd(), given) : join(dir, 'openapi.json');
  if (!given) execFileSync('npm', ['run', '--silent', 'openapi', '--', document], { cwd: root, stdio: 'inherit' });
  const generated = execFileSync('npx', ['--no-install', 'openapi-typescript', document], { cwd: web, encoding: 'utf8' });
  // Formatted as if it were the committed file, so the repository's Prettier configuration applies.
  const text = execFileSync('npx', ['--no-install', 'prettier', '--stdin-filepath', OUTPUT], {
    cwd: web,
    input: generated,
    encoding: 'utf8',
  });
  if (!check) writeFileSync(join(web, OUTPUT), text);
  else if (readFileSync(join(web, OUTPUT), 'utf8') !== text) {
    console.error(`apps/web/${OUTPUT} does not match the API's OpenAPI document: run \`npm run api:types\` and commit the file.`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
