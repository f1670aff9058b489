import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run api:types -w @tipcard/web`: the API's OpenAPI document (root `npm run openapi`, built from the routes' zod
 * schemas) turned into TypeScript at src/lib/api-types.gen.ts in the repository's Prettier style. Every step is
 * deterministic: run again on the same API, it rewrites the same file, so a diff in review is a change of the API.
 */
const OUTPUT = 'src/lib/api-types.gen.ts';
const web = fileURLToPath(new URL('..', import.meta.url));
const root = join(web, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'tipcard-openapi-'));
try {
  const document = join(dir, 'openapi.json');
  execFileSync('npm', ['run', '--silent', 'openapi', '--', document], { cwd: root, stdio: 'inherit' });
  execFileSync('npx', ['--no-install', 'openapi-typescript', document, '--output', OUTPUT], { cwd: web, stdio: 'inherit' });
  execFileSync('npx', ['--no-install', 'prettier', '--log-level', 'warn', '--write', OUTPUT], { cwd: web, stdio: 'inherit' });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
