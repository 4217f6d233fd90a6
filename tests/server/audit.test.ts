import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { changedFields, recordAudit } from '../../server/src/audit/record';
import { dateBounds } from '../../server/src/audit/list';
import { csvField } from '@contract/csv';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, STAFF, testClock } from '../support/server';
import { insertVideos } from '../support/videoFixtures';

const OTHER = { email: 'front-desk@studio.test', password: 'another long password' };

describe('changedFields', () => {
  it('keeps only the fields that changed, on both sides', () => {
    expect(changedFields({ title: 'A', enabled: true, id: 1 }, { title: 'B', enabled: true, id: 1 })).toEqual({
      before: { title: 'A' },
      after: { title: 'B' },
    });
  });
  it('keeps a created record whole after, and a removed one whole before', () => {
    expect(changedFields(null, { id: 2, title: 'New' })).toEqual({ before: null, after: { id: 2, title: 'New' } });
    expect(changedFields({ id: 2, title: 'Old' }, null)).toEqual({ before: { id: 2, title: 'Old' }, after: null });
  });
  it('ignores updated_at and writes dates as ISO text', () => {
    const at = new Date('2026-11-22T10:00:00Z');
    expect(changedFields({ deleted_at: null, updated_at: 'x' }, { deleted_at: at, updated_at: 'y' })).toEqual({
      before: { deleted_at: null },
      after: { deleted_at: '2026-11-22T10:00:00.000Z' },
    });
  });
});

describe('audit CSV and date filter helpers', () => {
  it('quotes commas, quotes and newlines, and defuses spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField({ title: 'A' })).toBe('"{""title"":""A""}"');
    expect(csvField(null)).toBe('');
  });
  it('reads a bare "to" date as the whole of that day', () => {
    expect(dateBounds({ from: '2026-11-22', to: '2026-11-22' })).toEqual({
      from: new Date('2026-11-22T00:00:00.000Z'),
      to: new Date('2026-11-22T23:59:59.999Z'),
    });
  });
});

describe.each(testDatabases())('audit log on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  let otherCookie: string;
  let videoId: number;
  const clock = testClock(new Date('2026-11-20T09:00:00Z'));

  const list = async (params: Record<string, unknown> = {}, who = cookie) => {
    const query = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, JSON.stringify(value)]));
    const response = await app.inject({ method: 'GET', url: `/api/admin/v1/audit?${query}`, headers: { cookie: who } });
    expect(response.statusCode, response.body).toBe(200);
    return { rows: response.json() as Record<string, unknown>[], range: response.headers['content-range'] };
  };

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    cookie = await signIn(app);
    clock.advance(60_000);
    otherCookie = await signIn(app, OTHER);
    videoId = (await insertVideos(database, 3))[0]!.id;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('needs a staff session', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/v1/audit' });
    expect(response.statusCode).toBe(401);
  });

  it('records sign-ins with who and from where', async () => {
    const { rows } = await list({ filter: { action: 'auth.sign_in' }, sort: ['id', 'ASC'] });
    expect(rows.map((row) => row.staff_email)).toEqual([STAFF.email, OTHER.email]);
    expect(rows[0]).toMatchObject({ target_type: 'staff_user', ip: '127.0.0.1', at: '2026-11-20T09:00:00.000Z', after: { method: 'password' } });
  });

  it('records a failed sign-in under the account that was tried, whether it exists or not', async () => {
    for (const email of [STAFF.email, 'nobody@studio.test']) {
      const response = await app.inject({
        method: 'POST',
        url: '/login',
        payload: new URLSearchParams({ email, password: 'wrong password' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.statusCode).toBe(401);
    }
    const { rows } = await list({ filter: { action: 'auth.sign_in_failed' }, sort: ['id', 'ASC'] });
    expect(rows.map((row) => [row.staff_email, row.after])).toEqual([
      [STAFF.email, { reason: 'wrong password', step: 'password', user_agent: 'lightMyRequest' }],
      ['nobody@studio.test', { reason: 'unknown account', step: 'password', user_agent: 'lightMyRequest' }],
    ]);
  });

  it('records a message edit with before and after, and an addition', async () => {
    clock.advance(60_000);
    const added = await app.inject({
      method: 'POST',
      url: '/api/client/v1/messaging/add-new',
      headers: { cookie },
      payload: { title: 'We missed you', message: 'Hey {first_name}', enabled: true, message_type: 2 },
    });
    const id = added.json().push_message.id as number;
    const edited = await app.inject({
      method: 'POST',
      url: '/api/client/v1/messaging/update',
      headers: { cookie: otherCookie },
      payload: { id, title: 'We miss you', message: 'Hey {first_name}', enabled: false },
    });
    expect(edited.statusCode).toBe(200);
    const { rows } = await list({ filter: { target_type: 'message', target_id: String(id) }, sort: ['id', 'ASC'] });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ action: 'message.create', staff_email: STAFF.email, before: null, after: { id, title: 'We missed you', enabled: true } });
    expect(rows[1]).toMatchObject({
      action: 'message.update',
      staff_email: OTHER.email,
      before: { title: 'We missed you', enabled: true },
      after: { title: 'We miss you', enabled: false },
    });
  });

  it('records a video edit and a delete; a save that changes nothing is not logged', async () => {
    const put = (payload: object) => app.inject({ method: 'PUT', url: `/api/admin/v1/videos/${videoId}`, headers: { cookie }, payload });
    expect((await put({ access_level_id: 3 })).statusCode).toBe(200);
    expect((await put({ access_level_id: 3 })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/v1/videos/${videoId}`, headers: { cookie } })).statusCode).toBe(200);
    const { rows } = await list({ filter: { target_type: 'video' }, sort: ['id', 'ASC'] });
    expect(rows.map((row) => [row.action, row.before, row.after])).toEqual([
      ['video.update', { access_level_id: 2 }, { access_level_id: 3 }],
      ['video.delete', { deleted_at: null }, { deleted_at: clock.now().toISOString() }],
    ]);
  });

  it('records nothing for a refused change', async () => {
    const before = (await list()).range;
    const response = await app.inject({ method: 'PUT', url: `/api/admin/v1/videos/${videoId}`, headers: { cookie }, payload: { category_id: 999_999 } });
    expect(response.statusCode).toBe(400);
    expect((await list()).range).toBe(before);
  });

  it('keeps the change and its entry together: when the entry cannot be written the change is undone', async () => {
    const [message] = await database.query<{ id: number; title: string }>('SELECT id, title FROM push_messages ORDER BY id LIMIT 1');
    await database.execScript('ALTER TABLE audit_log RENAME TO audit_log_away');
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/api/client/v1/messaging/update',
        headers: { cookie },
        payload: { id: message!.id, title: 'Lost without a trace', message: 'x', enabled: true },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: 'Internal server error' });
    } finally {
      await database.execScript('ALTER TABLE audit_log_away RENAME TO audit_log');
    }
    const [after] = await database.query<{ title: string }>('SELECT title FROM push_messages WHERE id = $1', [message!.id]);
    expect(after!.title).toBe(message!.title);
  });

  it('records a Vimeo sync started by staff, once per sync', async () => {
    const start = () => app.inject({ method: 'GET', url: '/api/v1/sync/all-vimeo-videos', headers: { cookie } });
    expect((await start()).json().started).toBe(true);
    expect((await start()).json().started).toBe(false);
    const { rows } = await list({ filter: { action: 'vimeo_sync.start' } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ staff_email: STAFF.email, target_type: 'vimeo_sync' });
  });

  it('records a Mindbody import started by staff', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie }, payload: { full: true } });
    expect(response.statusCode).toBe(202);
    const { rows } = await list({ filter: { action: 'mindbody_sync.start' } });
    expect(rows).toMatchObject([{ staff_email: STAFF.email, target_id: String(response.json().job_id), after: { full: true } }]);
  });

  it('filters by staff member, client and date range, and pages with Content-Range', async () => {
    await recordAudit(app.database, {
      staff: { id: 1, email: STAFF.email },
      action: 'client.access_level',
      target_type: 'client',
      target_id: 77,
      client_id: 77,
      before: { vod_access_level: 1 },
      after: { vod_access_level: 3 },
      at: new Date('2026-11-01T12:00:00Z'),
    });
    await recordAudit(app.database, {
      staff: { id: 1, email: STAFF.email },
      action: 'client.push',
      target_type: 'client',
      target_id: 78,
      client_id: 78,
      after: { title: 'Hi' },
      at: new Date('2026-11-02T12:00:00Z'),
    });

    const ofClient = await list({ filter: { client_id: 77 } });
    expect(ofClient.rows.map((row) => row.action)).toEqual(['client.access_level']);
    expect(ofClient.range).toBe('audit 0-0/1');

    const byOther = await list({ filter: { staff_email: OTHER.email.toUpperCase() } });
    expect(new Set(byOther.rows.map((row) => row.staff_email))).toEqual(new Set([OTHER.email]));

    const earlyNovember = await list({ filter: { from: '2026-11-01', to: '2026-11-01' } });
    expect(earlyNovember.rows.map((row) => row.client_id)).toEqual([77]);

    const newestFirst = await list({ range: [0, 1] });
    expect(newestFirst.rows).toHaveLength(2);
    expect(newestFirst.range).toMatch(/^audit 0-1\/\d+$/);
    expect(new Date(String(newestFirst.rows[0]!.at)) >= new Date(String(newestFirst.rows[1]!.at))).toBe(true);
  });

  it('answers one entry by id, and 404 for an unknown one', async () => {
    const [first] = (await list({ range: [0, 0] })).rows;
    const one = await app.inject({ method: 'GET', url: `/api/admin/v1/audit/${first!.id}`, headers: { cookie } });
    expect(one.json()).toEqual(first);
    const missing = await app.inject({ method: 'GET', url: '/api/admin/v1/audit/999999', headers: { cookie } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('No audit entry with id 999999.');
  });

  it('refuses a bad filter with a message naming it', async () => {
    const query = new URLSearchParams({ filter: JSON.stringify({ from: 'yesterday' }) });
    const response = await app.inject({ method: 'GET', url: `/api/admin/v1/audit?${query}`, headers: { cookie } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('filter.from');
    const unknown = await app.inject({ method: 'GET', url: `/api/admin/v1/audit?filter=${encodeURIComponent('{"password":"x"}')}`, headers: { cookie } });
    expect(unknown.statusCode).toBe(400);
  });

  it('exports the filtered log as CSV', async () => {
    const query = new URLSearchParams({ filter: JSON.stringify({ client_id: 77 }) });
    const response = await app.inject({ method: 'GET', url: `/api/admin/v1/audit/export?${query}`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(response.body.split('\r\n')).toEqual([
      'id,at,staff_email,action,target_type,target_id,client_id,before,after,ip',
      expect.stringMatching(
        /^\d+,2026-11-01T12:00:00.000Z,coach@studio.test,client.access_level,client,77,77,"{""vod_access_level"":1}","{""vod_access_level"":3}",$/,
      ),
      '',
    ]);
  });

  it('exports a number that starts with a minus as that number, and defuses a formula', async () => {
    await recordAudit(app.database, {
      staff: { id: 1, email: STAFF.email },
      action: 'video.update',
      target_type: 'video',
      target_id: -5,
      client_id: 79,
      before: null,
      after: null,
      ip: '=1+1',
      at: new Date('2026-11-03T12:00:00Z'),
    });
    const query = new URLSearchParams({ filter: JSON.stringify({ client_id: 79 }) });
    const response = await app.inject({ method: 'GET', url: `/api/admin/v1/audit/export?${query}`, headers: { cookie } });
    const fields = response.body.split('\r\n')[1].split(',');
    expect(fields[5]).toBe('-5');
    expect(fields[9]).toBe("'=1+1");
  });

  it('lists staff accounts for the staff filter', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/admin/v1/audit-staff', headers: { cookie } });
    expect(response.json().map((row: { email: string }) => row.email)).toEqual([STAFF.email, OTHER.email].sort());
  });
});
