import fs from 'node:fs';
import path from 'node:path';
import { OPENING_PAGES, openingPageChunk } from '@contract/openingPages';

/** What Vite's build manifest (dist/.vite/manifest.json) says of a chunk. */
interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** A chunk's file and the files of every chunk it imports statically, transitively. */
const withImports = (manifest: Manifest, key: string, into = new Set<string>()): Set<string> => {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) withImports(manifest, imported, into);
  return into;
};

/**
 * The manifest's key for a page's code: its own chunk under the name vite.config.ts gives it (a
 * chunk made of several modules is listed by name, not by module), else the module's own chunk.
 */
const pageChunkKey = (manifest: Manifest, module: string): string => {
  const name = openingPageChunk(module);
  return Object.keys(manifest).find((key) => key.startsWith('_') && manifest[key]!.name === name) ?? module;
};

const matches = (pattern: string, pathname: string) => {
  const want = pattern.split('/');
  const have = pathname.split('/');
  return want.length === have.length && want.every((part, i) => (part.startsWith(':') ? have[i] !== '' : part === have[i]));
};

/**
 * `<link rel="modulepreload">` tags for the code of the page at a path (contract/openingPages.ts),
 * beyond what index.html already loads; '' for any other path, or without a build manifest. The
 * browser then fetches the page's chunks beside the console's own instead of after running them.
 */
export function openingPagePreloads(consoleDir: string, indexHtml: string, noncePlaceholder: string): (pathname: string) => string {
  const manifestFile = path.join(consoleDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) return () => '';
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  // Where the page loads its entry from (e.g. '/' or '/studio/'): the chunks sit beside it.
  const base = /<script type="module"[^>]*\ssrc="([^"]*?)assets\//.exec(indexHtml)?.[1] ?? '/';
  const loadedByIndex = withImports(manifest, 'index.html');
  const tagsByPath = OPENING_PAGES.map(({ path: pattern, module }) => {
    const files = [...withImports(manifest, pageChunkKey(manifest, module))].filter((file) => !loadedByIndex.has(file));
    const tags = files.map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}" nonce="${noncePlaceholder}">`).join('');
    return { pattern, tags };
  });
  return (pathname) => tagsByPath.find(({ pattern }) => matches(pattern, pathname))?.tags ?? '';
}
