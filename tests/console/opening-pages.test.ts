import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchPath } from 'react-router-dom';
import { OPENING_PAGES, openingPageChunk, openingPageModules } from '@contract/openingPages';
import { consoleAreas } from '../../src/areas';

// The server announces these pages' code in the page it sends (server/src/routes/openingPages.ts):
// a path the console no longer has, or a module that moved, would announce nothing or the wrong code.
describe('the pages a console opens on', () => {
  const routes = consoleAreas().flatMap((area) => area.routes ?? []);

  it('are routes of the console that fetch their code ahead, and their modules exist', () => {
    for (const { path, module } of OPENING_PAGES) {
      expect(fs.existsSync(module), module).toBe(true);
      if (path === '/') continue; // react-admin's dashboard route
      const route = routes.find((candidate) => matchPath(path, candidate.path));
      expect(route, path).toBeDefined();
      expect(route!.preload, path).toBeTypeOf('function');
    }
  });

  it('each have a chunk name of their own, which the server finds them by in the build manifest', () => {
    const modules = openingPageModules();
    expect(modules).toEqual(['src/dashboard/Dashboard.tsx', 'src/clients/ClientListPage.tsx', 'src/clients/ClientShow.tsx']);
    expect(new Set(modules.map(openingPageChunk)).size).toBe(modules.length);
    expect(openingPageChunk('src/clients/ClientListPage.tsx')).toBe('page-ClientListPage');
  });
});
