import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { resultMaker } from './pgliteResults';
import { fromWireError, type Ready, type Reply, type Unnumbered, type WireQueryOptions, type WorkerData } from './pgliteProtocol';

/** Every call after the worker thread that owns PGlite died (HTTP callers get a 503; the server restarts). */
export class DatabaseStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseStoppedError';
  }
}

/** PGlite's query options, and whether the statement's plan may be reused (client.ts, StatementOptions). */
export type ThreadQueryOptions = QueryOptions & { reusePlan?: boolean };

/** A transaction's statements: they run in order with nothing else in between (PGlite is one session). */
export interface PgliteTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<void>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** The part of PGlite's API the server uses. */
export interface PgliteClient {
  query<T>(sql: string, params?: unknown[], options?: ThreadQueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<void>;
  transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T>;
}

export interface PgliteThread {
  client: PgliteClient;
  /** The thread itself (tests end it to see what a crash does). */
  worker: Worker;
  /** Checkpoints (for a data directory), closes PGlite and ends the thread. */
  close(checkpoint: boolean): Promise<void>;
}

/** Parameters are serialised in the worker, with PGlite's serializers; rows are made here, with the caller's parsers too. */
function wireOptions(options: ThreadQueryOptions | undefined): WireQueryOptions | undefined {
  if (!options) return undefined;
  if (options.serializers || options.blob || options.onNotice) throw new Error('serializers, blob and onNotice do not reach the PGlite worker thread');
  if (!options.paramTypes && !options.reusePlan) return undefined;
  return { ...(options.paramTypes ? { paramTypes: options.paramTypes } : {}), ...(options.reusePlan ? { reusePlan: true } : {}) };
}

/** Starts the worker thread, opens PGlite in it (`pgdata` undefined: in memory) and waits until it is ready. */
export async function startPgliteThread(
  pgdata: string | undefined,
  onFailure: (error: DatabaseStoppedError) => void,
  startFrom?: string,
  sharedBuffers?: string,
): Promise<PgliteThread> {
  const worker = new Worker(new URL('./pgliteWorker.boot.mjs', import.meta.url), { workerData: { pgdata, startFrom, sharedBuffers } satisfies WorkerData });
  let onReady: (ready: Ready) => void = () => undefined;
  let toResults: ReturnType<typeof resultMaker> | undefined;
  let onError: (error: Error) => void = () => undefined;
  let onExit: (code: number) => void = () => undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onReady = (ready) => {
        if (!ready.ready) return reject(fromWireError(ready.error));
        toResults = resultMaker(ready.arrayTypes);
        resolve();
      };
      onError = reject;
      onExit = (code) => reject(new Error(`the PGlite worker thread exited (code ${code}) before the database opened`));
      worker.once('message', onReady).once('error', onError).once('exit', onExit);
    });
  } catch (error) {
    await worker.terminate();
    throw error;
  } finally {
    worker.off('message', onReady).off('error', onError).off('exit', onExit);
  }

  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let nextTransaction = 1;
  let stopped: Error | undefined;
  let closing = false;
  let crash: Error | undefined;

  // The thread keeps the process alive only while it owes an answer: an unclosed database does not
  // hold a finished command-line tool open, and a pending query is never abandoned by an exit.
  worker.unref();
  const call = (request: Unnumbered): Promise<unknown> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      try {
        worker.postMessage({ ...request, id });
      } catch (error) {
        settle(id);
        reject(error as Error);
      }
    });
  };
  const settle = (id: number) => {
    const waiting = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return waiting;
  };
  worker.on('message', (reply: Reply) => {
    const waiting = settle(reply.id);
    if (!waiting) return;
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(fromWireError(reply.error));
  });
  worker.on('error', (error) => {
    crash = error;
  });
  worker.on('exit', (code) => {
    stopped = closing
      ? new Error('PGlite is closed')
      : new DatabaseStoppedError(
          `The embedded database stopped: its worker thread ${crash ? `failed (${crash.message})` : `exited (code ${code})`}. The server must restart.`,
        );
    for (const id of [...pending.keys()]) settle(id)!.reject(stopped);
    if (!closing) onFailure(stopped as DatabaseStoppedError);
  });

  const makeResults = toResults!;
  const query = async <T>(tx: number | undefined, sql: string, params?: unknown[], options?: ThreadQueryOptions): Promise<Results<T>> =>
    makeResults<T>((await call({ op: 'query', tx, sql, params: params?.map(wellFormed), options: wireOptions(options) })) as Uint8Array, options);
  const exec = async (tx: number | undefined, sql: string) => {
    await call({ op: 'exec', tx, sql });
  };

  const client: PgliteClient = {
    query: (sql, params, options) => query(undefined, sql, params, options),
    exec: (sql) => exec(undefined, sql),
    async transaction(callback) {
      const id = nextTransaction++;
      await call({ op: 'begin', tx: id });
      let closed = false;
      const end = (commit: boolean) => {
        closed = true;
        return call({ op: 'end', tx: id, commit });
      };
      const checkOpen = () => {
        if (closed) throw new Error('Transaction is closed');
      };
      const tx: PgliteTransaction = {
        query: async (sql, params, options) => (checkOpen(), query(id, sql, params, options)),
        exec: async (sql) => (checkOpen(), exec(id, sql)),
        rollback: async () => {
          checkOpen();
          await end(false);
        },
        get closed() {
          return closed;
        },
      };
      let result;
      try {
        result = await callback(tx);
      } catch (error) {
        if (!closed) await end(false).catch(() => undefined);
        throw error;
      }
      if (!closed) await end(true);
      return result;
    },
  };

  return {
    client,
    worker,
    async close(checkpoint) {
      if (stopped) return;
      closing = true;
      try {
        await call({ op: 'close', checkpoint });
      } finally {
        await worker.terminate();
      }
    },
  };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A parameter's text with each unpaired surrogate as U+FFFD, as node-postgres sends it (Buffer's
 * UTF-8): PGlite's own encoder miscounts the bytes of a lone high surrogate followed by another
 * character, and PostgreSQL then refuses the statement as invalid UTF-8. Arrays are walked (their
 * elements are encoded one by one); objects go as JSON, whose text escapes surrogates.
 */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\ufffd');
  return Array.isArray(value) ? value.map(wellFormed) : value;
}
