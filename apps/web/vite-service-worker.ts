import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const SOURCE = fileURLToPath(new URL('src/sw/service-worker.ts', import.meta.url));
/** Files of public/ the installed app shows without the network. */
const PUBLIC_SHELL = [
  '/index.html',
  '/manifest.webmanifest',
  '/favicon.svg',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/icon-maskable-512.png',
];

const LAZY_CHUNK_LIMIT = 500_000;

/**
 * Builds `src/sw/service-worker.ts` into `dist/sw.js` (a fixed name at the root: its scope is the whole site) and puts
 * the app shell's file list in it: index.html and everything its entry loads, at once or lazily (every page's chunk,
 * the catalogs, the styles and what they reference), found by walking the bundle from the index entry. The guest pages'
 * and the back office's own chunks are left out. The list's hash is the cache's version, so each build's worker
 * replaces the last one's cache.
 */
export function serviceWorker(): Plugin {
  let ssr = false;
  return {
    name: 'tipcard-service-worker',
    apply: 'build',
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    buildStart() {
      if (!ssr) this.emitFile({ type: 'chunk', id: SOURCE, fileName: 'sw.js' });
    },
    generateBundle(_options, bundle) {
      if (ssr) return;
      const entry = Object.values(bundle).find(
        (item) => item.type === 'chunk' && item.isEntry && item.facadeModuleId?.endsWith('/index.html'),
      );
      if (!entry) this.error('the index.html entry is not in the bundle');
      const shell = new Set<string>();
      const walk = (fileName: string) => {
        if (shell.has(fileName)) return;
        const item = bundle[fileName];
        if (!item) return;
        shell.add(fileName);
        if (item.type !== 'chunk') return;
        for (const next of item.imports) walk(next);
        for (const next of item.dynamicImports) {
          const lazy = bundle[next];
          // A very large lazy chunk (pdf.js, for a print sheet's preview) serves a page that needs the network anyway:
          // every install would download it for nothing.
          if (lazy?.type === 'chunk' && lazy.code.length > LAZY_CHUNK_LIMIT) continue;
          walk(next);
        }
        for (const file of [...item.viteMetadata!.importedCss, ...item.viteMetadata!.importedAssets]) walk(file);
      };
      walk(entry.fileName);
      // What the styles load (fonts) is referenced from the CSS files, not from any chunk.
      for (const item of Object.values(bundle)) {
        if (item.type === 'asset' && /\.(woff2?|ttf)$/.test(item.fileName)) shell.add(item.fileName);
      }
      const urls = [...PUBLIC_SHELL, ...[...shell].sort().map((fileName) => `/${fileName}`)];
      const version = createHash('sha256').update(urls.join('\n')).digest('hex').slice(0, 16);
      const worker = bundle['sw.js'];
      if (worker?.type !== 'chunk' || !worker.code.includes('__PRECACHE__')) this.error('sw.js was not built');
      worker.code = worker.code.replaceAll('__PRECACHE__', JSON.stringify({ version, urls }));
    },
  };
}
