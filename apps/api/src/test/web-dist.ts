import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A web build's folder for the server's page tests: the web app's own `index.html` (its skeleton included) with a
 * stylesheet linked as a build links it, `/assets/index-x.css`. Answers the folder, for `config.webDist`.
 */
export function writeWebDist(): string {
  const webDist = mkdtempSync(join(tmpdir(), 'tipcard-web-dist-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'index-x.css'), '.app-css{color:red}');
  const page = readFileSync(fileURLToPath(new URL('../../../web/index.html', import.meta.url)), 'utf8');
  writeFileSync(
    join(webDist, 'index.html'),
    page.replace('</head>', '<link rel="stylesheet" crossorigin href="/assets/index-x.css">\n  </head>'),
  );
  return webDist;
}
