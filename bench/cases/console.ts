import { measureConsole } from '../lib/browser';
import type { BenchCase } from './types';

export const consoleCase: BenchCase = async ({ client, quick }) => {
  const figures = await measureConsole(client, quick ? 2 : 15);
  return [
    { group: 'console', name: 'initial JavaScript (gzipped)', unit: 'KB', value: figures.initialJsKb },
    // What the browser downloads (brotli) and the cold client list, p50.
    {
      group: 'console',
      name: 'initial JavaScript as transferred (brotli)',
      unit: 'KB',
      target: { kind: 'max', value: 200 },
      value: figures.initialJsTransferredKb,
    },
    {
      group: 'console',
      name: 'first rendered client list, cold (p50)',
      unit: 'ms',
      target: { kind: 'max', value: 1000 },
      value: figures.firstClientListMs.p50,
      detail: { ...figures.firstClientListMs },
    },
    { group: 'console', name: 'script files fetched for the cold client list', unit: 'count', value: figures.clientListScripts },
    {
      group: 'console',
      name: 'first rendered dashboard, cold (p50)',
      unit: 'ms',
      value: figures.firstDashboardMs.p50,
      detail: { ...figures.firstDashboardMs },
    },
  ];
};
