import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { mayChangeNote, sameTags, tagSet } from '../../server/src/clients/noteRules';
import { Note, normalizeTag } from '@contract/notes';
import { ClientFilter } from '@contract/clientFilter';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';
import { insertClient } from '../support/clientFixtures';

const NOW = new Date('2026-11-22T12:00:00Z');
const ADMIN = '/api/admin/v1';

describe('note and tag rules', () => {
  it('lets only the author change a note, and stores each tag once, normalized', () => {
    expect(mayChangeNote(4, 4)).toBe(true);
    expect(mayChangeNote(4, 5)).toBe(false);
    expect(mayChangeNote(null, 4)).toBe(false);
    expect(mayChangeNote(4, undefined)).toBe(false);
    expect(normalizeTag('  Early   Bird ')).toBe('early bird');
    expect(tagSet(['vip', 'injury', 'vip'])).toEqual(['injury', 'vip']);
    expect(sameTags(['a', 'b'], ['b', 'a', 'a'])).toBe(true);
    expect(ClientFilter.parse({ tag: [' VIP '] })).toEqual({ tag: ['vip'] });
    expect(() => ClientFilter.parse({ tag: ['-x'] })).toThrow(/starts with a letter or digit/);
  });
});

describe.each(testDatabases())('notes and tags on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let coach: string;
  let desk: string;
  let content: string;
  let ada: number;
  let bo: number;
  const clock = testClock(NOW);

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const audit = () =>
    database.query<{ action: string; staff_email: string; before: unknown; after: unknown }>(
      `SELECT action, staff_email, before, after FROM audit_log WHERE action LIKE 'client.note%' OR action = 'client.tags' ORDER BY id`,
    );

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    coach = await signIn(app);
    desk = await signIn(app, { email: 'desk@studio.test', password: 'correct horse battery', role: 'front_desk' });
    content = await signIn(app, { email: 'content@studio.test', password: 'correct horse battery', role: 'content' });
    ada = await insertClient(database, { first_name: 'Ada', email_address: 'ada@studio.test' });
    bo = await insertClient(database, { first_name: 'Bo', email_address: 'bo@studio.test' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('adds notes with author and time; the author alone edits and deletes them; all audited and on the timeline', async () => {
    const added = await call('POST', `${ADMIN}/clients/${ada}/notes`, desk, { body: '  Knee injury, no jumping  ' });
    expect(added.statusCode, added.body).toBe(200);
    const note = Note.parse(added.json());
    expect(note).toMatchObject({
      client_id: ada,
      body: 'Knee injury, no jumping',
      author_email: 'desk@studio.test',
      created_at: NOW.toISOString(),
      mine: true,
    });
    await call('POST', `${ADMIN}/clients/${ada}/notes`, coach, { body: 'Prefers mornings' });

    const listed = (await call('GET', `${ADMIN}/clients/${ada}/notes`, coach)).json().notes as Note[];
    expect(listed.map((n) => [n.body, n.mine])).toEqual([
      ['Prefers mornings', true],
      ['Knee injury, no jumping', false],
    ]);

    // Another staff member's note: 403, and it stays as it was.
    expect((await call('PUT', `${ADMIN}/notes/${note.id}`, coach, { body: 'changed' })).statusCode).toBe(403);
    expect((await call('DELETE', `${ADMIN}/notes/${note.id}`, coach)).statusCode).toBe(403);
    clock.advance(60_000);
    const edited = await call('PUT', `${ADMIN}/notes/${note.id}`, desk, { body: 'Knee injury: low impact only' });
    expect(edited.json()).toMatchObject({
      body: 'Knee injury: low impact only',
      updated_at: new Date(NOW.getTime() + 60_000).toISOString(),
      created_at: NOW.toISOString(),
    });
    const timeline = (await call('GET', `${ADMIN}/clients/${ada}/timeline?kinds=note`, coach)).json();
    expect(timeline.entries.map((e: { detail: string; by: string }) => [e.detail, e.by])).toEqual([
      ['Prefers mornings', 'coach@studio.test'],
      ['Knee injury: low impact only', 'desk@studio.test'],
    ]);
    expect((await call('DELETE', `${ADMIN}/notes/${note.id}`, desk)).json()).toEqual({ id: note.id });
    expect((await call('DELETE', `${ADMIN}/notes/${note.id}`, desk)).statusCode).toBe(404);
    expect(await audit()).toEqual([
      { action: 'client.note_add', staff_email: 'desk@studio.test', before: null, after: { body: 'Knee injury, no jumping' } },
      { action: 'client.note_add', staff_email: 'coach@studio.test', before: null, after: { body: 'Prefers mornings' } },
      {
        action: 'client.note_update',
        staff_email: 'desk@studio.test',
        before: { body: 'Knee injury, no jumping' },
        after: { body: 'Knee injury: low impact only' },
      },
      { action: 'client.note_delete', staff_email: 'desk@studio.test', before: { body: 'Knee injury: low impact only' }, after: null },
    ]);
  });

  it('sets tags, suggests them, and the client lists filter by them', async () => {
    const set = await call('PUT', `${ADMIN}/clients/${ada}/tags`, desk, { tags: ['VIP', ' early  bird', 'vip'] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ tags: ['early bird', 'vip'] });
    await call('PUT', `${ADMIN}/clients/${bo}/tags`, desk, { tags: ['vip'] });
    // The same tags again change nothing and write no audit entry.
    await call('PUT', `${ADMIN}/clients/${bo}/tags`, desk, { tags: ['VIP'] });
    expect((await call('GET', `${ADMIN}/clients/${ada}/tags`, content)).statusCode).toBe(403);
    expect((await call('GET', `${ADMIN}/clients/${ada}/tags`, desk)).json()).toEqual({ tags: ['early bird', 'vip'] });
    expect((await call('GET', `${ADMIN}/tags?q=V`, desk)).json()).toEqual({ tags: [{ tag: 'vip', clients: 2 }] });
    expect((await call('GET', `${ADMIN}/tags`, desk)).json().tags.map((t: { tag: string }) => t.tag)).toEqual(['vip', 'early bird']);
    const names = async (query: string) =>
      ((await call('GET', `/api/client/v1/clients/1?perPage=10&${query}`, desk)).json().clients as { first_name: string }[]).map((c) => c.first_name);
    expect(await names('tag=Early%20Bird')).toEqual(['Ada']);
    expect(await names('tag=vip')).toEqual(['Ada', 'Bo']);
    expect(await names('tag=nobody')).toEqual([]);
    expect((await audit()).filter((entry) => entry.action === 'client.tags')).toEqual([
      { action: 'client.tags', staff_email: 'desk@studio.test', before: { tags: [] }, after: { tags: ['early bird', 'vip'] } },
      { action: 'client.tags', staff_email: 'desk@studio.test', before: { tags: [] }, after: { tags: ['vip'] } },
    ]);
  });

  it('refuses bad input, unknown ids and roles without the permission', async () => {
    const bad: [string, string, unknown][] = [
      ['POST', `${ADMIN}/clients/${ada}/notes`, { body: '' }],
      ['POST', `${ADMIN}/clients/${ada}/notes`, { body: 42 }],
      ['POST', `${ADMIN}/clients/${ada}/notes`, { body: 'a\u0000b' }],
      ['POST', `${ADMIN}/clients/${ada}/notes`, { body: 'x'.repeat(2001) }],
      ['POST', `${ADMIN}/clients/abc/notes`, { body: 'hi' }],
      ['PUT', `${ADMIN}/notes/1.5`, { body: 'hi' }],
      ['PUT', `${ADMIN}/clients/${ada}/tags`, { tags: 'vip' }],
      ['PUT', `${ADMIN}/clients/${ada}/tags`, { tags: ['ok', ''] }],
      ['PUT', `${ADMIN}/clients/${ada}/tags`, { tags: ['<script>'] }],
      ['PUT', `${ADMIN}/clients/${ada}/tags`, { tags: ['x'.repeat(41)] }],
      ['PUT', `${ADMIN}/clients/${ada}/tags`, { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
      ['GET', '/api/client/v1/clients/1?tag=%00', undefined],
    ];
    for (const [method, url, payload] of bad) {
      expect((await call(method as 'POST', url, desk, payload)).statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
    }
    expect((await call('POST', `${ADMIN}/clients/999999/notes`, desk, { body: 'hi' })).statusCode).toBe(404);
    expect((await call('GET', `${ADMIN}/clients/999999/notes`, desk)).statusCode).toBe(404);
    expect((await call('PUT', `${ADMIN}/clients/999999/tags`, desk, { tags: ['vip'] })).statusCode).toBe(404);
    expect((await call('PUT', `${ADMIN}/notes/999999`, desk, { body: 'hi' })).statusCode).toBe(404);
    const denied = await call('POST', `${ADMIN}/clients/${ada}/notes`, content, { body: 'hi' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toMatch(/clients\.notes/);
  });
});
