import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { createAlgoliaClient } from '../../server/src/integrations/algolia/client';
import { AlgoliaError } from '../../server/src/integrations/algolia';
import { pushSearchChanges, rebuildAlgolia } from '../../server/src/search/push';
import { testDatabases } from '../support/databases';
import { createTestApp } from '../support/server';
import { insertClient } from '../support/clientFixtures';
import { startAlgoliaIndexStandIn } from '../support/algoliaStandIn';

interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: { requests?: { action: string; body: Record<string, unknown> }[]; operation?: string; destination?: string };
}

/** A local stand-in for Algolia's write hosts, answering as scripted. */
async function startAlgoliaStandIn(reply: (seen: Seen, index: number) => { status?: number; headers?: Record<string, string>; body?: unknown } = () => ({})) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const request = { method: req.method!, path: req.url!, headers: req.headers, body: text ? JSON.parse(text) : {} };
      seen.push(request);
      const answer = reply(request, seen.length - 1);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? { taskID: seen.length, objectIDs: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

const waits: number[] = [];
const recordSleep = async (ms: number) => {
  waits.push(ms);
};

describe('the Algolia write client against a local stand-in', () => {
  beforeEach(() => {
    waits.length = 0;
  });

  it("sends one batch to /1/indexes/{index}/batch with the admin key in Algolia's headers", async () => {
    const algolia = await startAlgoliaStandIn();
    try {
      const client = createAlgoliaClient({ appId: 'APPID', adminKey: 'admin-key-123', hosts: [algolia.url], sleep: recordSleep });
      await client.batch('Customers', [
        { action: 'updateObject', body: { objectID: '7', first_name: 'Ava' } },
        { action: 'deleteObject', body: { objectID: '8' } },
      ]);
      expect(algolia.seen).toHaveLength(1);
      expect(algolia.seen[0]).toMatchObject({
        method: 'POST',
        path: '/1/indexes/Customers/batch',
        headers: { 'x-algolia-application-id': 'APPID', 'x-algolia-api-key': 'admin-key-123', 'content-type': 'application/json' },
        body: {
          requests: [
            { action: 'updateObject', body: { objectID: '7', first_name: 'Ava' } },
            { action: 'deleteObject', body: { objectID: '8' } },
          ],
        },
      });
    } finally {
      await algolia.close();
    }
  });

  it('moves to the next host after a 5xx, backing off, and waits out a 429 for its Retry-After', async () => {
    const first = await startAlgoliaStandIn(() => ({ status: 503, body: { message: 'busy', status: 503 } }));
    const second = await startAlgoliaStandIn((_, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '3' }, body: { message: 'slow down', status: 429 } } : {},
    );
    try {
      const client = createAlgoliaClient({
        appId: 'APPID',
        adminKey: 'k'.repeat(12),
        hosts: [first.url, second.url],
        sleep: recordSleep,
        random: () => 0.5,
        backoffMs: 100,
      });
      await client.batch('Videos', [{ action: 'deleteObject', body: { objectID: '1' } }]);
      // 503 on host 1, 429 on host 2, then host 1 (503 again), then host 2 succeeds.
      expect(first.seen).toHaveLength(2);
      expect(second.seen).toHaveLength(2);
      expect(waits[0]).toBe(100);
      expect(waits[1]).toBeGreaterThanOrEqual(2000);
      expect(waits[2]).toBe(400);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('fails at once on any other 4xx, naming the reason, and gives up after its attempts on 5xx', async () => {
    const refusing = await startAlgoliaStandIn(() => ({ status: 403, body: { message: 'Invalid Application-ID or API key', status: 403 } }));
    const broken = await startAlgoliaStandIn(() => ({ status: 500, body: { message: 'oops', status: 500 } }));
    try {
      const client = createAlgoliaClient({ appId: 'APPID', adminKey: 'wrong-key-1', hosts: [refusing.url], sleep: recordSleep });
      await expect(client.batch('Customers', [{ action: 'deleteObject', body: { objectID: '1' } }])).rejects.toThrow(
        new AlgoliaError('Algolia refused /1/indexes/Customers/batch (403): Invalid Application-ID or API key', 403),
      );
      expect(refusing.seen).toHaveLength(1);
      const failing = createAlgoliaClient({ appId: 'APPID', adminKey: 'admin-key-1', hosts: [broken.url], sleep: recordSleep, maxAttempts: 3 });
      await expect(failing.batch('Customers', [{ action: 'deleteObject', body: { objectID: '1' } }])).rejects.toThrow(
        /unreachable after 3 attempts: 500: oops/,
      );
      expect(broken.seen).toHaveLength(3);
    } finally {
      await refusing.close();
      await broken.close();
    }
  });
});

describe.each(testDatabases())('keeping hosted Algolia in step on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let algolia: Awaited<ReturnType<typeof startAlgoliaStandIn>>;

  beforeAll(async () => {
    database = await open();
    algolia = await startAlgoliaStandIn();
    const searchIndexer = createAlgoliaClient({ appId: 'APPID', adminKey: 'admin-key-123', hosts: [algolia.url], sleep: recordSleep });
    app = await createTestApp(database, {
      env: { ALGOLIA_APP_ID: 'APPID', ALGOLIA_ADMIN_KEY: 'admin-key-123', ALGOLIA_SEARCH_KEY: 'search-key-123' },
      searchIndexer,
    });
  });
  afterAll(async () => {
    await app.close();
    await algolia.close();
    await database.close();
  });
  beforeEach(() => {
    algolia.seen.length = 0;
  });

  const batches = () => algolia.seen.filter((s) => s.path.endsWith('/batch')).map((s) => ({ index: s.path.split('/')[3], requests: s.body.requests }));

  it('pushes new, renamed and deleted customers and changed videos in batches, and nothing for other changes', async () => {
    const id = await insertClient(database, { first_name: 'Maya', last_name: 'Lopez', email_address: 'maya@studio.test', mb_client_id: '100777' });
    await database.query("UPDATE clients SET first_name = 'Mayra' WHERE id = $1", [id]);
    const [video] = await database.query<{ id: number }>(
      "INSERT INTO videos (title, instructor, thumbnail_url) VALUES ('Core Burn', 'Sam', 'https://i.vimeocdn.com/1.jpg') RETURNING id",
    );
    expect(await pushSearchChanges(app.database, app.searchIndexer)).toEqual({ pushed: 2 });
    expect(batches()).toEqual([
      {
        index: 'Customers',
        requests: [
          {
            action: 'updateObject',
            body: {
              objectID: String(id),
              first_name: 'Mayra',
              last_name: 'Lopez',
              email_address: 'maya@studio.test',
              mb_client_id: '100777',
              related_pg_id: id,
              title: 'Mayra Lopez',
            },
          },
        ],
      },
      {
        index: 'Videos',
        requests: [
          {
            action: 'updateObject',
            body: {
              objectID: String(video!.id),
              related_pg_id: video!.id,
              title: 'Core Burn',
              instructor: 'Sam',
              thumbnail_url: 'https://i.vimeocdn.com/1.jpg',
            },
          },
        ],
      },
    ]);

    algolia.seen.length = 0;
    await database.query('UPDATE clients SET vod_access_level = 3 WHERE id = $1', [id]);
    expect(await pushSearchChanges(app.database, app.searchIndexer)).toEqual({ pushed: 0 });
    await database.query('DELETE FROM clients WHERE id = $1', [id]);
    await database.query('UPDATE videos SET deleted_at = now() WHERE id = $1', [video!.id]);
    await pushSearchChanges(app.database, app.searchIndexer);
    expect(batches()).toEqual([
      { index: 'Customers', requests: [{ action: 'deleteObject', body: { objectID: String(id) } }] },
      { index: 'Videos', requests: [{ action: 'deleteObject', body: { objectID: String(video!.id) } }] },
    ]);
  });

  it('keeps a change queued when Algolia refuses it, and pushes it on the next run', async () => {
    const down = createAlgoliaClient({
      appId: 'APPID',
      adminKey: 'admin-key-123',
      hosts: ['http://127.0.0.1:9'],
      sleep: recordSleep,
      maxAttempts: 2,
      timeoutMs: 500,
    });
    const id = await insertClient(database, { first_name: 'Kai', last_name: 'Nakamura', email_address: 'kai@studio.test' });
    await expect(pushSearchChanges(app.database, down)).rejects.toThrow(/unreachable/);
    await pushSearchChanges(app.database, app.searchIndexer);
    expect(batches()[0]!.requests![0]).toMatchObject({ action: 'updateObject', body: { objectID: String(id), title: 'Kai Nakamura' } });
  });

  it('rebuilds both indexes aside and moves them over the live ones (npm run search:reindex)', async () => {
    const hosted = await startAlgoliaIndexStandIn();
    try {
      const indexer = createAlgoliaClient({ appId: 'APPID', adminKey: 'admin-key-123', hosts: [hosted.url], sleep: recordSleep });
      const count = Number((await database.query<{ n: number }>('SELECT count(*)::int AS n FROM clients'))[0]!.n);
      await rebuildAlgolia(app.database, indexer);
      const customerRecords = hosted.requests.filter((r) => r.path === '/1/indexes/Customers_reindex/batch').flatMap((r) => r.body.requests as unknown[]);
      expect(customerRecords).toHaveLength(count);
      const steps = hosted.requests.filter((r) => r.method === 'DELETE' || r.path.endsWith('/operation')).map((r) => [r.method, r.path, r.body]);
      expect(steps).toEqual([
        ['DELETE', '/1/indexes/Customers_reindex', {}],
        ['POST', '/1/indexes/Customers/operation', { operation: 'copy', destination: 'Customers_reindex', scope: ['settings', 'synonyms', 'rules'] }],
        ['POST', '/1/indexes/Customers_reindex/operation', { operation: 'move', destination: 'Customers' }],
        ['DELETE', '/1/indexes/Videos_reindex', {}],
        ['POST', '/1/indexes/Videos/operation', { operation: 'copy', destination: 'Videos_reindex', scope: ['settings', 'synonyms', 'rules'] }],
        ['POST', '/1/indexes/Videos_reindex/operation', { operation: 'move', destination: 'Videos' }],
      ]);
    } finally {
      await hosted.close();
    }
  });

  it("keeps the live indexes' settings, synonyms and rules through a reindex (a move would replace them)", async () => {
    const liveCustomers = {
      settings: { searchableAttributes: ['title', 'email_address', 'mb_client_id'], customRanking: ['desc(related_pg_id)'], typoTolerance: 'min' },
      synonyms: [{ objectID: 'syn-1', type: 'synonym', synonyms: ['liz', 'elizabeth'] }],
      rules: [{ objectID: 'rule-1', conditions: [{ pattern: 'vip', anchoring: 'contains' }], consequence: { params: { filters: 'vod_access_level:3' } } }],
      records: new Map([['999999', { objectID: '999999', title: 'Gone Client' }]]),
    };
    const liveVideos = { settings: { searchableAttributes: ['title', 'instructor'] }, synonyms: [], rules: [] };
    const hosted = await startAlgoliaIndexStandIn({
      Customers: liveCustomers,
      Videos: liveVideos,
      Customers_reindex: { records: new Map([['1', { objectID: '1', title: 'Left over' }]]) },
    });
    try {
      const indexer = createAlgoliaClient({ appId: 'APPID', adminKey: 'admin-key-123', hosts: [hosted.url], sleep: recordSleep });
      const id = await insertClient(database, { first_name: 'Noor', last_name: 'Haddad', email_address: 'noor@studio.test' });
      const count = Number((await database.query<{ n: number }>('SELECT count(*)::int AS n FROM clients'))[0]!.n);

      await rebuildAlgolia(app.database, indexer);

      const customers = hosted.indexes.get('Customers')!;
      expect(customers.settings).toEqual(liveCustomers.settings);
      expect(customers.synonyms).toEqual(liveCustomers.synonyms);
      expect(customers.rules).toEqual(liveCustomers.rules);
      expect(hosted.indexes.get('Videos')!.settings).toEqual(liveVideos.settings);
      // The records are the database's, nothing left from the old index or an earlier, broken reindex.
      expect(customers.records.size).toBe(count);
      expect(customers.records.get(String(id))).toMatchObject({ title: 'Noor Haddad' });
      expect(customers.records.has('999999')).toBe(false);
      expect(hosted.indexes.has('Customers_reindex')).toBe(false);
    } finally {
      await hosted.close();
    }
  });

  it('rebuilds an index that does not exist yet (first reindex) without copying anything', async () => {
    const hosted = await startAlgoliaIndexStandIn();
    try {
      const indexer = createAlgoliaClient({ appId: 'APPID', adminKey: 'admin-key-123', hosts: [hosted.url], sleep: recordSleep });
      await rebuildAlgolia(app.database, indexer);
      const count = Number((await database.query<{ n: number }>('SELECT count(*)::int AS n FROM clients'))[0]!.n);
      expect(hosted.indexes.get('Customers')!.records.size).toBe(count);
      expect(hosted.indexes.get('Customers')!.settings).toEqual({});
    } finally {
      await hosted.close();
    }
  });

  it("serves hosted Algolia's application id and search-only key to the console, never the admin key", async () => {
    const { runtimeConfig } = await import('../../server/src/routes/console');
    expect(runtimeConfig(app)).toEqual({ algolia: { appId: 'APPID', searchKey: 'search-key-123', host: '' }, time_zone: 'UTC' });
  });
});
