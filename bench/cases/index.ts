import { broadcastCase } from './broadcast';
import { clientsCase } from './clients';
import { client360Case } from './client360';
import { loadCase } from './load';
import { outcomesCase } from './outcomes';
import { reachCase } from './reach';
import { revenueCase } from './revenue';
import { consoleCase } from './console';
import { searchCase } from './search';
import { searchCompareCase } from './searchCompare';
import { searchWidgetCase } from './searchWidget';
import { statsCase } from './stats';
import { throughputCase } from './throughput';
import type { BenchCase, DirectCase } from './types';
import { videosCase } from './videos';
import { writesCase } from './writes';

/** Each group of figures; feature areas add theirs here. */
export const benchCases: Record<string, BenchCase> = {
  console: consoleCase,
  stats: statsCase,
  videos: videosCase,
  clients: clientsCase,
  client360: client360Case,
  reach: reachCase,
  outcomes: outcomesCase,
  broadcast: broadcastCase,
  throughput: throughputCase,
  writes: writesCase,
  load: loadCase,
  search: searchCase,
  'search-widget': searchWidgetCase,
  revenue: revenueCase,
};

/** Groups that read the database itself, after its server has stopped (PGlite's directory is the server's while it runs). */
export const directCases: Record<string, DirectCase> = {
  'search-compare': searchCompareCase,
};
