import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { EXPORT_SECTIONS, NOT_EXPORTED } from '../../server/src/clientData/exportQueries';
import { createRevenueCatSandbox } from '../../server/src/integrations/revenuecat/rest';
import { createSandboxIndexer } from '../../server/src/integrations/algolia/sandbox';
import { createMindbodyClient } from '../../server/src/integrations/mindbody/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { directStats } from '../support/statsDirect';
import { clientInEverySection, PERSON, resetClientData } from '../support/clientDataFixtures';
import { zipEntries } from '../support/zipEntries';
import { rawClient, STAND_IN, startMindbodyStandIn } from '../support/mindbodyStandIn';
import { asDelivered, INITIAL_PURCHASE_SAMPLE } from '../support/revenuecatSamples';
import { refreshRevenue } from '../../server/src/revenue/keep';

const NOW = new Date('2026-11-22T12:00:00Z');
const SEARCH_KEY = 'search-only-key-for-tests';

describe.each(testDatabases())('a client’s data rights on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const clock = testClock(NOW);
  const revenuecat = createRevenueCatSandbox();
  const indexer = createSandboxIndexer();

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock, searchIndexer: indexer, revenuecat, env: { SEARCH_APP_ID: 'STUDIOTEST', SEARCH_API_KEY: SEARCH_KEY } });
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    clock.set(NOW);
    await resetClientData(database);
    cookie = await signIn(app);
  });

  const exportOf = async (clientId: number, format = 'json') =>
    app.inject({ method: 'GET', url: `/api/admin/v1/clients/${clientId}/export?format=${format}`, headers: { cookie } });
  const erase = (clientId: number, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/api/admin/v1/clients/${clientId}/erase`, headers: { cookie }, payload });
  const search = async (query: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/1/indexes/*/queries',
      headers: { cookie, 'content-type': 'application/json', 'x-algolia-application-id': 'STUDIOTEST', 'x-algolia-api-key': SEARCH_KEY },
      payload: { requests: [{ indexName: 'Customers', query, hitsPerPage: 20 }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { results: { hits: { objectID: string }[] }[] }).results[0]!.hits;
  };
  const dashboard = async () => {
    const response = await app.inject({ method: 'GET', url: '/api/stats/v1', headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().result as { subscribers: number; daily_plays: number; most_popular: string | null };
  };

  it('every table that refers to a client is exported, or listed as not exported with a reason', async () => {
    const rows = await database.query<{ table_name: string }>(
      `SELECT DISTINCT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema AND t.table_type = 'BASE TABLE'
       WHERE c.table_schema = current_schema() AND c.column_name = 'client_id'
       UNION
       SELECT DISTINCT tc.table_name FROM information_schema.table_constraints tc
       JOIN information_schema.constraint_column_usage u ON u.constraint_name = tc.constraint_name AND u.table_schema = tc.table_schema
       WHERE tc.constraint_type = 'FOREIGN KEY' AND u.table_name = 'clients' AND tc.table_schema = current_schema()`,
    );
    const covered = new Set([...EXPORT_SECTIONS.map((section) => section.table), ...Object.keys(NOT_EXPORTED)]);
    const missing = rows.map((row) => row.table_name).filter((table) => !covered.has(table));
    expect(missing, 'add these tables to EXPORT_SECTIONS (server/src/clientData/exportQueries.ts) or NOT_EXPORTED').toEqual([]);
    expect(rows.length).toBeGreaterThan(15);
  });

  it('exports every section as JSON and as a zip of CSVs, tokens redacted, audited and counted as a handled access request', async () => {
    const { clientId } = await clientInEverySection(database, NOW);
    const response = await exportOf(clientId);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="client-${clientId}-data-2026-11-22.json"`);
    const document = response.json() as { client_id: number; sections: Record<string, Record<string, unknown>[]> };
    expect(document.client_id).toBe(clientId);
    for (const section of EXPORT_SECTIONS) expect(document.sections[section.name]?.length, section.name).toBeGreaterThan(0);
    expect(document.sections.profile![0]).toMatchObject({ first_name: 'Zelda', email_address: PERSON.email_address });
    expect(document.sections.streams).toHaveLength(2);
    expect(document.sections.streams![0]).toMatchObject({ video_title: 'Zelda-free yoga' });
    expect(document.sections.devices![0]).toMatchObject({ firebase_token_new: '…123456', firebase_token_current: '…fedcba', app_version: '3.2.1' });
    expect(response.body).not.toContain('fcm-token-zelda');
    // The export itself: in the audit log, and answering the open access request.
    const audit = await database.query<{ action: string }>(`SELECT action FROM audit_log WHERE client_id = $1 AND action = 'client.export'`, [clientId]);
    expect(audit).toHaveLength(1);
    const [request] = await database.query<{ handled_by: string | null }>(`SELECT handled_by FROM data_requests WHERE client_id = $1 AND kind = 'access'`, [
      clientId,
    ]);
    expect(request!.handled_by).toBe('coach@studio.test');

    const zip = await exportOf(clientId, 'zip');
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = zipEntries(zip.rawPayload);
    expect([...files.keys()].sort()).toEqual(EXPORT_SECTIONS.map((section) => `${section.name}.csv`).sort());
    expect(files.get('profile.csv')!.split('\r\n')[0]).toContain('first_name');
    expect(files.get('profile.csv')).toContain('Quartermaine');
    expect(files.get('notes.csv')).toContain('Zelda prefers mornings');
    expect(files.get('devices.csv')).not.toContain('fcm-token-zelda');
  });

  it('streams a client with many rows in batches, every row once', async () => {
    const { clientId, videoId } = await clientInEverySection(database, NOW);
    await database.query(
      `INSERT INTO video_views (client_id, video_id, viewed_at) SELECT $1, $2, $3::timestamptz - interval '10 days' - n * interval '1 second' FROM generate_series(1, 12000) AS n`,
      [clientId, videoId, NOW.toISOString()],
    );
    const response = await exportOf(clientId);
    const streams = (response.json() as { sections: { streams: { id: number }[] } }).sections.streams;
    expect(streams).toHaveLength(12002);
    expect(new Set(streams.map((row) => row.id)).size).toBe(12002);
  });

  it('erases: search, audit, RevenueCat, Algolia, the client page; the dashboard does not move', async () => {
    const { clientId } = await clientInEverySection(database, NOW);
    const expected = await directStats(database, NOW);
    const before = await dashboard();
    expect(before.subscribers).toBe(expected.subscribers);
    expect(before.daily_plays).toBe(expected.daily_plays);
    expect((await search('Quartermaine')).map((hit) => hit.objectID)).toContain(String(clientId));

    const response = await erase(clientId, { reason: 'Asked by e-mail on 20 Nov', confirm_email: '  zelda.q@EXAMPLE.test ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ client_id: clientId, label: `erased client #${clientId}`, reason: 'Asked by e-mail on 20 Nov' });

    const [row] = await database.query<Record<string, unknown>>('SELECT * FROM clients WHERE id = $1', [clientId]);
    expect(row).toMatchObject({ first_name: null, last_name: null, email_address: null, mb_client_id: null, revenue_cat_user_id: null, mb_unique_id: null });
    expect(row!.erased_at).not.toBeNull();
    for (const table of ['favorites', 'video_views', 'client_notes', 'client_tags', 'client_contacts', 'debug_records', 'mindbody_visits', 'contracts']) {
      const [count] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE client_id = $1`, [clientId]);
      expect(count!.n, table).toBe(0);
    }
    const [push] = await database.query<{ title: string; body: string }>('SELECT title, body FROM pushes WHERE client_id = $1', [clientId]);
    expect(push).toEqual({ title: '(erased)', body: '(erased)' });

    for (const word of ['Zelda', 'Quartermaine', 'zelda.q@example.test', 'zelda.q', '700001']) expect(await search(word), word).toEqual([]);
    const [vocab] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM search_vocab WHERE word IN ('zelda', 'quartermaine')`);
    expect(vocab!.n).toBe(0);

    const audit = await database.query<{ before: unknown; after: unknown }>('SELECT before, after FROM audit_log WHERE client_id = $1', [clientId]);
    expect(audit.length).toBeGreaterThan(1);
    const auditText = JSON.stringify(audit).toLowerCase();
    expect(auditText).not.toContain('zelda');
    expect(auditText).not.toContain('quartermaine');
    expect(auditText).toContain(`erased client #${clientId}`);

    // The database part is done; the outside services are told by the job.
    expect(revenuecat.deleted).not.toContain(PERSON.revenue_cat_user_id);
    await app.jobs.runDue();
    expect(revenuecat.deleted).toContain(PERSON.revenue_cat_user_id);
    expect(
      indexer.batches.some(
        (batch) =>
          batch.indexName === 'Customers' && batch.changes.some((change) => change.action === 'deleteObject' && change.body.objectID === String(clientId)),
      ),
    ).toBe(true);
    const status = await app.inject({ method: 'GET', url: `/api/admin/v1/clients/${clientId}/erasure`, headers: { cookie } });
    expect(status.json().erasure.outside.every((task: { state: string }) => task.state === 'done')).toBe(true);
    const [leftover] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM erasure_outside WHERE client_id = $1 AND target <> ''`, [clientId]);
    expect(leftover!.n).toBe(0);

    const after = await dashboard();
    expect(after.subscribers).toBe(expected.subscribers);
    expect(after.daily_plays).toBe(expected.daily_plays);
    expect(after.most_popular).toBe(expected.most_popular);

    // The client page shows the erased state; an export has nothing to give.
    const page = await app.inject({ method: 'GET', url: `/api/client/v1/client-details/${clientId}`, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(JSON.stringify(page.json())).not.toContain('Zelda');
    const gone = await exportOf(clientId);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toMatch(/was erased on 2026-11-22/);
  });

  it('a RevenueCat event for the erased person is kept only as its id and changes nothing', async () => {
    const { clientId } = await clientInEverySection(database, NOW);
    expect((await erase(clientId, { reason: 'Art. 17 request', confirm_email: PERSON.email_address })).statusCode).toBe(200);
    const { storeEvent } = await import('../../server/src/revenuecat/events');
    await storeEvent(
      database,
      { api_version: '1.0', event: { id: 'evt-after-erase', type: 'RENEWAL', app_user_id: PERSON.revenue_cat_user_id, aliases: [] } },
      NOW,
    );
    const [event] = await database.query<Record<string, unknown>>(`SELECT app_user_id, state, body FROM revenuecat_events WHERE event_id = 'evt-after-erase'`);
    expect(event).toMatchObject({ app_user_id: null, state: 'ignored', body: { erased: true } });
  });

  it('the Revenue area keeps counting an erased client: recomputing their figures (a backfill) changes nothing', async () => {
    const { clientId } = await clientInEverySection(database, NOW);
    const purchase = asDelivered(INITIAL_PURCHASE_SAMPLE, { id: 'evt-zelda-1', eventAt: new Date(NOW.getTime() - 5 * 86_400_000) });
    await database.query(`UPDATE revenuecat_events SET body = $2 WHERE event_id = 'evt-zelda-1' AND client_id = $1`, [clientId, JSON.stringify(purchase)]);
    await refreshRevenue(database, [clientId]);
    const figures = () =>
      database.query<{ kind: string; day: string; n: number; amount: string }>(
        `SELECT kind, to_char(day, 'YYYY-MM-DD') AS day, n, amount::text AS amount FROM revenue_changes WHERE client_id = $1 ORDER BY kind, day, amount`,
        [clientId],
      );
    const periods = () =>
      database.query<{ subscription: string; transaction: string; kind: string; start_at: string; mrr_usd: string }>(
        `SELECT subscription, transaction, kind, start_at::text AS start_at, mrr_usd::text AS mrr_usd FROM revenue_periods WHERE client_id = $1 ORDER BY start_at`,
        [clientId],
      );
    const before = await figures();
    expect(before).toContainEqual({ kind: 'gross', day: '2026-11-17', n: 1, amount: '4.99' });
    const periodsBefore = await periods();
    expect(periodsBefore).toContainEqual(expect.objectContaining({ subscription: '123456789012345', transaction: '123456789012345', kind: 'paid' }));
    expect((await erase(clientId, { reason: 'Art. 17 request', confirm_email: PERSON.email_address })).statusCode).toBe(200);
    await refreshRevenue(database, [clientId]);
    expect(await figures()).toEqual(before);
    // The periods keep their amounts and times, without the store's transaction ids.
    expect(await periods()).toEqual(periodsBefore.map((p) => ({ ...p, subscription: '(erased)', transaction: '(erased)' })));
  });

  it('a Mindbody import of the same person does not bring the erased fields back', async () => {
    await database.execScript('DELETE FROM jobs;');
    const { clientId } = await clientInEverySection(database, NOW);
    expect((await erase(clientId, { reason: 'Art. 17 request', confirm_email: PERSON.email_address })).statusCode).toBe(200);
    const standIn = await startMindbodyStandIn({
      clients: [
        rawClient(1, { Id: PERSON.mb_client_id, UniqueId: PERSON.unique_id, FirstName: 'Zelda', LastName: 'Quartermaine', Email: PERSON.email_address }),
        // The same person known by e-mail only (a new Mindbody record): still erased.
        rawClient(2, { FirstName: 'Zelda', LastName: 'Quartermaine', Email: 'zelda.q@example.test' }),
        rawClient(3, { FirstName: 'Yusuf', LastName: 'Ogun', Email: 'yusuf@example.test' }),
      ],
    });
    try {
      const mindbody = createMindbodyClient(
        { apiUrl: standIn.url, apiKey: STAND_IN.apiKey, siteIds: [-99], staffUsername: STAND_IN.username, staffPassword: STAND_IN.password },
        { sleep: async () => undefined, now: () => clock.now() },
      );
      const importing = await createTestApp(database, { clock, mindbody });
      try {
        const owner = await signIn(importing);
        const started = await importing.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie: owner }, payload: { full: true } });
        expect(started.statusCode, started.body).toBe(202);
        await importing.jobs.runDue();
      } finally {
        await importing.close();
      }
    } finally {
      await standIn.close();
    }
    const named = await database.query<{ id: number; email_address: string }>(
      `SELECT id, email_address FROM clients WHERE first_name = 'Zelda' OR lower(email_address) = 'zelda.q@example.test'`,
    );
    expect(named).toEqual([]);
    const [erased] = await database.query<Record<string, unknown>>('SELECT first_name, email_address, mb_client_id FROM clients WHERE id = $1', [clientId]);
    expect(erased).toEqual({ first_name: null, email_address: null, mb_client_id: null });
    const [yusuf] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM clients WHERE email_address = 'yusuf@example.test'`);
    expect(yusuf!.n).toBe(1);
  });

  it('answers bad input and races clearly, leaving nothing half-done', async () => {
    const { clientId } = await clientInEverySection(database, NOW);
    expect((await erase(999_999_999, { reason: 'test reason', confirm_email: 'x@y.z' })).statusCode).toBe(404);
    expect((await exportOf(999_999_999)).statusCode).toBe(404);
    expect((await exportOf(clientId, 'pdf')).statusCode).toBe(400);
    expect((await erase(clientId, { reason: 'x', confirm_email: PERSON.email_address })).statusCode).toBe(400);

    const wrong = await erase(clientId, { reason: 'Art. 17 request', confirm_email: 'someone.else@example.test' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toMatch(/does not match/);
    const [untouched] = await database.query<{ first_name: string }>('SELECT first_name FROM clients WHERE id = $1', [clientId]);
    expect(untouched!.first_name).toBe('Zelda');

    // An import running: refused, nothing changed.
    const [job] = await database.query<{ id: number }>(
      `INSERT INTO jobs (queue, payload, state, run_at, attempts, max_attempts, created_at) VALUES ('mindbody.sync', '{}', 'running', now(), 1, 1, now()) RETURNING id`,
    );
    const busy = await erase(clientId, { reason: 'Art. 17 request', confirm_email: PERSON.email_address });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toMatch(/Mindbody import is running/);
    await database.query('DELETE FROM jobs WHERE id = $1', [job!.id]);
    const [stillThere] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM client_notes WHERE client_id = $1', [clientId]);
    expect(stillThere!.n).toBe(1);

    // A broadcast being sent to them: refused too.
    const [broadcast] = await database.query<{ id: number }>(`INSERT INTO broadcasts (title, body, status) VALUES ('Now', 'Sending', 'sending') RETURNING id`);
    await database.query(`INSERT INTO broadcast_recipients (broadcast_id, client_id) VALUES ($1, $2)`, [broadcast!.id, clientId]);
    const sending = await erase(clientId, { reason: 'Art. 17 request', confirm_email: PERSON.email_address });
    expect(sending.statusCode).toBe(409);
    expect(sending.json().message).toMatch(/being sent/);
    await database.query(`UPDATE broadcasts SET status = 'sent' WHERE id = $1`, [broadcast!.id]);

    // Twice at once: one erases, the other is told it already happened.
    const answers = await Promise.all([
      erase(clientId, { reason: 'Art. 17 request', confirm_email: PERSON.email_address }),
      erase(clientId, { reason: 'Art. 17 request', confirm_email: PERSON.email_address }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().message).toMatch(/already erased/);
    const [erasures] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM client_erasures WHERE client_id = $1', [clientId]);
    expect(erasures!.n).toBe(1);

    // Afterwards nothing new about them can be written: a note, tags, a contact, a snooze, an override.
    const change = (method: 'POST' | 'PUT' | 'DELETE', path: string, payload?: Record<string, unknown>) =>
      app.inject({ method, url: `/api/admin/v1/clients/${clientId}/${path}`, headers: { cookie }, ...(payload ? { payload } : {}) });
    const afterwards = await Promise.all([
      change('POST', 'notes', { body: 'Called about the erasure' }),
      change('PUT', 'tags', { tags: ['vip'] }),
      change('POST', 'contacts', { kind: 'called' }),
      change('POST', 'snooze', { days: 7 }),
      change('DELETE', 'override'),
    ]);
    expect(afterwards.map((answer) => answer.statusCode)).toEqual([410, 410, 410, 410, 410]);
    for (const answer of afterwards) expect(answer.json().message).toMatch(new RegExp(`Client #${clientId} was erased on \\d{4}-\\d{2}-\\d{2}`));
    const [notes] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM client_notes WHERE client_id = $1', [clientId]);
    expect(notes!.n).toBe(0);
  });

  it('a RevenueCat that fails is retried by the job until it answers', async () => {
    const { clientId } = await clientInEverySection(database, NOW);
    await database.query(`UPDATE clients SET revenue_cat_user_id = 'rc-FAIL-once' WHERE id = $1`, [clientId]);
    await database.query(`UPDATE purchases SET revenue_cat_user_id = 'rc-FAIL-once' WHERE client_id = $1`, [clientId]);
    expect((await erase(clientId, { reason: 'Art. 17 request', confirm_email: PERSON.email_address })).statusCode).toBe(200);
    await app.jobs.runDue();
    const [failed] = await database.query<{ state: string; last_error: string }>(
      `SELECT state, last_error FROM erasure_outside WHERE client_id = $1 AND service = 'revenuecat' AND target = 'rc-FAIL-once'`,
      [clientId],
    );
    expect(failed).toMatchObject({ state: 'failed', last_error: expect.stringContaining('500') });
    // RevenueCat back: the next attempt (after the backoff) finishes it.
    await database.query(`UPDATE erasure_outside SET target = 'rc-recovered' WHERE client_id = $1 AND service = 'revenuecat' AND target = 'rc-FAIL-once'`, [
      clientId,
    ]);
    clock.advance(10 * 60_000);
    await app.jobs.runDue();
    expect(revenuecat.deleted).toContain('rc-recovered');
  });
});
