import type { BenchClient } from '../lib/client';
import type { Figure } from '../lib/figures';

export interface BenchContext {
  client: BenchClient;
  quick: boolean;
  /** Sequential samples per latency figure. */
  samples: number;
  /** Seconds per load run. */
  loadSeconds: number;
  /** The server process: its CPU time per request is what an idle core would take (PGlite runs inside it). */
  serverPid?: number;
}

export type BenchCase = (context: BenchContext) => Promise<Figure[]>;
