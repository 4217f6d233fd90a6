import type { Database } from '../../server/src/db/client';
import type { BenchClient } from '../lib/client';
import type { Figure } from '../lib/figures';

export interface BenchContext {
  client: BenchClient;
  quick: boolean;
  /** CI's smoke run (quick is set too): every figure once over a tiny data set, so the harness cannot rot. */
  smoke?: boolean;
  /** Sequential samples per latency figure. */
  samples: number;
  /** Seconds per load run. */
  loadSeconds: number;
  /** The server process: its CPU time per request is what an idle core would take (PGlite runs inside it). */
  serverPid?: number;
}

export type BenchCase = (context: BenchContext) => Promise<Figure[]>;

/** A group measured in-process on the data set's database, with the server stopped. */
export type DirectCase = (database: Database, context: { quick: boolean; smoke?: boolean }) => Promise<Figure[]>;
