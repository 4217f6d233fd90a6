import { clientsCase } from './clients';
import { consoleCase } from './console';
import { searchCase } from './search';
import { statsCase } from './stats';
import type { BenchCase } from './types';
import { videosCase } from './videos';

/** Each group of figures; feature areas add theirs here. */
export const benchCases: Record<string, BenchCase> = {
  console: consoleCase,
  stats: statsCase,
  videos: videosCase,
  clients: clientsCase,
  search: searchCase,
};
