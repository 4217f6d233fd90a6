import { messages } from '@electric-sql/pglite';

/**
 * The messages between the server's thread and the worker thread that owns PGlite
 * (pgliteThread.ts, pgliteWorker.ts). Everything crosses by structured clone: rows keep their
 * JavaScript types (Date, bigint, parsed json, Uint8Array) exactly as PGlite made them.
 */

/** What PGlite's query options can carry across a thread (functions cannot). */
export interface WireQueryOptions {
  rowMode?: 'array' | 'object';
  /** Type OIDs returned as PostgreSQL's text instead of parsed (drizzle's "leave as is" parsers). */
  rawTypes?: number[];
  paramTypes?: number[];
}

export type Request =
  | { id: number; op: 'query'; tx?: number; sql: string; params?: unknown[]; options?: WireQueryOptions }
  | { id: number; op: 'exec'; tx?: number; sql: string }
  | { id: number; op: 'begin'; tx: number }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close'; checkpoint: boolean };

/** A request before the thread's side numbers it. */
export type Unnumbered<R = Request> = R extends unknown ? Omit<R, 'id'> : never;

export type Reply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: WireError };

/** The first message of the worker: PGlite is open, or why it is not. */
export type Ready = { ready: true } | { ready: false; error: WireError };

export interface WorkerData {
  /** undefined: in memory. */
  pgdata: string | undefined;
  /** In memory only: a file written by PGlite's dumpDataDir to start from instead of an empty cluster. */
  startFrom?: string;
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
