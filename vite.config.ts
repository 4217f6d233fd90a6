import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import type { ChunkingContext } from 'rolldown';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openingPageChunk, openingPageModules } from './contract/openingPages.ts';

// In development the console runs on Vite's port and the API on the server's.
const apiTarget = process.env.VITE_DEV_API ?? 'http://127.0.0.1:3000';
const proxied = ['/api', '/login', '/logout', '/callback', '/1/indexes', '/healthz'];

// `@contract/x` is contract/x, so no file climbs `../../../contract`. tsconfig's `paths` says the same
// to TypeScript and to tsx (the server at run time); this says it to Vite and Vitest.
export const contractAlias = { '@contract': fileURLToPath(new URL('./contract', import.meta.url)) };

// react-admin's translator (node-polyglot) requires the object.entries polyfill, and with it an
// ES2017 shim chain (get-intrinsic, call-bind, define-properties, …: ~4 KB of the first download).
// Every browser the console runs in has Object.entries, which the polyfill hands back anyway.
const OBJECT_ENTRIES = '\0native-object-entries';
const nativeObjectEntries: Plugin = {
  name: 'native-object-entries',
  enforce: 'pre',
  apply: 'build',
  resolveId: (id) => (id === 'object.entries' ? OBJECT_ENTRIES : null),
  load: (id) => (id === OBJECT_ENTRIES ? 'module.exports = Object.entries;' : null),
};

// MUI's Tooltip brings Popper and popper.js (~9 KB of the first download) for something shown only
// once staff point at, focus or touch something. Every import of its component (the console's,
// react-admin's menu entries and buttons, MUI's own) gets src/common/LazyTooltip.tsx instead, which
// renders the child as a closed Tooltip does and fetches the real one on first use; it alone gets
// the real one. (Build only: the dev server and the tests use MUI's Tooltip itself.)
const LAZY_TOOLTIP = fileURLToPath(new URL('./src/common/LazyTooltip.tsx', import.meta.url));
const MUI_TOOLTIP_DIR = /[\\/]@mui[\\/]material[\\/]esm[\\/]Tooltip[\\/]/;
const lazyTooltip: Plugin = {
  name: 'lazy-mui-tooltip',
  enforce: 'pre',
  apply: 'build',
  async resolveId(source, importer, options) {
    // @mui/material/Tooltip (and the package's index) re-export its component from ./Tooltip.js.
    if (source === './Tooltip.js' && importer && MUI_TOOLTIP_DIR.test(importer)) return LAZY_TOOLTIP;
    if (source === '@mui/material/Tooltip' && importer === LAZY_TOOLTIP) {
      const index = await this.resolve(source, importer, { ...options, skipSelf: true });
      return index && join(dirname(index.id), 'Tooltip.js');
    }
    return null;
  },
};

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const isOurs = (id: string) => id.startsWith(ROOT) && !id.includes('/node_modules/');
const lazyPartsCache = new WeakMap<ChunkingContext, Map<string, Set<string>>>();

/**
 * The modules a page's first render may fetch: what it imports, and what the parts it imports
 * lazily import (a card of its own loaded after the page), each through their static imports;
 * the entry's own lazy parts (the other pages) are not the page's.
 */
function withItsLazyParts(module: string, context: ChunkingContext): Set<string> {
  const cache = lazyPartsCache.get(context) ?? new Map<string, Set<string>>();
  lazyPartsCache.set(context, cache);
  const known = cache.get(module);
  if (known) return known;
  const staticClosure = (id: string, into: Set<string>) => {
    const queue = [id];
    while (queue.length > 0) {
      const info = context.getModuleInfo(queue.pop()!);
      // Our modules only: a package's index names every part of it, most of which the build
      // leaves out; the group takes the parts our modules use with them (its dependencies).
      if (!info || into.has(info.id) || !isOurs(info.id)) continue;
      into.add(info.id);
      queue.push(...info.importedIds);
    }
    return into;
  };
  // The entry's modules are in the first download, and their lazy parts are the other pages.
  const entry = staticClosure(join(ROOT, 'src/main.tsx'), new Set());
  const found = staticClosure(join(ROOT, module), new Set());
  for (const id of [...found]) {
    if (entry.has(id)) continue;
    for (const lazyPart of context.getModuleInfo(id)?.dynamicallyImportedIds ?? []) staticClosure(lazyPart, found);
  }
  cache.set(module, found);
  return found;
}

export default defineConfig({
  plugins: [react(), nativeObjectEntries, lazyTooltip],
  resolve: { alias: contractAlias },
  // The server swaps this placeholder for a fresh nonce on every page load (server/src/lib/security.ts).
  html: { cspNonce: 'CSP_NONCE_PLACEHOLDER' },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    // The manifest tells the server which chunks the page a browser opens on needs, to announce them
    // in that page (server/src/routes/openingPages.ts).
    manifest: true,
    // Everything the page loads before any of its own lazy parts (the entry's static imports) in one
    // file. Left to itself Rolldown splits what the entry shares with the lazy pages into ~25 small
    // chunks, and each file is compressed on its own: the same code as one file is ~22 KB (10%)
    // smaller in brotli, and one request instead of ~25. Lazy pages import from it as they did from
    // those chunks; only code shared by lazy pages alone is still split out as before.
    //
    // Then each page a console is most often opened on (contract/openingPages.ts) in one chunk with
    // what it needs beyond the entry, in that list's order: the dashboard's few shared parts stay
    // its own, and the client list, which came in 38 files, comes in two (its chunk and the
    // dashboard's). Another lazy page that shares a part with one of them loads that whole chunk,
    // ~100 KB brotli at most, once.
    //
    // The dashboard's chunk also holds what its own lazy parts need (the revenue card): left to the
    // later pages' chunks, those parts pulled the client list's and the client page's chunks
    // (~135 KB brotli) into every cold dashboard, for a card, a link and a skeleton they share.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            ...openingPageModules().map((module, order) =>
              order === 0
                ? { name: (id: string, context: ChunkingContext) => (withItsLazyParts(module, context).has(id) ? openingPageChunk(module) : null) }
                : { name: openingPageChunk(module), test: (id: string) => id.replaceAll('\\', '/').endsWith(`/${module}`) },
            ),
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: apiTarget, changeOrigin: false }])),
  },
});
