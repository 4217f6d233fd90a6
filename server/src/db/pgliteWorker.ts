import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { preparedStatements } from './pglitePrepared';
import { ARRAY_TYPES_SQL, toWireError, type Ready, type Reply, type Request, type WireQueryOptions, type WorkerData } from './pgliteProtocol';

/**
 * The worker thread that owns PGlite (started by pgliteThread.ts). Statements run here, one at a
 * time in arrival order (PGlite's own lock), while the server's thread parses HTTP, checks
 * schemas and writes answers: the two use both cores. Parameterised statements run prepared
 * (pglitePrepared.ts); scripts (exec) go to PGlite as they are.
 */
const port = parentPort!;
const { pgdata, startFrom, sharedBuffers } = workerData as WorkerData;

function send(message: Reply | Ready, transfer?: ArrayBuffer[]) {
  try {
    port.postMessage(message, transfer);
  } catch (error) {
    // A value that cannot cross the thread (DataCloneError) fails its own request, not the worker.
    if ('id' in message) port.postMessage({ id: message.id, ok: false, error: toWireError(error) });
    else throw error;
  }
}
const answer = (id: number, work: Promise<unknown>) =>
  work.then(
    (value) => send({ id, ok: true, value }),
    (error) => send({ id, ok: false, error: toWireError(error) }),
  );

/** Parsers cannot cross a thread; the statements here only need the parameter types, and rows are made on the server's thread. */
function queryOptions(options: WireQueryOptions | undefined): QueryOptions | undefined {
  return options?.paramTypes ? { paramTypes: options.paramTypes } : undefined;
}

/** Open transactions by the id the server's thread gave them; `finish` settles PGlite's callback. */
const transactions = new Map<number, { tx: Transaction; finish: (commit: boolean, replyTo: number) => void }>();
const ROLLBACK = Symbol('rollback');

function begin(id: number, txId: number) {
  let started = false;
  let endId = -1;
  pglite
    .transaction(
      (tx) =>
        new Promise<void>((resolve, reject) => {
          started = true;
          transactions.set(txId, {
            tx,
            finish(commit, replyTo) {
              endId = replyTo;
              transactions.delete(txId);
              if (commit) resolve();
              else reject(ROLLBACK);
            },
          });
          send({ id, ok: true });
        }),
    )
    .then(
      () => send({ id: endId, ok: true }),
      (error) => {
        transactions.delete(txId);
        if (error === ROLLBACK) send({ id: endId, ok: true });
        else send({ id: started ? endId : id, ok: false, error: toWireError(error) });
      },
    );
}

function inTransaction(txId: number): Transaction {
  const open = transactions.get(txId);
  if (!open) throw new Error('Transaction is closed');
  return open.tx;
}

function handle(request: Request) {
  switch (request.op) {
    case 'query': {
      const options = queryOptions(request.options);
      if (request.tx !== undefined) inTransaction(request.tx);
      const run =
        request.tx === undefined
          ? prepared.query(request.sql, request.params, options, request.options?.reusePlan === true)
          : prepared.queryInTransaction(request.sql, request.params, options);
      // The backend's messages, moved (not copied) to the server's thread, which makes the rows.
      return run.then(
        (raw) => send({ id: request.id, ok: true, value: raw }, [raw.buffer as ArrayBuffer]),
        (error) => send({ id: request.id, ok: false, error: toWireError(error) }),
      );
    }
    case 'exec': {
      const run = request.tx === undefined ? pglite.exec(request.sql) : inTransaction(request.tx).exec(request.sql);
      return answer(
        request.id,
        run.finally(prepared.forget).then(() => undefined),
      );
    }
    case 'begin':
      return begin(request.id, request.tx);
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) return send({ id: request.id, ok: false, error: toWireError(new Error('Transaction is closed')) });
      return open.finish(request.commit, request.id);
    }
    case 'close':
      // PGlite runs with fsync off; a checkpoint leaves the files consistent for the next open.
      return answer(
        request.id,
        (async () => {
          if (request.checkpoint) await pglite.exec('CHECKPOINT');
          await pglite.close();
        })(),
      );
  }
}

let pglite: PGlite;
let prepared: ReturnType<typeof preparedStatements>;
try {
  // A dump skips initdb, most of an in-memory start (tests start hundreds of databases).
  const loadDataDir = startFrom ? new Blob([fs.readFileSync(startFrom)]) : undefined;
  // PGlite's 128MB of shared buffers is its only cache between statements: at a million clients a
  // burst of list reads pushed the search tables' pages out, and searches read them back for a while.
  const startParams = sharedBuffers ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] : undefined;
  pglite = await PGlite.create(pgdata, { extensions: { pg_trgm }, ...(loadDataDir ? { loadDataDir } : {}), ...(startParams ? { startParams } : {}) });
  prepared = preparedStatements(pglite);
  // PGlite runs with fsync off, so the OS decides when files reach the disk. What keeps an
  // acknowledged write through a crash of this process (SIGKILL, OOM) is that every commit's WAL is
  // written to the OS before the commit returns: synchronous_commit must stay on (it is PGlite's
  // default; set here so no later setting can turn it off). tests/server/crash.test.ts checks it.
  // Surviving power loss or an OS crash needs fsync, i.e. PostgreSQL (DATABASE_URL).
  // Prepared statements (pglitePrepared.ts) are planned for their values at every run, as
  // node-postgres's unnamed statements are on PostgreSQL: a plan made once for any value (a
  // "generic" plan) can be far slower for some values (a date range, a name prefix).
  try {
    await pglite.exec('SET synchronous_commit TO on; SET plan_cache_mode TO force_custom_plan');
  } catch (error) {
    await pglite.close().catch(() => undefined);
    throw error;
  }
  port.on('message', (request: Request) => {
    try {
      void handle(request);
    } catch (error) {
      send({ id: request.id, ok: false, error: toWireError(error) });
    }
  });
  // PGlite's parsers for array types, made from this catalogue when it opened: the server's thread makes the same.
  const { rows: arrayTypes } = await pglite.query<{ oid: number; typarray: number }>(ARRAY_TYPES_SQL);
  send({ ready: true, arrayTypes: arrayTypes.map(({ oid, typarray }) => [typarray, oid] as [number, number]) });
} catch (error) {
  send({ ready: false, error: toWireError(error) });
}
