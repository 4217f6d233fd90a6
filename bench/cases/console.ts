import { launchBenchBrowser, measureConsole } from '../lib/browser';
import { measureOpeningPages, sidebarPaths } from '../lib/openingPages';
import type { BenchCase } from './types';

export const consoleCase: BenchCase = async ({ client, quick, smoke }) => {
  const figures = await measureConsole(client, quick ? 2 : 15);
  // Every page the sidebar opens (and '/'), cold: the JavaScript fetched before its first row. A smoke
  // run (CI) opens the first three only: each page is a cold browser context, up to 8 s for a page that
  // shows no row, and what rots is the measuring, not the list.
  const browser = await launchBenchBrowser();
  const pages = await (async () => {
    try {
      const paths = [...new Set(['/', ...(await sidebarPaths(browser, client))])];
      return await measureOpeningPages(browser, client, smoke ? paths.slice(0, 3) : paths);
    } finally {
      await browser.close();
    }
  })();
  return [
    { group: 'console', name: 'initial JavaScript (gzipped)', unit: 'KB', value: figures.initialJsKb, load: figures.load.initialJs },
    // What the browser downloads (brotli) and the cold client list, p50.
    {
      group: 'console',
      name: 'initial JavaScript as transferred (brotli)',
      unit: 'KB',
      target: { kind: 'max', value: 200 },
      value: figures.initialJsTransferredKb,
      load: figures.load.initialJs,
    },
    {
      group: 'console',
      name: 'first rendered client list, cold (p50)',
      unit: 'ms',
      target: { kind: 'max', value: 1000 },
      value: figures.firstClientListMs.p50,
      detail: { ...figures.firstClientListMs },
      load: figures.load.clientList,
    },
    { group: 'console', name: 'script files fetched for the cold client list', unit: 'count', value: figures.clientListScripts, load: figures.load.clientList },
    {
      group: 'console',
      name: 'first rendered dashboard, cold (p50)',
      unit: 'ms',
      value: figures.firstDashboardMs.p50,
      detail: { ...figures.firstDashboardMs },
      load: figures.load.dashboard,
    },
    ...pages.map((page) => ({
      group: 'console',
      name: `JavaScript before the first row of ${page.path} (brotli)${page.until === 'quiet' ? ', no row: until the network was quiet' : ''}`,
      unit: 'KB' as const,
      target: { kind: 'max' as const, value: 200 },
      value: page.kb,
      load: page.load,
    })),
  ];
};
