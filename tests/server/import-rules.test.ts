import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ARCHITECTURE_DOC,
  collectImports,
  documentedTable,
  importCircles,
  isTypeOnly,
  partGraph,
  partOf,
  RULES,
  tableBlock,
  violations,
} from '../../scripts/import-graph';

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
      'server/src/routes/ok.ts': "import { c } from '@contract/c';\nimport { z } from '../clients/z';\n",
    });
    const found = [...new Set(violations(collectImports(root)).map((v) => `${v.from} -> ${v.to}`))];
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

  it('tells imports of types only from imports of values', () => {
    expect(isTypeOnly("import type { Clock } from '../types'")).toBe(true);
    expect(isTypeOnly("import { type Clock, type Db } from '../types'")).toBe(true);
    expect(isTypeOnly("export type { Clock } from '../types'")).toBe(true);
    expect(isTypeOnly("import { type Clock, systemClock } from '../app'")).toBe(false);
    expect(isTypeOnly("import { Clock } from '../types'")).toBe(false);
    expect(isTypeOnly("import '../types'")).toBe(false);
  });

  // Each rule of docs/architecture.md, broken on purpose by one file's import, and kept by a
  // neighbouring one: a rule added without a case here fails the last assertion.
  const brokenOnPurpose: Record<string, { broken: Record<string, string>; kept: Record<string, string> }> = {
    'contract imports nothing of ours': {
      broken: { 'contract/a.ts': "import { x } from '../bench/run';\n" },
      kept: { 'contract/b.ts': "import { ids } from './ids';\n" },
    },
    'the console never imports the server': {
      broken: { 'src/clients/a.ts': "import { x } from '../../server/src/lib/errors';\n" },
      kept: { 'src/clients/b.ts': "import { Client } from '@contract/clients';\n" },
    },
    'the server never imports the console': {
      broken: { 'server/src/clients/a.ts': "import { format } from '../../../src/clients/format';\n" },
      kept: { 'server/src/clients/b.ts': "import { Client } from '@contract/clients';\n" },
    },
    'server/src/db and server/src/integrations import no routes': {
      broken: { 'server/src/db/a.ts': "import routes from '../routes/index';\n" },
      kept: { 'server/src/db/b.ts': "import { tz } from './schemaColumns';\n" },
    },
    'the floor (config, db, lib, jobs, integrations) imports no area and nothing above': {
      // The two arrows this rule was written for: an adapter borrowing an area's helper, and the queue an area's setting.
      broken: {
        'server/src/integrations/mindbody/mapping.ts': "import { localToInstant } from '../../automation/time';\n",
        'server/src/jobs/index.ts': "import { retentionSettings } from '../clientData/retention';\n",
        'server/src/lib/a.ts': "import { scheduledJobs } from '../schedules';\n",
      },
      kept: {
        'server/src/integrations/mindbody/b.ts': "import { localToInstant } from '../../lib/localTime';\nimport type { Clock } from '../../types';\n",
        'server/src/integrations/vimeo/sandbox.ts': "import { catalogue } from '../../../seed/catalogue';\n",
      },
    },
    'an area imports no routes, app, server, schedules, openapi or cli': {
      broken: {
        'server/src/segments/a.ts': "import { listClients } from '../routes/clients';\n",
        'server/src/broadcasts/b.ts': "import { buildApp } from '../app';\n",
      },
      kept: { 'server/src/segments/c.ts': "import { firstClients } from '../clients/lists';\nimport { recordAudit } from '../audit/record';\n" },
    },
    'staff accounts (server/src/staff) import nothing from sign-in (server/src/auth)': {
      broken: { 'server/src/staff/a.ts': "import type { SessionStore } from '../auth/sessions';\n" },
      kept: { 'server/src/auth/b.ts': "import { findStaffByEmail } from '../staff/queries';\n" },
    },
    'routes reach the database through an area module': {
      broken: { 'server/src/routes/health.ts': "import { databaseHealth } from '../db/health';\n" },
      kept: { 'server/src/routes/ok.ts': "import { databaseHealth } from '../health/liveness';\n" },
    },
    'adapters are built in app.ts (or a CLI), never in a route or an area': {
      broken: {
        'server/src/routes/vimeoSync.ts': "import { createVimeoCatalogue } from '../integrations/vimeo';\n",
        'server/src/videos/a.ts': "import { VimeoError, createVimeoCatalogue } from '../integrations/vimeo/index';\n",
      },
      kept: {
        'server/src/app.ts': "import { createVimeoCatalogue, type VimeoCatalogue } from './integrations/vimeo';\n",
        'server/src/cli/a.ts': "import { createMindbody } from '../integrations/mindbody';\n",
        'server/src/videos/b.ts': "import { VimeoError, type VimeoCatalogue } from '../integrations/vimeo';\n",
      },
    },
    'only server.ts imports app.ts; nothing imports server.ts or a CLI': {
      broken: {
        'server/src/routes/a.ts': "import { systemClock } from '../app';\n",
        'server/src/lib/b.ts': "import { main } from '../cli/seed';\n",
      },
      kept: { 'server/src/server.ts': "import { buildApp } from './app';\n", 'bench/a.ts': "import { buildApp } from '../server/src/app';\n" },
    },
    'types.ts imports types only': {
      broken: { 'server/src/types.ts': "import { createPushService } from './push/service';\n" },
      kept: { 'server/src/types.ts': "import type { PushService } from './push/service';\nimport { type Db } from './db/client';\n" },
    },
    'in the console, only main.tsx imports App.tsx': {
      broken: { 'src/layout/a.tsx': "import { App } from '../App';\n" },
      kept: { 'src/main.tsx': "import { App } from './App';\n" },
    },
  };

  for (const [rule, { broken, kept }] of Object.entries(brokenOnPurpose)) {
    it(`fails when broken on purpose: ${rule}`, () => {
      const keptOnly = violations(collectImports(repo(kept)));
      expect(keptOnly).toEqual([]);
      const found = violations(collectImports(repo({ ...kept, ...broken })));
      const files = Object.keys(broken).map((path) => path.replace(/\.tsx?$/, ''));
      // Every broken file is caught by this rule (and maybe by others too).
      for (const path of files) expect(found.filter((v) => v.rule === rule).map((v) => v.from.replace(/\.tsx?$/, ''))).toContain(path);
    });
  }

  it('has a broken-on-purpose case for every rule', () => {
    expect(Object.keys(brokenOnPurpose).sort()).toEqual(RULES.map((rule) => rule.name).sort());
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
