#!/usr/bin/env node
// The structure of the code as its imports draw it: which part imports which. docs/architecture.md
// prints this table, and tests/server/import-rules.test.ts holds the code to the forbidden imports
// below, so the document and the code cannot drift apart unnoticed.
//
//   node --import tsx scripts/import-graph.ts            the table (Markdown) and any broken rule
//   node --import tsx scripts/import-graph.ts --json     the graph as JSON
//   node --import tsx scripts/import-graph.ts --write    refresh the table between the markers in docs/architecture.md
//
// A part is contract/, src/<area> (src/App.tsx and src/main.tsx on their own), server/src/<dir>
// (each file directly in server/src on its own), server/seed or bench/. Relative imports and `@contract/` count: packages
// from node_modules are not parts.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['contract', 'src', 'server/src', 'server/seed', 'bench'];
/** `@contract/x` is contract/x (tsconfig paths, vite alias): the one alias, counted like a relative import. */
const CONTRACT_ALIAS = '@contract/';
const SOURCE_FILE = /\.(ts|tsx|mts|mjs|js)$/;

// import x from '…', import type { x } from '…', export { x } from '…', import '…', import('…').
// [^'"`;]* spans the names of a multi-line import without running into the next statement.
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function walk(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'results') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (SOURCE_FILE.test(name)) out.push(path);
  }
  return out;
}

/** The part a repository-relative path belongs to, or null when it is outside the drawn code. */
export function partOf(path: string): string | null {
  const p = path.split(sep).join('/');
  if (p.startsWith('contract/')) return 'contract';
  if (p.startsWith('bench/')) return 'bench';
  for (const base of ['server/src/', 'src/']) {
    if (!p.startsWith(base)) continue;
    const rest = p.slice(base.length);
    const slash = rest.indexOf('/');
    return slash === -1 ? base + rest.replace(SOURCE_FILE, '') : base + rest.slice(0, slash);
  }
  if (p.startsWith('server/')) return 'server/' + p.split('/')[1];
  return null;
}

/** Every relative import of the drawn code: { from, to, fromPart, toPart, typeOnly }. */
export interface ImportEdge {
  from: string;
  to: string;
  fromPart: string | null;
  toPart: string | null;
  /** `import type …`, `export type …` or only `type` names: gone from the JavaScript. */
  typeOnly: boolean;
  /** What is imported, as written between `import` and `from` ('' for `import '…'` and `import('…')`). */
  names: string;
}

/** Whether an import statement's text brings in types only. */
export function isTypeOnly(statement: string): boolean {
  if (/^(?:import|export)\s+type\b/.test(statement)) return true;
  const braces = /^(?:import|export)\s*\{([^}]*)\}\s*from\b/.exec(statement);
  const names =
    braces?.[1]
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean) ?? [];
  return names.length > 0 && names.every((name) => name.startsWith('type '));
}

export function collectImports(root = ROOT): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const dir of SOURCE_DIRS) {
    for (const file of walk(join(root, dir))) {
      const text = readFileSync(file, 'utf8')
        // Comments may quote import lines; they are not imports.
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
      for (const m of text.matchAll(IMPORT)) {
        const spec = (m[1] ?? m[2])!;
        const aliased = spec.startsWith(CONTRACT_ALIAS);
        if (!spec.startsWith('.') && !aliased) continue;
        const from = relative(root, file).split(sep).join('/');
        const target = aliased ? join(root, 'contract', spec.slice(CONTRACT_ALIAS.length)) : resolve(dirname(file), spec);
        const to = relative(root, target).split(sep).join('/');
        const statement = m[0].replace(/^[\s;]+/, '');
        const names = /^(?:import|export)\s+(?:type\s+)?([\s\S]*?)\s*from\s*['"]/.exec(statement)?.[1] ?? '';
        edges.push({ from, to, fromPart: partOf(from), toPart: partOf(to), typeOnly: m[1] !== undefined && isTypeOnly(statement), names });
      }
    }
  }
  return edges;
}

/** part -> sorted list of the other parts it imports. */
export function partGraph(edges: ImportEdge[]): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!e.fromPart) continue;
    if (!graph.has(e.fromPart)) graph.set(e.fromPart, new Set());
    if (e.toPart && !graph.has(e.toPart)) graph.set(e.toPart, new Set());
    if (e.toPart && e.toPart !== e.fromPart) graph.get(e.fromPart)!.add(e.toPart);
  }
  return new Map([...graph.keys()].sort().map((k) => [k, [...graph.get(k)!].sort()]));
}

/** The file an import target names ('src/common/format' is src/common/format.ts, 'src/clients' its index), if it exists. */
function targetFile(to: string, files: Set<string>): string | undefined {
  return [to, ...['.ts', '.tsx', '.mts', '.js', '/index.ts', '/index.tsx'].map((ending) => to + ending)].find((file) => files.has(file));
}

/**
 * The import circles among the files under `under` (each a set of files that import one another,
 * directly or through each other, sorted), from the imports that run: type-only imports are erased
 * and draw none. A circle makes the order modules are evaluated in depend on which one is imported
 * first (a value read before its module has run is undefined) and ties the files into one knot.
 */
export function importCircles(edges: ImportEdge[], under = 'src/'): string[][] {
  const files = new Set(edges.map((e) => e.from));
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.typeOnly || !e.from.startsWith(under)) continue;
    const to = targetFile(e.to, files);
    if (!to || !to.startsWith(under)) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), to]);
  }
  // Tarjan's strongly connected components, iteratively (a deep chain would overflow a recursion).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let counter = 0;
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { file: string; i: number }[] = [{ file: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const targets = next.get(frame.file) ?? [];
      if (frame.i < targets.length) {
        const to = targets[frame.i++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ file: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work.at(-1)!.file;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.file)!));
      }
      if (low.get(frame.file) === index.get(frame.file)) {
        const component: string[] = [];
        let file: string;
        do {
          file = stack.pop()!;
          onStack.delete(file);
          component.push(file);
        } while (file !== frame.file);
        const selfImport = targets.includes(frame.file);
        if (component.length > 1 || selfImport) circles.push(component.sort());
      }
    }
  }
  return circles.sort((a, b) => b.length - a.length);
}

const inConsole = (path: string) => path.startsWith('src/');
const inServer = (path: string) => path.startsWith('server/');
// Import targets carry no extension ('../app'), so a file directly in server/src is matched without it.
const file = (path: string) => path.replace(SOURCE_FILE, '');
const inRoutes = (path: string) => path.startsWith('server/src/routes/') || file(path) === 'server/src/app';

/** The floor of the server: what every area may use, and which uses no area. */
export const SERVER_FLOOR = ['config', 'configValues', 'configServiceAccount', 'configServices', 'db', 'lib', 'jobs', 'integrations'].map(
  (p) => `server/src/${p}`,
);
/** The server's parts above the areas: HTTP, composition, start-up, the command line. */
export const SERVER_TOP = ['routes', 'app', 'server', 'schedules', 'openapi', 'cli'].map((p) => `server/src/${p}`);
const TYPES = 'server/src/types';
/** An area module: any other part of server/src (clients, push, segments, broadcasts, bulk, revenue, outcomes, clientData, …). */
export const isServerArea = (part: string | null): boolean =>
  !!part && part.startsWith('server/src/') && !SERVER_FLOOR.includes(part) && !SERVER_TOP.includes(part) && part !== TYPES;

/** The imports the structure forbids, and why (docs/architecture.md repeats them). */
export interface ImportRule {
  name: string;
  why: string;
  broken: (edge: ImportEdge) => boolean;
}

export const RULES: ImportRule[] = [
  {
    name: 'contract imports nothing of ours',
    why: 'both halves import the contract; if it imported one of them, the console bundle would pull in server code (or the reverse)',
    broken: (e) => e.from.startsWith('contract/') && !e.to.startsWith('contract/'),
  },
  {
    name: 'the console never imports the server',
    why: 'the console is a browser bundle; it talks to the server over HTTP only, through the contract',
    broken: (e) => inConsole(e.from) && inServer(e.to),
  },
  {
    name: 'the server never imports the console',
    why: 'the server serves the built console as files; React code has no place in the Node process',
    broken: (e) => inServer(e.from) && inConsole(e.to),
  },
  {
    name: 'server/src/db and server/src/integrations import no routes',
    why: 'storage and outside-service adapters sit below the HTTP layer; jobs, CLIs and tests use them without a Fastify app',
    broken: (e) => (e.from.startsWith('server/src/db/') || e.from.startsWith('server/src/integrations/')) && inRoutes(e.to),
  },
  {
    name: 'the floor (config, db, lib, jobs, integrations) imports no area and nothing above',
    why: 'every area builds on the floor; a floor that reached up would tie each area to the others and to HTTP',
    broken: (e) => SERVER_FLOOR.includes(e.fromPart ?? '') && (isServerArea(e.toPart) || SERVER_TOP.includes(e.toPart ?? '')),
  },
  {
    name: 'an area imports no routes, app, server, schedules, openapi or cli',
    why: 'areas are called by routes, jobs and CLIs alike; one that knew the HTTP layer or the app could not be used without them',
    broken: (e) => isServerArea(e.fromPart) && SERVER_TOP.includes(e.toPart ?? ''),
  },
  {
    name: 'staff accounts (server/src/staff) import nothing from sign-in (server/src/auth)',
    why: 'sign-in finds, creates and re-roles accounts through staff/; staff/ reaching back into auth/ would make the two one circle',
    broken: (e) => e.fromPart === 'server/src/staff' && e.toPart === 'server/src/auth',
  },
  {
    name: 'routes reach the database through an area module',
    why: 'a route is its schemas, its access and one call to its area; queries live with the area that owns the tables',
    broken: (e) => e.fromPart === 'server/src/routes' && e.toPart === 'server/src/db',
  },
  {
    name: 'adapters are built in app.ts (or a CLI), never in a route or an area',
    why: 'an area or a route talks to an outside service through app.mindbody, app.vimeo …, so tests and the sandbox can stand in for it',
    broken: (e) =>
      e.toPart === 'server/src/integrations' &&
      !e.typeOnly &&
      /\bcreate[A-Z]\w*/.test(e.names.replace(/\btype\s+\w+/g, '')) &&
      !['server/src/integrations', 'server/src/app', 'server/src/cli'].includes(e.fromPart ?? ''),
  },
  {
    name: 'only server.ts imports app.ts; nothing imports server.ts or a CLI',
    why: 'app.ts composes everything and server.ts starts it: code below them that imported them would start or build the whole server',
    broken: (e) =>
      e.from.startsWith('server/') &&
      ((e.toPart === 'server/src/app' && e.fromPart !== 'server/src/server' && e.fromPart !== 'server/src/app') ||
        ((e.toPart === 'server/src/server' || e.toPart === 'server/src/cli') && e.fromPart !== e.toPart)),
  },
  {
    name: 'types.ts imports types only',
    why: 'it describes what app.database, app.push … are; a value imported there would load the areas into every file that names a Clock',
    broken: (e) => e.fromPart === TYPES && !e.typeOnly,
  },
  {
    name: 'in the console, only main.tsx imports App.tsx',
    why: 'App is the top of the console (its table of contents); an area or the layout importing it would be a circle through everything',
    broken: (e) => e.toPart === 'src/App' && e.fromPart !== 'src/main',
  },
];

export function violations(edges: ImportEdge[]): { rule: string; from: string; to: string }[] {
  const out: { rule: string; from: string; to: string }[] = [];
  for (const rule of RULES) for (const e of edges) if (rule.broken(e)) out.push({ rule: rule.name, from: e.from, to: e.to });
  return out;
}

export function markdownTable(graph: Map<string, string[]>): string {
  const short = (part: string) => part.replace(/^server\/src\//, 's/').replace(/^src\//, 'c/');
  const lines = ['| part | imports |', '|---|---|'];
  for (const [part, targets] of graph) {
    lines.push(`| \`${part}\` | ${targets.length ? targets.map(short).join(', ') : '—'} |`);
  }
  return lines.join('\n');
}

export const ARCHITECTURE_DOC = join(ROOT, 'docs', 'architecture.md');
const START = '<!-- import-graph:start -->';
const END = '<!-- import-graph:end -->';

/** The table docs/architecture.md holds between its markers (null when the markers are missing). */
export function documentedTable(text: string): string | null {
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  return a === -1 || b === -1 ? null : text.slice(a + START.length, b).trim();
}

export function tableBlock(graph: Map<string, string[]>): string {
  return `${markdownTable(graph)}\n\n(\`s/\` = \`server/src/\`, \`c/\` = \`src/\`; drawn by \`node --import tsx scripts/import-graph.ts\`)`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const edges = collectImports();
  const graph = partGraph(edges);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(Object.fromEntries(graph), null, 2));
  } else if (process.argv.includes('--write')) {
    const text = readFileSync(ARCHITECTURE_DOC, 'utf8');
    if (documentedTable(text) === null) throw new Error(`${ARCHITECTURE_DOC} has no ${START} … ${END} markers`);
    const a = text.indexOf(START) + START.length;
    writeFileSync(ARCHITECTURE_DOC, `${text.slice(0, a)}\n${tableBlock(graph)}\n${text.slice(text.indexOf(END))}`);
    console.log(`Wrote the import table into ${relative(ROOT, ARCHITECTURE_DOC)}`);
  } else {
    console.log(tableBlock(graph));
  }
  const broken = violations(edges);
  for (const v of broken) console.error(`forbidden import (${v.rule}): ${v.from} -> ${v.to}`);
  process.exitCode = broken.length ? 1 : 0;
}
