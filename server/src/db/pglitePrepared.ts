import { messages, parse, protocol, type PGlite, type QueryOptions } from '@electric-sql/pglite';

const { serialize } = protocol;

/** PostgreSQL's ErrorResponse message type ('E'). */
const ERROR_RESPONSE = 0x45;

/** Whether the backend's messages hold an ErrorResponse: each is a type byte and a length that counts itself. */
function holdsError(raw: Uint8Array): boolean {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  for (let offset = 0; offset + 5 <= raw.length; offset += 1 + view.getUint32(offset + 1)) {
    if (raw[offset] === ERROR_RESPONSE) return true;
  }
  return false;
}

/** PostgreSQL's CommandComplete message type ('C'). */
const COMMAND_COMPLETE = 0x43;

/** The messages after the first CommandComplete: what follows a statement run before the caller's. */
function afterFirstStatement(raw: Uint8Array): Uint8Array {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  for (let offset = 0; offset + 5 <= raw.length;) {
    const next = offset + 1 + view.getUint32(offset + 1);
    if (raw[offset] === COMMAND_COMPLETE) return raw.subarray(next);
    offset = next;
  }
  return raw;
}

/**
 * Run before a statement whose plan may be reused, in the same implicit transaction (one Sync):
 * PostgreSQL's own choice ('auto': custom plans for five runs, then the generic plan when no worse)
 * for that statement only. Every other statement keeps force_custom_plan (pgliteWorker.ts).
 */
const REUSE_PLAN_SQL = "SELECT set_config('plan_cache_mode', 'auto', true)";

/** The DatabaseError among the backend's messages. */
function errorIn(raw: Uint8Array): Error {
  let found: Error | undefined;
  new protocol.Parser().parse(raw, (message) => {
    if (!found && message instanceof messages.DatabaseError) found = message;
  });
  return found ?? new Error('PostgreSQL answered an error that could not be read');
}

/** Distinct statement texts kept prepared; the least recently used one is closed beyond this. */
export const PREPARED_LIMIT = 256;

const join = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

/** What PGlite's own query() adds to an error: the statement that failed. */
function withStatement(error: unknown, sql: string, params: unknown[], options: QueryOptions | undefined) {
  if (error instanceof messages.DatabaseError) Object.assign(error, { query: sql, params, queryOptions: options });
  return error;
}

const CHANGES_TABLES = /^\s*(create|alter|drop|do|call)\b/i;

// A cached statement the server no longer has (26000), or whose result columns changed under a
// `SELECT *` after DDL (0A000): prepare it again.
const isStale = (error: unknown) =>
  error instanceof messages.DatabaseError &&
  (error.code === '26000' || (error.code === '0A000' && /cached plan must not change result type/.test(error.message)));

/**
 * PGlite's query() makes six calls into PostgreSQL per statement (parse, describe, bind, describe,
 * execute, sync) and parses and analyses the text every time. Here each distinct statement text
 * becomes a named prepared statement, parsed and described once; every run is then one call (bind,
 * describe, execute, sync): the client-details read takes ~0.35 ms of CPU instead of ~0.47 ms.
 * Parameters are serialised with PGlite's own serializers. A run answers PostgreSQL's messages as
 * they came, unparsed: this thread is the one that runs every statement, so making rows (and
 * copying them to the server's thread as objects) is left to the server's thread
 * (pgliteResults.ts), with PGlite's own parsers, so callers see the same values. Errors are
 * parsed here, as PGlite's query() throws them. The plan is still made for the values of each run
 * (plan_cache_mode, set in pgliteWorker.ts).
 */
export function preparedStatements(pglite: PGlite) {
  const cache = new Map<string, { name: string; paramTypes: number[] }>();
  /** Statements to close with the next Parse. */
  const forgotten: string[] = [];
  let counter = 0;
  const forget = () => {
    for (const { name } of cache.values()) forgotten.push(name);
    cache.clear();
  };

  async function statementFor(sql: string, options: QueryOptions | undefined) {
    const key = options?.paramTypes ? `${options.paramTypes.join(',')}\u0000${sql}` : sql;
    const cached = cache.get(key);
    if (cached) {
      // Most recently used last: the first entry is the one to close.
      cache.delete(key);
      cache.set(key, cached);
      return { key, statement: cached };
    }
    for (const [oldKey, old] of cache) {
      if (cache.size < PREPARED_LIMIT) break;
      cache.delete(oldKey);
      forgotten.push(old.name);
    }
    const closes = forgotten.splice(0).map((old) => serialize.close({ type: 'S', name: old }));
    const name = `sc_${++counter}`;
    const described = await pglite.execProtocol(
      join([...closes, serialize.parse({ name, text: sql, types: options?.paramTypes }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(described.messages) };
    cache.set(key, statement);
    return { key, statement };
  }

  async function run(
    sql: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
    reusePlan: boolean,
    retry: boolean,
  ): Promise<Uint8Array> {
    let key: string | undefined;
    try {
      // Only outside a transaction: set_config(…, true) lasts until the transaction ends, which
      // here is this call's Sync; inside one it would reach the statements after this one.
      const withReuse = reusePlan && !inTransaction && !pglite.isInTransaction();
      const reuse = withReuse ? await statementFor(REUSE_PLAN_SQL, undefined) : undefined;
      const prepared = await statementFor(sql, options);
      key = prepared.key;
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const serializer = pglite.serializers[prepared.statement.paramTypes[i]!];
        return serializer ? serializer(param) : String(param);
      });
      const chunks: Uint8Array[] = [];
      await pglite.execProtocolRawStream(
        join([
          ...(reuse ? [serialize.bind({ statement: reuse.statement.name, values: [] }), serialize.execute({})] : []),
          serialize.bind({ statement: prepared.statement.name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        // As PGlite's query(): its files are brought up to date after a statement outside a transaction.
        // The chunks are views of PGlite's memory, reused by the next call: copied.
        { syncToFs: !inTransaction, onRawData: (chunk) => void chunks.push(chunk.slice()) },
      );
      const raw = chunks.length === 1 ? chunks[0]! : join(chunks);
      if (holdsError(raw)) throw errorIn(raw);
      // A statement that may change tables (their columns, what `*` means) in this same session:
      // prepare everything again rather than meet a changed result type inside a transaction.
      if (CHANGES_TABLES.test(sql)) forget();
      return reuse ? afterFirstStatement(raw) : raw;
    } catch (error) {
      if (key !== undefined && isStale(error)) {
        cache.delete(key);
        // Inside a transaction the error has aborted it; outside, the statement simply runs again.
        if (retry && !inTransaction) return run(sql, params, options, inTransaction, reusePlan, false);
      }
      throw withStatement(error, sql, params, options);
    }
  }

  return {
    /** After a script (migrations, DDL in tests, a reindex): statements are prepared again. */
    forget,
    /** As pglite.query(), answering the backend's messages: waits for any transaction and any other statement. */
    async query(sql: string, params: unknown[] = [], options?: QueryOptions, reusePlan = false): Promise<Uint8Array> {
      await pglite._checkReady();
      return pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(() => run(sql, params, options, false, reusePlan, true)));
    },
    /** As a transaction's tx.query(): the caller holds PGlite's transaction. */
    queryInTransaction(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Uint8Array> {
      return pglite._runExclusiveQuery(() => run(sql, params, options, true, false, true));
    },
  };
}
