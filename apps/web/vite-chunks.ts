import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * How the build groups the app's modules into files (decision 0056). On a weak network every request costs a round
 * trip, and the bundler's own split, one file per set of entries and lazy pages that use a module, gave the signed-in
 * overview 129 requests, most of a few hundred bytes (one per icon, per hook, per catalog namespace).
 *
 * - `start-…`: what the app's entry loads when it starts, one file per set of entries whose start loads it (`start-index`
 *   alone, `start-index-public` shared with the guest pages' start, …), so that no entry's start loads a module it
 *   did not load before. A lazy page of another entry that needs one of them loads its whole file (the guest page's
 *   anti-bot widget, only when it is configured, loads i18next's). What only the guest and back-office entries start
 *   with keeps the bundler's own split.
 * - `signed-in…`: what the session guard, the signed-in layout and the overview load beyond the app's start, in one
 *   file per set of other entries that start with it or whose pages may load it (`signed-in` alone for most; the
 *   phone number library, which the back office starts with, in `signed-in-opsstart-ops`), which the page
 *   served to a signed-in visitor preloads (web-shell.service.ts). The log-in and sign-up pages load it too where they
 *   share a module with it.
 *
 * The service worker's modules are left alone (a worker script imports nothing), as are stylesheets.
 */

interface ModuleInfo {
  importers: readonly string[];
  dynamicImporters: readonly string[];
  importedIds: readonly string[];
  isEntry: boolean;
}

interface ModuleGraph {
  getModuleInfo(id: string): ModuleInfo | null;
}

const APP_ENTRY = 'index';
/** The signed-in area's first modules (guard, layout, overview), which `src/app/router.tsx` imports lazily as one. */
const SIGNED_IN_ROOTS = [fileURLToPath(new URL('src/app/signed-in-start.ts', import.meta.url))];

/** An entry's name: `index` for index.html, `sw` for the service worker's source. */
const entryName = (id: string) => (/[\\/]src[\\/]sw[\\/]/.test(id) ? 'sw' : (/([\w-]+)\.\w+$/.exec(id)?.[1] ?? id));

/** The entries whose start loads a module (`statically`) or that may load it at all, cached per module id. */
function entriesReaching(graph: ModuleGraph, statically: boolean) {
  const cache = new Map<string, ReadonlySet<string>>();
  return (id: string): ReadonlySet<string> => {
    const known = cache.get(id);
    if (known) return known;
    // Up through the importers from the module, each module once.
    const entries = new Set<string>();
    const seen = new Set([id]);
    const queue = [id];
    while (queue.length > 0) {
      const current = queue.pop()!;
      const info = graph.getModuleInfo(current);
      if (!info) continue;
      if (info.isEntry) entries.add(entryName(current));
      for (const importer of [...info.importers, ...(statically ? [] : info.dynamicImporters)]) {
        if (!seen.has(importer)) {
          seen.add(importer);
          queue.push(importer);
        }
      }
    }
    cache.set(id, entries);
    return entries;
  };
}

/** Every module the signed-in roots import statically. */
function signedInClosure(graph: ModuleGraph): Set<string> {
  const reached = new Set<string>();
  const queue = [...SIGNED_IN_ROOTS];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (reached.has(id)) continue;
    reached.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return reached;
}

/** The chunk a module goes to, or null for the bundler's own split. */
function chunkOf(id: string, graph: ModuleGraph, state: ChunkState): string | null {
  const info = graph.getModuleInfo(id);
  if (/\.css($|\?)/.test(id) || !info || info.isEntry) return null;
  const reachedBy = state.reachedBy(id);
  if (reachedBy.has('sw')) return null;
  const startedBy = state.startedBy(id);
  // The script an entry's page names (main.tsx) stays the entry's file.
  if (startedBy.size === 1 && info.importers.some((importer) => graph.getModuleInfo(importer)?.isEntry)) return null;
  if (startedBy.has(APP_ENTRY)) return ['start', ...[...startedBy].sort()].join('-');
  if (!state.signedIn.has(id)) return null;
  // Grouped by the other entries that start with it and that may load it later: none loads more when it starts.
  const others = (entries: ReadonlySet<string>) => [...entries].filter((entry) => entry !== APP_ENTRY).sort();
  return ['signed-in', ...others(startedBy).map((entry) => `${entry}start`), ...others(reachedBy)].join('-');
}

interface ChunkState {
  startedBy: (id: string) => ReadonlySet<string>;
  reachedBy: (id: string) => ReadonlySet<string>;
  signedIn: Set<string>;
}

/** `build.rollupOptions.output.codeSplitting.groups`: one group whose name function places each module. */
export function chunkGroups() {
  let state: ChunkState | undefined;
  return [
    {
      name: (id: string, graph: ModuleGraph) => {
        state ??= {
          startedBy: entriesReaching(graph, true),
          reachedBy: entriesReaching(graph, false),
          signedIn: signedInClosure(graph),
        };
        return chunkOf(id, graph, state);
      },
      // What a module imports is placed by its own name, not pulled into its importer's file.
      includeDependenciesRecursively: false,
    },
  ];
}

/** Where the build lists the signed-in start's files for the server (web-shell.service.ts reads it). */
export const SIGNED_IN_PRELOADS_FILE = '.vite/signed-in-preloads.json';

/**
 * Writes SIGNED_IN_PRELOADS_FILE: the files the signed-in roots need beyond the index entry's own (the lazy routes'
 * chunks and what they import), as `/assets/…` paths, so that the page served to a signed-in visitor names them in
 * `<link rel="modulepreload">` and they load beside the entry instead of after it.
 */
export function signedInPreloads(): Plugin {
  return {
    name: 'tipcard-signed-in-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (this.environment.config.build.ssr) return;
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
      const closure = (roots: string[]) => {
        const files = new Set<string>();
        const queue = [...roots];
        while (queue.length > 0) {
          const fileName = queue.pop()!;
          const chunk = bundle[fileName];
          if (files.has(fileName) || chunk?.type !== 'chunk') continue;
          files.add(fileName);
          queue.push(...chunk.imports);
        }
        return files;
      };
      const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith('/index.html'));
      // The chunks holding the roots: a root's own (its facade) or, when the bundler gave it none, the group it is in.
      const roots = chunks.filter((chunk) => SIGNED_IN_ROOTS.some((root) => chunk.moduleIds.includes(root)));
      if (!entry || roots.length !== SIGNED_IN_ROOTS.length) this.error('the signed-in routes are not in the bundle');
      const started = closure([entry.fileName]);
      const files = [...closure(roots.map((chunk) => chunk.fileName))].filter((fileName) => !started.has(fileName));
      this.emitFile({
        type: 'asset',
        fileName: SIGNED_IN_PRELOADS_FILE,
        source: JSON.stringify(files.map((fileName) => `/${fileName}`)),
      });
    },
  };
}
