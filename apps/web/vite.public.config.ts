import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/**
 * The public entry (public.html: the guest payment, venue, invoice and donor action pages) and its server renderer
 * (src/public-server.tsx), built apart from the app with React aliased to Preact (decision 0064). The guest page's
 * script starts after its server-rendered first paint only to enhance a form that already works, and a phone on a poor
 * connection pays for every byte of it: react-dom alone was 62 KB gzip of the 114 KB it loaded, Preact with its React
 * compatibility layer is about 11. The server renders these pages with Preact too, so that hydration meets markup made by
 * the same library (`useId`'s ids above all). Run after `vite.config.ts`'s builds, into the same folders.
 */
const PREACT = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

interface ModuleGraph {
  getModuleInfo(id: string): { importers: readonly string[]; isEntry: boolean } | null;
}

/**
 * `build.rollupOptions.output.codeSplitting.groups`: what the entry's script starts with in one file beside it (the
 * bundler's own split gave five, shared with the lazy invoice and donor pages, each gzipped alone: 1.4 KB more), and
 * what loads later (a page, a language's texts) left to the bundler.
 */
function startGroup() {
  const started = new Map<string, boolean>();
  const startsWithEntry = (id: string, graph: ModuleGraph): boolean => {
    const known = started.get(id);
    if (known !== undefined) return known;
    // Up through the static importers, each module once.
    const seen = new Set([id]);
    const queue = [id];
    let found = false;
    while (queue.length > 0 && !found) {
      const info = graph.getModuleInfo(queue.pop()!);
      if (!info) continue;
      found = info.isEntry;
      for (const importer of info.importers) {
        if (!seen.has(importer)) {
          seen.add(importer);
          queue.push(importer);
        }
      }
    }
    started.set(id, found);
    return found;
  };
  // The script the page names (public-main.tsx) stays the entry's file, the one the server starts after the paint.
  const isEntryScript = (id: string, graph: ModuleGraph) =>
    graph.getModuleInfo(id)?.importers.some((importer) => graph.getModuleInfo(importer)?.isEntry) ?? false;
  return {
    name: (id: string, graph: ModuleGraph) =>
      /\.css($|\?)/.test(id) || graph.getModuleInfo(id)?.isEntry || isEntryScript(id, graph) || !startsWithEntry(id, graph)
        ? null
        : 'public-start',
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  resolve: { alias: PREACT },
  // Bundled whole on the server as well: a dependency left to Node (lucide-react's icons) would import the real React.
  ssr: { noExternal: true },
  build: {
    outDir: isSsrBuild ? 'dist-server' : 'dist',
    // The app's builds (vite.config.ts) ran first into the same folders, and copied public/.
    emptyOutDir: false,
    copyPublicDir: false,
    sourcemap: false,
    rollupOptions: isSsrBuild
      ? {}
      : {
          input: { public: fileURLToPath(new URL('public.html', import.meta.url)) },
          output: { codeSplitting: { groups: [startGroup()] } },
        },
  },
}));
