import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One index as Algolia keeps it: records plus the configuration a move or copy carries along. */
export interface StandInIndex {
  records: Map<string, Record<string, unknown>>;
  settings: Record<string, unknown>;
  synonyms: Record<string, unknown>[];
  rules: Record<string, unknown>[];
}

const SCOPES = ['settings', 'synonyms', 'rules'] as const;

const emptyIndex = (): StandInIndex => ({ records: new Map(), settings: {}, synonyms: [], rules: [] });

/**
 * A hosted-Algolia stand-in that models the write API as documented (Algolia's "Copy or move an
 * index" page and the operationIndex reference): `move` replaces the destination entirely, settings,
 * synonyms and rules included, and deletes the source; `copy` does the same without deleting the
 * source; `copy` with a `scope` copies only those parts and leaves the destination's records alone.
 * Operations answer `{ taskID, updatedAt }` and `GET /1/indexes/{index}/task/{taskID}` reports
 * `notPublished` once, then `published`, as a real task does while it runs. `DELETE /1/indexes/{index}`
 * removes an index with its configuration.
 */
export async function startAlgoliaIndexStandIn(initial: Record<string, Partial<StandInIndex>> = {}) {
  const indexes = new Map<string, StandInIndex>(Object.entries(initial).map(([name, index]) => [name, { ...emptyIndex(), ...index }]));
  const tasks = new Map<number, { index: string; polls: number }>();
  const requests: { method: string; path: string; body: Record<string, unknown> }[] = [];
  let nextTask = 1;

  const task = (index: string) => {
    const taskID = nextTask++;
    tasks.set(taskID, { index, polls: 0 });
    return { taskID, updatedAt: '2026-11-25T12:00:00.000Z' };
  };
  const copyIndex = (index: StandInIndex): StandInIndex => ({
    records: new Map(index.records),
    settings: structuredClone(index.settings),
    synonyms: structuredClone(index.synonyms),
    rules: structuredClone(index.rules),
  });

  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
      const send = (status: number, answer: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      };
      const whole = /^\/1\/indexes\/([^/]+)$/.exec(url.pathname);
      if (whole && req.method === 'DELETE') {
        const name = decodeURIComponent(whole[1]!);
        indexes.delete(name);
        return send(200, { taskID: task(name).taskID, deletedAt: '2026-11-25T12:00:00.000Z' });
      }
      const match = /^\/1\/indexes\/([^/]+)\/(batch|operation|task\/(\d+))$/.exec(url.pathname);
      if (!match) return send(404, { message: 'Not found', status: 404 });
      const name = decodeURIComponent(match[1]!);
      if (match[2] === 'batch' && req.method === 'POST') {
        const index = indexes.get(name) ?? emptyIndex();
        indexes.set(name, index);
        for (const request of body.requests as { action: string; body: { objectID: string } }[]) {
          if (request.action === 'updateObject') index.records.set(request.body.objectID, request.body);
          else if (request.action === 'deleteObject') index.records.delete(request.body.objectID);
        }
        return send(200, { ...task(name), objectIDs: [] });
      }
      if (match[2] === 'operation' && req.method === 'POST') {
        const source = indexes.get(name);
        const destination = String(body.destination);
        const scope = body.scope as string[] | undefined;
        if (body.operation === 'move') {
          // The documented move ignores scope: the destination becomes the source, whole.
          if (source) indexes.set(destination, source);
          else indexes.delete(destination);
          indexes.delete(name);
        } else if (body.operation === 'copy') {
          if (!source) indexes.delete(destination);
          else if (!scope) indexes.set(destination, copyIndex(source));
          else {
            const target = indexes.get(destination) ?? emptyIndex();
            for (const part of SCOPES) if (scope.includes(part)) target[part] = structuredClone(source[part]) as never;
            indexes.set(destination, target);
          }
        } else {
          return send(400, { message: `Invalid operation: ${String(body.operation)}`, status: 400 });
        }
        return send(200, task(name));
      }
      if (match[3] && req.method === 'GET') {
        const found = tasks.get(Number(match[3]));
        if (!found || found.index !== name) return send(404, { message: 'Task does not exist', status: 404 });
        found.polls++;
        return send(200, { status: found.polls > 1 ? 'published' : 'notPublished', pendingTask: found.polls <= 1 });
      }
      return send(405, { message: 'Method not allowed', status: 405 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    indexes,
    requests,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}
