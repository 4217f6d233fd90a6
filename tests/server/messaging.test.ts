import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';

const TYPE_TITLES = ['High Five', 'Missed Class', '#notetoself', 'Monday Morning', 'Cancelled Class', 'Extended Absense'];

describe.each(testDatabases())('push-message templates on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  let cookie: string;
  const clock = testClock();

  const get = (typeId: string | number) => app.inject({ method: 'GET', url: `/api/client/v1/messaging/${typeId}`, headers: { cookie } });
  const post = (call: 'update' | 'add-new', payload: unknown) =>
    app.inject({ method: 'POST', url: `/api/client/v1/messaging/${call}`, headers: { cookie }, payload: payload as object });
  const add = async (fields: { message_type: number; title?: string; message?: string; enabled?: boolean }) => {
    const response = await post('add-new', { title: 'A title', message: 'Some text', enabled: true, ...fields });
    expect(response.statusCode).toBe(200);
    return response.json().push_message as { id: number };
  };
  const storedCount = async () => (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM push_messages'))[0]!.n;
  const storedRow = async (id: number) => (await database.query('SELECT title, message, enabled, message_type FROM push_messages WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock });
    cookie = await signIn(app);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  describe('GET /api/client/v1/messaging/{typeId}', () => {
    it('needs a staff session', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/client/v1/messaging/1' });
      expect(response.statusCode).toBe(401);
    });

    it('lists only the messages of the asked type, oldest first, with the type title', async () => {
      const first = await add({ message_type: 2, title: 'We missed you', message: 'Hey {first_name}', enabled: true });
      await add({ message_type: 3, title: 'Other type', message: 'Not this one' });
      const second = await add({ message_type: 2, title: 'Everything OK?', message: 'Life happens', enabled: false });
      const response = await get(2);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        messages: [
          { id: first.id, title: 'We missed you', message: 'Hey {first_name}', enabled: true, message_type: 2, msg_type_title: 'Missed Class' },
          { id: second.id, title: 'Everything OK?', message: 'Life happens', enabled: false, message_type: 2, msg_type_title: 'Missed Class' },
        ],
      });
    });

    it.each(TYPE_TITLES.map((title, index) => [index + 1, title] as const))('serves type %i titled %s', async (typeId, title) => {
      await add({ message_type: typeId });
      const { messages } = (await get(typeId)).json();
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.every((m: { msg_type_title: string; message_type: number }) => m.msg_type_title === title && m.message_type === typeId)).toBe(true);
    });

    it.each(['0', '7', '-1', '1.5', 'abc'])('refuses type %s with a 400 naming typeId', async (typeId) => {
      const response = await get(typeId);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('params.typeId');
      expect(response.json().message).toContain('from 1 to 6');
    });
  });

  describe('POST /api/client/v1/messaging/update', () => {
    it('stores the edited row, answers the stored message and leaves other rows alone', async () => {
      const target = await add({ message_type: 4, title: 'Monday Motivation', message: 'New week', enabled: true });
      const neighbour = await add({ message_type: 4, title: 'Good morning!', message: 'Kick off Monday', enabled: false });
      const response = await post('update', {
        id: target.id,
        title: 'Monday, reloaded',
        message: 'Start strong, {first_name}',
        enabled: false,
        message_type: 4,
        msg_type_title: 'Monday Morning',
        ranupdates: 'true',
      });
      expect(response.statusCode).toBe(200);
      const stored = {
        id: target.id,
        title: 'Monday, reloaded',
        message: 'Start strong, {first_name}',
        enabled: false,
        message_type: 4,
        msg_type_title: 'Monday Morning',
      };
      expect(response.json()).toEqual(stored);
      const { messages } = (await get(4)).json();
      expect(messages).toContainEqual(stored);
      expect(messages).toContainEqual({
        id: neighbour.id,
        title: 'Good morning!',
        message: 'Kick off Monday',
        enabled: false,
        message_type: 4,
        msg_type_title: 'Monday Morning',
      });
    });

    it('answers 404 for an id that does not exist and stores nothing', async () => {
      const before = await storedCount();
      const response = await post('update', { id: 987654, title: 'x', message: 'y', enabled: true });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toContain('987654');
      expect(await storedCount()).toBe(before);
    });

    it.each([
      ['an empty message', { message: '' }, 'body.message'],
      ['a whitespace-only message', { message: '   ' }, 'body.message'],
      ['a non-boolean enabled', { enabled: 'yes' }, 'body.enabled'],
      ['a missing id', { id: undefined }, 'body.id'],
      ['a type outside 1-6', { message_type: 9 }, 'body.message_type'],
      ['a title that is not text', { title: 42 }, 'body.title'],
    ])('refuses %s with a 400 naming the field and keeps the stored row', async (_, change, field) => {
      const target = await add({ message_type: 5, title: 'Class cancelled', message: 'Sorry', enabled: true });
      const response = await post('update', { id: target.id, title: 'Edited', message: 'Edited', enabled: false, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(field);
      expect(await storedRow(target.id)).toEqual({ title: 'Class cancelled', message: 'Sorry', enabled: true, message_type: 5 });
    });
  });

  describe('POST /api/client/v1/messaging/add-new', () => {
    it("stores the message and answers status 'success' with it", async () => {
      const response = await post('add-new', { enabled: true, message: 'It has been {days_absent} days', message_type: 6, title: '' });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.status).toBe('success');
      expect(body.push_message).toEqual({
        id: expect.any(Number),
        title: '',
        message: 'It has been {days_absent} days',
        enabled: true,
        message_type: 6,
        msg_type_title: 'Extended Absense',
      });
      expect((await get(6)).json().messages).toContainEqual(body.push_message);
    });

    it('accepts a message without title or enabled (title is not validated)', async () => {
      const response = await post('add-new', { message: 'Only content', message_type: 1 });
      expect(response.statusCode).toBe(200);
      expect(response.json().push_message).toMatchObject({ title: '', enabled: false, message: 'Only content' });
    });

    it.each([
      ['an empty message', { message: '' }, 'message'],
      ['a whitespace-only message', { message: ' \n ' }, 'message'],
      ['a missing message', { message: undefined }, 'message'],
      ['type 0', { message_type: 0 }, 'message_type'],
      ['type 7', { message_type: 7 }, 'message_type'],
      ['a missing type', { message_type: undefined }, 'message_type'],
      ['a text type', { message_type: 'two' }, 'message_type'],
    ])("refuses %s with status 'error', a 400 and nothing stored", async (_, change, field) => {
      const before = await storedCount();
      const response = await post('add-new', { enabled: true, message: 'Fine text', message_type: 2, title: 'T', ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 'error', message: expect.stringContaining(`body.${field}`) });
      expect(await storedCount()).toBe(before);
    });
  });
});

describe('push-message templates after a server restart (PGlite data directory)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sc-messaging-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps added and edited messages', async () => {
    const dataDir = path.join(dir, 'data');
    let database = await openDatabase({ dataDir });
    let app = await createTestApp(database);
    let cookie = await signIn(app);
    const added = await app.inject({
      method: 'POST',
      url: '/api/client/v1/messaging/add-new',
      headers: { cookie },
      payload: { enabled: false, message: 'Before restart', message_type: 2, title: 'Kept' },
    });
    const { id } = added.json().push_message;
    await app.inject({
      method: 'POST',
      url: '/api/client/v1/messaging/update',
      headers: { cookie },
      payload: { id, title: 'Kept and edited', message: 'Edited before restart', enabled: true },
    });
    await app.close();
    await database.close();

    database = await openDatabase({ dataDir });
    app = await createTestApp(database);
    cookie = await signIn(app);
    const response = await app.inject({ method: 'GET', url: '/api/client/v1/messaging/2', headers: { cookie } });
    expect(response.json().messages).toEqual([
      { id, title: 'Kept and edited', message: 'Edited before restart', enabled: true, message_type: 2, msg_type_title: 'Missed Class' },
    ]);
    await app.close();
    await database.close();
  });
});
