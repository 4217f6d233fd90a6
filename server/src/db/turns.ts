import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite runs each statement synchronously on the server's one thread, and hands its lock to the
 * next waiting statement in a microtask. Under load the waiting statements then run back to back
 * inside the microtask checkpoint that follows every I/O callback: each accepted connection and
 * each socket read waited for all queued database work first. Connections opened during a busy
 * spell were accepted a few per second and timed out (issue 11's 200-connection run).
 *
 * Here every statement (and every transaction, as one unit) starts in its own event-loop turn, in
 * arrival order, so sockets are served between statements: the database work is the same, but it
 * no longer shuts the door on new requests.
 */
export function takeTurns(pglite: PGlite): PGlite {
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(work);
    last = turn.catch(() => undefined);
    return turn;
  };
  const query = pglite.query.bind(pglite);
  const exec = pglite.exec.bind(pglite);
  const transaction = pglite.transaction.bind(pglite);
  return Object.assign(pglite, {
    query: ((...args: Parameters<PGlite['query']>) => inTurn(() => query(...args))) as PGlite['query'],
    exec: ((...args: Parameters<PGlite['exec']>) => inTurn(() => exec(...args))) as PGlite['exec'],
    transaction: ((...args: Parameters<PGlite['transaction']>) => inTurn(() => transaction(...args))) as PGlite['transaction'],
  });
}
