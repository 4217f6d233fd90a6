import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARCHITECTURE_DOC, collectImports, documentedTable, importCircles, partGraph, partOf, tableBlock, violations } from '../../scripts/import-graph';

// docs/architecture.md draws the structure from the imports; this holds the code to its forbidden
// imports and the document to the code.

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway repository with the given files, for the collector to read. */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'import-graph-'));
  scratch.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('import rules', () => {
  it('names the part of a file', () => {
    expect(partOf('contract/ids.ts')).toBe('contract');
    expect(partOf('src/clients/show/ClientSummary.tsx')).toBe('src/clients');
    expect(partOf('src/App.tsx')).toBe('src/App');
    expect(partOf('server/src/routes/audit.ts')).toBe('server/src/routes');
    expect(partOf('server/src/app.ts')).toBe('server/src/app');
    expect(partOf('server/seed/demo.ts')).toBe('server/seed');
    expect(partOf('node_modules/zod/index.js')).toBeNull();
  });

  it('catches each forbidden import, in every form an import is written', () => {
    const root = repo({
      'contract/a.ts': "import {\n  openDatabase,\n  type Database,\n} from '../server/src/db/client';\n",
      'contract/b.ts': "export { x } from '../src/clients/format';\n",
      'src/clients/x.tsx': "const m = await import('../../server/src/config');\n",
      'server/src/lib/y.ts': "import type { X } from '../../../src/App';\n",
      'server/src/db/z.ts': "import '../routes/index';\n",
      'server/src/integrations/w/v.ts': "import { buildApp } from '../../app';\n",
      // Quoted in comments, not imports.
      'contract/c.ts': "// import x from '../server/src/app';\n/* import y from '../src/App'; */\nexport const c = 1;\n",
      // Allowed.
      'server/src/routes/ok.ts': "import { c } from '@contract/c';\nimport { z } from '../db/z';\n",
    });
    const found = violations(collectImports(root)).map((v) => `${v.from} -> ${v.to}`);
    expect(found.sort()).toEqual(
      [
        'contract/a.ts -> server/src/db/client',
        'contract/b.ts -> src/clients/format',
        'src/clients/x.tsx -> server/src/config',
        'server/src/lib/y.ts -> src/App',
        'server/src/db/z.ts -> server/src/routes/index',
        'server/src/integrations/w/v.ts -> server/src/app',
      ].sort(),
    );
  });

  it('finds no forbidden import in the code', () => {
    const edges = collectImports();
    expect(edges.length).toBeGreaterThan(500);
    expect(violations(edges)).toEqual([]);
  });

  it('finds each import circle among files, through index files and dynamic imports, not through type-only imports', () => {
    const root = repo({
      // A circle of three through a folder's index and a dynamic import.
      'src/a/index.ts': "import { b } from '../b/b';\nexport const a = 1;\n",
      'src/b/b.tsx': "export { c } from '../c';\nexport const b = 2;\n",
      'src/c.ts': "export const c = () => import('./a');\n",
      // A file importing itself.
      'src/self.ts': "import './self';\n",
      // Only types run back: erased when compiled, no circle.
      'src/d.ts': "import type { E } from './e';\nimport { type F, type G } from './e';\nexport const d = 1;\n",
      'src/e.ts': "import { d } from './d';\nexport type E = 1;\nexport type F = 2;\nexport type G = 3;\n",
      // One name of the import is a value: it runs, so this is a circle.
      'src/f.ts': "import { type H, g } from './g';\nexport const f = 1;\n",
      'src/g.ts': "import { f } from './f';\nexport const g = 1;\nexport type H = 1;\n",
      // Outside src/: not the console's.
      'server/src/x.ts': "import './y';\n",
      'server/src/y.ts': "import './x';\n",
    });
    expect(importCircles(collectImports(root))).toEqual([['src/a/index.ts', 'src/b/b.tsx', 'src/c.ts'], ['src/f.ts', 'src/g.ts'], ['src/self.ts']]);
  });

  it('finds no import circle in the console (src/): the areas registry is read by App.tsx alone', () => {
    const edges = collectImports();
    expect(importCircles(edges)).toEqual([]);
    const readers = edges.filter((e) => e.from.startsWith('src/') && e.to === 'src/areas' && !e.typeOnly).map((e) => e.from);
    expect(readers).toEqual(['src/App.tsx']);
  });

  it('docs/architecture.md shows the imports as they are (refresh: node --import tsx scripts/import-graph.ts --write)', () => {
    const documented = documentedTable(readFileSync(ARCHITECTURE_DOC, 'utf8'));
    expect(documented).toBe(tableBlock(partGraph(collectImports())));
  });
});
