import { messages } from '@electric-sql/pglite';

/**
 * The messages between the server's thread and the worker thread that owns PGlite
 * (pgliteThread.ts, pgliteWorker.ts). A statement's answer crosses as PostgreSQL's own messages
 * (bytes, moved rather than copied) and becomes rows on the server's thread with PGlite's parsers
 * (pgliteResults.ts): the worker, which runs every statement, does not spend its time making
 * objects and cloning them. Everything else crosses by structured clone.
 */

/** What the worker needs of PGlite's query options: rows are made on the server's thread, with the rest. */
export interface WireQueryOptions {
  paramTypes?: number[];
  /** Outside a transaction: PostgreSQL may reuse a plan made once (plan_cache_mode 'auto' for this statement). */
  reusePlan?: boolean;
}

/** PGlite's own query for the array types it makes parsers for when it opens (its _initArrayTypes). */
export const ARRAY_TYPES_SQL = `SELECT b.oid, b.typarray
  FROM pg_catalog.pg_type a
  LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
  WHERE a.typcategory = 'A'
  GROUP BY b.oid, b.typarray
  ORDER BY b.oid`;

export type Request =
  | { id: number; op: 'query'; tx?: number; sql: string; params?: unknown[]; options?: WireQueryOptions }
  | { id: number; op: 'exec'; tx?: number; sql: string }
  | { id: number; op: 'begin'; tx: number }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close'; checkpoint: boolean };

/** A request before the thread's side numbers it. */
export type Unnumbered<R = Request> = R extends unknown ? Omit<R, 'id'> : never;

export type Reply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: WireError };

/**
 * The first message of the worker: PGlite is open, or why it is not. A statement's answer (a
 * query's `value`) is PostgreSQL's messages as bytes; `arrayTypes` (array type OID, element type
 * OID) lets the server's thread parse arrays as PGlite would.
 */
export type Ready = { ready: true; arrayTypes: Array<[number, number]> } | { ready: false; error: WireError };

export interface WorkerData {
  /** undefined: in memory. */
  pgdata: string | undefined;
  /** In memory only: a file written by PGlite's dumpDataDir to start from instead of an empty cluster. */
  startFrom?: string;
  /** PostgreSQL's shared_buffers ('512MB'); PGlite's default when absent. */
  sharedBuffers?: string;
}

/** An error's own fields that can be cloned: PostgreSQL's code, detail, constraint, position … */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number | boolean | null>;
}

export function toWireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: WireError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean | null;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/**
 * Rebuilds the error on this side: PostgreSQL's errors as PGlite's own DatabaseError (as the
 * in-thread PGlite throws them), so `error.code` and friends read the same. The stack is the
 * worker's, which names the statement's place in PGlite; the `query` field names the statement.
 */
export function fromWireError(wire: WireError): Error {
  const error =
    typeof wire.fields.code === 'string' && typeof wire.fields.severity === 'string'
      ? new messages.DatabaseError(wire.message, Number(wire.fields.length ?? 0), 'error')
      : new Error(wire.message);
  Object.assign(error, wire.fields);
  (error as { name: string }).name = wire.name;
  if (wire.stack) error.stack = wire.stack;
  return error;
}
